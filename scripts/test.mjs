// `npm test`: every gate in order — build, typecheck, lint, layering, spec traceability, then every test.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const steps = [
  ['build the app', bin('electron-vite'), ['build', '--logLevel', 'warn']],
  ['typecheck (node)', bin('tsc'), ['-p', 'tsconfig.node.json', '--noEmit']],
  ['typecheck (web)', bin('tsc'), ['-p', 'tsconfig.web.json', '--noEmit']],
  ['typecheck (tests)', bin('tsc'), ['-p', 'tsconfig.test.json', '--noEmit']],
  ['lint', bin('eslint'), ['.']],
  ['dependency direction', bin('depcruise'), ['src', '--config', '.dependency-cruiser.cjs']],
  ['openspec scenarios named in tests', process.execPath, [path.join(root, 'scripts', 'spec-trace.mjs'), '--strict']],
  ['tests', bin('vitest'), ['run', ...process.argv.slice(2)]],
];

for (const [title, command, args] of steps) {
  console.log(`\n== ${title}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n✗ ${title} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status || 1);
  }
  console.log(`✓ ${title} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
