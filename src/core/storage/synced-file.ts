import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';

/**
 * Writes `text` to a fresh file beside `target` and flushes it to disk, returning its path: the caller then moves it
 * into place (rename to replace, link to create only if absent), so readers never see a half-written target.
 */
export async function writeSyncedSibling(target: string, text: string, mode: number): Promise<string> {
  const sibling = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(sibling, 'wx', mode);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return sibling;
}
