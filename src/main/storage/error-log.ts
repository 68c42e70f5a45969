import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * The technical side of a failure (error class, stack trace) goes to `<data folder>/logs/<name>.log` instead of the
 * screen: people read plain words, a bug report gets the log. Best effort — a log that cannot be written never
 * hides the failure itself. Secrets never reach it: callers log errors, not requests.
 */
export function errorLogPath(home: string, name: string): string {
  return path.join(home, 'logs', `${name}.log`);
}

export async function logError(home: string, name: string, context: string, error: unknown): Promise<string | undefined> {
  const file = errorLogPath(home, name);
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await appendFile(file, `${new Date().toISOString()} ${context}\n${detail}\n\n`, { mode: 0o600 });
    return file;
  } catch {
    return undefined;
  }
}
