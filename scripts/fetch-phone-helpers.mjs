// Puts the pinned phone helpers into resources/phone-helpers/, so the app's first mirror is video with no network:
// scrcpy-server 3.3.3 and yadb 1.1.1, taken from the npm package that ships the genuine files (@midscene/android
// 1.7.3, through npm's own client) and kept only when their SHA-256 is the pinned one. Run by `npm install` (prepare);
// the app checks the sums again when it starts. A file already there with the right sum is left alone.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PINS = JSON.parse(readFileSync(path.join(root, 'resources', 'phone-helpers', 'pins.json'), 'utf8'));
const target = path.join(root, 'resources', 'phone-helpers');
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const hasPinned = (pin) => existsSync(path.join(target, pin.fileName)) && sha256(readFileSync(path.join(target, pin.fileName))) === pin.sha256;

const missing = PINS.helpers.filter((pin) => !hasPinned(pin));
if (missing.length === 0) process.exit(0);

const work = mkdtempSync(path.join(tmpdir(), 'amc-phone-helpers-'));
try {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const packed = spawnSync(npm, ['pack', PINS.package, '--pack-destination', work, '--silent'], { encoding: 'utf8', shell: process.platform === 'win32' });
  const tarball = packed.status === 0 ? packed.stdout.trim().split('\n').pop() : null;
  if (!tarball) throw new Error(`npm pack ${PINS.package} failed: ${(packed.stderr || packed.error?.message || '').trim()}`);
  const unpacked = spawnSync('tar', ['-xzf', path.join(work, tarball), '-C', work], { encoding: 'utf8' });
  if (unpacked.status !== 0) throw new Error(`could not unpack ${tarball}: ${unpacked.stderr.trim()}`);
  for (const pin of missing) {
    const bytes = readFileSync(path.join(work, 'package', pin.inPackage));
    if (sha256(bytes) !== pin.sha256) throw new Error(`${pin.inPackage} in ${PINS.package} is not ${pin.name} ${pin.version} (SHA-256 ${sha256(bytes)})`);
    writeFileSync(path.join(target, pin.fileName), bytes);
    console.log(`phone helpers: ${pin.name} ${pin.version} checked (SHA-256 ${pin.sha256.slice(0, 12)}…) and kept in resources/phone-helpers/`);
  }
} catch (error) {
  // Not fatal: the app falls back to a Settings path, an installed copy or the first-use download, and says so.
  console.warn(`phone helpers: not shipped (${error instanceof Error ? error.message : String(error)}); the app will download them on first use`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
