import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { say, type Said, type Saying } from '../../../shared/said';
import { settingInForm } from '../../../shared/settings-catalog';
import type { HelperFacts } from './catalog';

/** Where a helper file came from, in the order they are tried. */
export type HelperOrigin = 'settings' | 'shipped' | 'installed' | 'cached' | 'downloaded';

export type HelperResolution =
  | { available: true; file: string; bytes: Buffer; origin: HelperOrigin }
  /**
   * `reason` is one short clause in plain words, e.g. "the download was refused (ECONNREFUSED)"; `fix` says what
   * the person can set to have the helper, since every refusal here is a matter of configuration.
   */
  | { available: false; reason: string; fix: string; said: { reason: Said; fix: Said } };

/** A refusal: the English words, and their codes for a window in another language. */
const refused = (reason: Saying, fix: Saying): HelperResolution => ({ available: false, reason: reason.text, fix: fix.text, said: { reason: reason.said, fix: fix.said } });

export interface ProvisionOptions {
  /** The helper's path from Settings (empty: not set). Taken as the person gave it, without a checksum. */
  configuredPath: string;
  /** The data folder; downloads are cached under `<dataDir>/helpers/`. */
  dataDir: string;
  /** The folder of the copies shipped with the app (resources/phone-helpers); null: none shipped. */
  shippedDir: string | null;
  /** False stops the first-use download (installed and cached copies are still used). */
  allowDownload: boolean;
  /** Where a package manager may have put the file; default: the helper's usual places on this OS. */
  installedPaths?: string[];
  /** The release file's address; tests point it at a loopback server. */
  downloadUrl?: string;
  downloadTimeoutMs?: number;
}

const DOWNLOAD_TIMEOUT_MS = 15_000;
/** The helpers are small (90 KB, 14 KB): anything far larger is not the file. */
const MAX_DOWNLOAD_BYTES = 4 * 1024 * 1024;

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

const describe = (error: unknown): string => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return cause.code;
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in time';
  return error instanceof Error ? error.message : String(error);
};

async function readIfPresent(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch {
    return null;
  }
}

/** What gets the helper when it could not be found, in the Settings form's words: every refusal here is configuration. */
function fixFor(helper: HelperFacts, why: 'unreadable' | 'downloads-off' | 'download-failed'): Saying {
  const file = { fileSetting: `helpers.${helper.pathSetting}`, fileSection: settingInForm('helpers', helper.pathSetting).section };
  if (why === 'unreadable') return say('helper.fixUnreadable', file);
  if (why === 'downloads-off') return say('helper.fixDownloadsOff', { ...file, downloadSetting: 'helpers.download' });
  return say('helper.fixDownloadFailed', { ...file, helper: `${helper.name} ${helper.version}`, url: helper.downloadUrl });
}

/**
 * Finds a helper file: the Settings path, the copy shipped with the app, an installation of the pinned version on
 * this machine, the copy cached by an earlier download, or a first-use download of the official release verified against its pinned
 * SHA-256. A refusal says why in one clause, so the caller can name it next to the fallback it runs.
 */
export async function provisionHelper(helper: HelperFacts, options: ProvisionOptions): Promise<HelperResolution> {
  const label = `${helper.name} ${helper.version}`;
  if (options.configuredPath) {
    const bytes = await readIfPresent(options.configuredPath);
    if (!bytes) return refused(say('helper.unreadable', { name: helper.name, path: options.configuredPath }), fixFor(helper, 'unreadable'));
    return { available: true, file: options.configuredPath, bytes, origin: 'settings' };
  }
  const otherVersions: string[] = [];
  // The copy shipped with the app, checked against its pinned sum every time it is read: a changed file is not used.
  if (options.shippedDir) {
    const shipped = path.join(options.shippedDir, helper.fileName);
    const bytes = await readIfPresent(shipped);
    if (bytes && sha256(bytes) === helper.sha256) return { available: true, file: shipped, bytes, origin: 'shipped' };
    if (bytes) otherVersions.push(shipped);
  }
  for (const candidate of options.installedPaths ?? helper.installedAt(process.platform, process.env)) {
    const bytes = await readIfPresent(candidate);
    if (!bytes) continue;
    if (sha256(bytes) === helper.sha256) return { available: true, file: candidate, bytes, origin: 'installed' };
    otherVersions.push(candidate);
  }
  const cached = path.join(options.dataDir, 'helpers', helper.fileName);
  const cachedBytes = await readIfPresent(cached);
  if (cachedBytes && sha256(cachedBytes) === helper.sha256) return { available: true, file: cached, bytes: cachedBytes, origin: 'cached' };
  // Copies of another version are named in the reason: the person may think the helper is installed.
  const others = otherVersions.length > 0 ? { others: otherVersions.join(', ') } : null;
  const reason = (code: 'downloadsOff' | 'downloadRefused' | 'downloadFailed', values: Record<string, string | number> = {}) =>
    others ? say(`helper.${code}OtherCopies`, { helper: label, ...values, ...others }) : say(`helper.${code}`, { helper: label, ...values });
  if (!options.allowDownload) return refused(reason('downloadsOff'), fixFor(helper, 'downloads-off'));

  const url = options.downloadUrl ?? helper.downloadUrl;
  let bytes: Buffer;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(options.downloadTimeoutMs ?? DOWNLOAD_TIMEOUT_MS), redirect: 'follow' });
    if (!response.ok) return refused(reason('downloadRefused', { status: response.status }), fixFor(helper, 'download-failed'));
    bytes = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    return refused(reason('downloadFailed', { why: describe(error) }), fixFor(helper, 'download-failed'));
  }
  if (bytes.length > MAX_DOWNLOAD_BYTES || sha256(bytes) !== helper.sha256) {
    return refused(say('helper.checksumMismatch', { helper: label }), fixFor(helper, 'download-failed'));
  }
  await mkdir(path.dirname(cached), { recursive: true });
  const partial = `${cached}.${process.pid}.partial`;
  await writeFile(partial, bytes);
  await rename(partial, cached);
  return { available: true, file: cached, bytes, origin: 'downloaded' };
}
