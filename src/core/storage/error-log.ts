import { appendFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { redactSecrets } from '@amc/provider-clients';

/**
 * The technical side of a failure (error class, stack trace) goes to `<data folder>/logs/<name>.log` instead of the
 * screen: people read plain words, a bug report gets the log. Best effort — a log that cannot be written never
 * hides the failure itself. Every entry passes the redaction step first (keys, tokens, URL passwords).
 *
 * The log is rotated: past LOG_FILE_BYTES it becomes `<name>.log.1` (the older one `.2`), so a flood of failures
 * keeps at most LOG_FILES files of that size.
 */
export const LOG_FILE_BYTES = 5 * 1024 * 1024;
export const LOG_FILES = 3;
/** One entry is cut to this, so a huge message cannot make one file much larger than the limit. */
const MAX_ENTRY_CHARS = 64 * 1024;

export function errorLogPath(home: string, name: string): string {
  return path.join(home, 'logs', `${name}.log`);
}

/** Writes to one log file happen one after another, so rotation never races an append in this process. */
const queues = new Map<string, Promise<unknown>>();

export function logError(home: string, name: string, context: string, error: unknown): Promise<string | undefined> {
  const file = errorLogPath(home, name);
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  const entry = redactSecrets(`${new Date().toISOString()} ${context}\n${detail}`).slice(0, MAX_ENTRY_CHARS);
  const write = (queues.get(file) ?? Promise.resolve()).then(() => appendRotated(file, `${entry}\n\n`));
  const settled = write.then(
    () => file,
    () => undefined,
  );
  queues.set(file, settled);
  void settled.then(() => {
    if (queues.get(file) === settled) queues.delete(file);
  });
  return settled;
}

async function appendRotated(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const size = await stat(file).then(
    (info) => info.size,
    () => 0,
  );
  if (size > 0 && size + Buffer.byteLength(text) > LOG_FILE_BYTES) await rotate(file);
  await appendFile(file, text, { mode: 0o600 });
}

/** `name.log` -> `name.log.1` -> ... -> `name.log.<LOG_FILES - 1>`; the oldest is dropped. */
async function rotate(file: string): Promise<void> {
  await rm(`${file}.${LOG_FILES - 1}`, { force: true });
  for (let index = LOG_FILES - 2; index >= 1; index--) {
    await rename(`${file}.${index}`, `${file}.${index + 1}`).catch(() => undefined);
  }
  await rename(file, `${file}.1`);
}
