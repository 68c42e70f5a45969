// `npm start`: opens the desktop window where Electron can run; otherwise serves the same UI to a browser and says why.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const electronDir = path.join(root, 'node_modules', 'electron');
const forwardedArgs = process.argv.slice(2);

function ensureBuilt() {
  const built = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'].every((f) => existsSync(path.join(root, f)));
  if (built) return;
  console.log('Building the app (first start)…');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** The Electron executable, as the electron package records it once its binary is in place. */
function electronBinary() {
  const pathFile = path.join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = path.join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

/** Fetches Electron's binary once (npm installs the package without it when its install script is not allowed). */
function tryInstallElectron() {
  if (!existsSync(path.join(electronDir, 'install.js'))) return 'the electron package is not installed';
  console.log("Fetching Electron's binary (first start only)…");
  const result = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], {
    cwd: electronDir,
    encoding: 'utf8',
    timeout: 5 * 60_000,
  });
  if (result.status === 0 && electronBinary()) return undefined;
  const detail = `${result.stderr ?? ''}${result.error?.message ?? ''}`
    .split('\n')
    .find((line) => /error/i.test(line))
    ?.trim();
  return `its binary could not be downloaded${detail ? ` (${detail.slice(0, 160)})` : ''}`;
}

function whyNoDesktopWindow() {
  if (process.env.AMC_BROWSER === '1') return 'AMC_BROWSER=1 asks for the browser UI';
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return 'there is no graphical display here (DISPLAY and WAYLAND_DISPLAY are not set)';
  }
  if (electronBinary()) return undefined;
  const failure = tryInstallElectron();
  return failure ? `Electron is not available: ${failure}` : undefined;
}

function run(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
  const stop = (signal) => child.kill(signal);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
}

ensureBuilt();
const reason = whyNoDesktopWindow();
if (reason === undefined) {
  run(electronBinary(), [root, ...forwardedArgs]);
} else {
  console.log(`No desktop window: ${reason}.`);
  console.log('Serving the same UI in your browser instead.');
  run(process.execPath, [path.join(root, 'bin', 'amc.mjs'), 'serve', ...forwardedArgs]);
}
