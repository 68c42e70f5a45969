// A small shared file (notes, schedules) is read, changed and written back by more than one process at once: the
// app, `amc run` learning its notes, `amc schedule add`. An atomic rename keeps the file whole but not the change of
// the process that wrote first; an exclusive lock file beside it lets one change happen at a time.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** A lock older than this was left behind (a change takes milliseconds), whoever wrote it. */
const ABANDONED_AFTER_MS = 30_000;
const RETRY_MS = 15;

export class FileLockTimeoutError extends Error {
  override name = 'FileLockTimeoutError';
}

/** Runs `work` while this process alone holds `target`'s lock file (`target.lock`), waiting at most `waitMs` for it. */
export async function withFileLock<T>(target: string, work: () => Promise<T>, waitMs = 10_000): Promise<T> {
  const lock = `${target}.lock`;
  const deadline = Date.now() + waitMs;
  // The first change of a fresh data folder makes the file's folder, as the write itself would.
  await mkdir(path.dirname(target), { recursive: true });
  while (!(await tryCreate(lock))) {
    if (await isAbandoned(lock)) await takeAway(lock);
    else if (Date.now() > deadline) throw new FileLockTimeoutError(`${target} is being changed by another process for more than ${Math.round(waitMs / 1000)} s; try again, or remove ${lock} if no other copy of the app is running`);
    else await new Promise((resolve) => setTimeout(resolve, RETRY_MS + Math.random() * RETRY_MS));
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}

async function tryCreate(lock: string): Promise<boolean> {
  try {
    const handle = await open(lock, 'wx', 0o600);
    await handle.writeFile(String(process.pid));
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Left by a process that is gone, or held far longer than any change takes. */
async function isAbandoned(lock: string): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(lock, 'utf8'), stat(lock)]);
    if (Date.now() - info.mtimeMs > ABANDONED_AFTER_MS) return true;
    const pid = Number(text);
    // An empty file is one being written this instant: not abandoned.
    return Number.isInteger(pid) && pid > 0 && !isProcessAlive(pid);
  } catch {
    return false;
  }
}

/** Whether a process of this pid runs on this machine (any user's). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Moves the abandoned lock aside before removing it, so two processes taking it over do not remove each other's. */
async function takeAway(lock: string): Promise<void> {
  const aside = `${lock}.${process.pid}.${randomBytes(4).toString('hex')}.abandoned`;
  try {
    await rename(lock, aside);
  } catch {
    return;
  }
  await rm(aside, { force: true });
}
