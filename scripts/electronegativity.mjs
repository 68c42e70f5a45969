// Electronegativity (Doyensec's Electron security review) over the shell, the preload and the built page.
// Fails on any finding above LOW that is not explained by an `eng-disable` comment next to the code.
// Its CLI cannot read its options with the `commander` this project's tree resolves, so its runner is called.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const require = createRequire(import.meta.url);
const builtPage = path.join(root, 'out', 'renderer', 'index.html');
if (!existsSync(builtPage)) {
  console.error(`✗ ${builtPage} is missing: run \`npm run build\` first (the page's CSP is added at build time).`);
  process.exit(1);
}

// What ships and talks to Electron: the main process (shell included), the preload, and the page with its CSP.
const staging = mkdtempSync(path.join(os.tmpdir(), 'amc-electronegativity-'));
for (const folder of ['main', 'core', 'app']) cpSync(path.join(root, 'src', folder), path.join(staging, folder), { recursive: true });
cpSync(path.join(root, 'src', 'preload'), path.join(staging, 'preload'), { recursive: true });
cpSync(builtPage, path.join(staging, 'index.html'));

const run = require('@doyensec/electronegativity/dist/runner.js');
const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
let result;
try {
  result = await run(
    { input: staging, customScan: [], excludeFromScan: [], isRelative: true, isVerbose: false, parserPlugins: [], electronVersionOverride: electronVersion },
    false,
  );
} finally {
  rmSync(staging, { recursive: true, force: true });
}

const LOW = 1;
const blocking = result.issues.filter((issue) => issue.severity.value > LOW);
for (const issue of result.issues) {
  const where = `${issue.file}:${issue.location.line}:${issue.location.column}`;
  console.log(`${issue.severity.value > LOW ? '✗' : '·'} ${issue.severity.name} ${issue.id} at ${where}`);
}
for (const error of result.errors) console.error(`✗ could not scan ${error.file ?? ''}: ${error.message ?? error}`);
console.log(`${result.atomicChecks} checks and ${result.globalChecks} global checks: ${result.issues.length} findings, ${blocking.length} above LOW.`);
if (blocking.length > 0 || result.errors.length > 0) {
  console.error('Fix each finding above LOW, or explain it with an `eng-disable CHECK_ID` comment on its line.');
  process.exit(1);
}
