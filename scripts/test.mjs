// `npm test`: every gate in order — build, typecheck, lint, layering, spec traceability, then every test.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

// ---- prerequisites (a separate step, before any gate): the tools the integration tests drive for real ----
/** What the tests need from the machine, each with the Debian package that provides it. */
const chromiumPath = process.env.AMC_CHROMIUM_PATH ?? '/usr/bin/chromium';
const prerequisites = [
  { what: 'adb (the Android platform tools)', found: () => spawnSync('adb', ['version'], { stdio: 'ignore' }).status === 0, apt: 'adb' },
  { what: `Chromium at ${chromiumPath} (set AMC_CHROMIUM_PATH to use another)`, found: () => isExecutable(chromiumPath), apt: 'chromium' },
  { what: 'redis-server (the control plane\'s shared store)', found: () => spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0, apt: 'redis-server' },
];

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

console.log('== prerequisites');
const missing = prerequisites.filter((prerequisite) => !prerequisite.found());
if (missing.length > 0) {
  for (const prerequisite of missing) console.error(`✗ missing: ${prerequisite.what}`);
  console.error(`\nInstall with:\n  sudo apt-get install -y ${missing.map((prerequisite) => prerequisite.apt).join(' ')}\n`);
  process.exit(1);
}
console.log('✓ prerequisites (adb, Chromium, redis-server)');
// ---- end of prerequisites ----

const steps = [
  ['build the app', bin('electron-vite'), ['build', '--logLevel', 'warn']],
  ['Electron security review (Electronegativity)', process.execPath, [path.join(root, 'scripts', 'electronegativity.mjs')]],
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
