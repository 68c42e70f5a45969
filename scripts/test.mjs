// `npm test`: every gate (build, Electron review, typecheck, lint, layering, spec traceability) and every test.
// The build comes first (the browser tests serve it); the other gates then run one at a time alongside the tests,
// which spend much of their time waiting; each gate's output is printed whole when it ends.
import { spawn, spawnSync } from 'node:child_process';
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
  { what: 'ffmpeg (the tests decode the demo phone\'s H.264 video with it)', found: () => spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status === 0, apt: 'ffmpeg' },
  { what: 'a font with Chinese characters (the Chinese interface is laid out in Chromium)', found: () => /\S/.test(spawnSync('fc-list', [':lang=zh'], { encoding: 'utf8' }).stdout ?? ''), apt: 'fonts-wqy-microhei' },
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
console.log('✓ prerequisites (adb, Chromium, redis-server, ffmpeg, a Chinese font)');
// ---- end of prerequisites ----

/** Every other gate reads only the sources (the Electron review reads the build too, so it comes after it). */
const build = { title: 'build the app', command: bin('electron-vite'), args: ['build', '--logLevel', 'warn'] };
const checks = [
  { title: 'Electron security review (Electronegativity)', command: process.execPath, args: [path.join(root, 'scripts', 'electronegativity.mjs')] },
  { title: 'typecheck (node)', command: bin('tsc'), args: ['-p', 'tsconfig.node.json', '--noEmit'] },
  { title: 'typecheck (web)', command: bin('tsc'), args: ['-p', 'tsconfig.web.json', '--noEmit'] },
  { title: 'typecheck (tests)', command: bin('tsc'), args: ['-p', 'tsconfig.test.json', '--noEmit'] },
  { title: 'typecheck (demo phone package)', command: bin('tsc'), args: ['-p', 'packages/demo-phone/tsconfig.json', '--noEmit'] },
  { title: 'typecheck (provider clients package)', command: bin('tsc'), args: ['-p', 'packages/provider-clients/tsconfig.json', '--noEmit'] },
  { title: 'lint', command: bin('eslint'), args: ['.'] },
  { title: 'dependency direction', command: bin('depcruise'), args: ['src', '--config', '.dependency-cruiser.cjs'] },
  { title: 'openspec scenarios named in tests', command: process.execPath, args: [path.join(root, 'scripts', 'spec-trace.mjs'), '--strict'] },
];

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Runs one gate with its output captured, then prints that output as one block with the verdict; resolves with whether it passed. */
function runGate(gate) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(gate.command, gate.args, { cwd: root, env: { ...process.env, FORCE_COLOR: '0' } });
    let text = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => (text += chunk));
    }
    let finished = false;
    const finish = (passed, why) => {
      if (finished) return; // a spawn error may be followed by a close
      finished = true;
      console.log(`\n== ${gate.title}`);
      if (text.trim() !== '') process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      console.log(passed ? `✓ ${gate.title} (${seconds(started)})` : `✗ ${gate.title} failed (${why}).`);
      resolve(passed);
    };
    child.on('error', (error) => finish(false, error.message));
    child.on('close', (code, signal) => finish(code === 0, `exit ${code ?? signal}`));
  });
}

/** Runs the checks one after another (the tests use the other cores meanwhile); resolves with the titles that failed. */
async function runChecks() {
  const failed = [];
  for (const check of checks) if (!(await runGate(check))) failed.push(check.title);
  return failed;
}

/** Runs every test, its output straight to this terminal; resolves with the exit code. */
function runTests() {
  console.log('\n== tests (the other gates run alongside; each prints its result when it ends)');
  return new Promise((resolve) => {
    const child = spawn(bin('vitest'), ['run', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`✗ the tests could not start: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

// The browser tests serve the built page, so the build comes first; the rest runs side by side with the tests.
if (!(await runGate(build))) process.exit(1);
const started = Date.now();
const [failedChecks, testsExit] = await Promise.all([runChecks(), runTests()]);
console.log('');
if (failedChecks.length > 0) console.error(`✗ ${failedChecks.length} gate(s) failed: ${failedChecks.join('; ')}.`);
else console.log(`✓ every gate (${checks.length + 1})`);
if (testsExit !== 0) console.error(`✗ tests failed (exit ${testsExit}).`);
else console.log(`✓ tests, with the gates alongside (${seconds(started)})`);
if (failedChecks.length > 0 || testsExit !== 0) process.exit(testsExit || 1);
