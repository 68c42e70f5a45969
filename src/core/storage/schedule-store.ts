// The local schedules file (schedules.json in the app's data folder): read by the running app's scheduler and written
// by it and by `amc schedule` (without --redis). Every write replaces the file whole (atomic rename), under the file's
// lock, so a change another process makes at the same moment is not lost.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ScheduleFileSchema, type ScheduleFile } from '../../shared/schedule';
import { withFileLock } from './file-lock';
import { writeFileAtomic } from './settings-store';

export const SCHEDULES_FILE = 'schedules.json';

export class ScheduleFileError extends Error {
  override name = 'ScheduleFileError';
}

export interface ScheduleStore {
  readonly file: string;
  load(): Promise<ScheduleFile>;
  /** Reads, changes and writes the file, one change at a time in this process; returns what was written. */
  update(change: (file: ScheduleFile) => ScheduleFile): Promise<ScheduleFile>;
}

export function createScheduleStore(home: string): ScheduleStore {
  const file = path.join(home, SCHEDULES_FILE);
  let queue: Promise<unknown> = Promise.resolve();

  const load = async (): Promise<ScheduleFile> => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ScheduleFileSchema.parse({});
      throw new ScheduleFileError(`the schedules file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ScheduleFileError(`the schedules file ${file} is not JSON; fix it or move it away (nothing was changed)`);
    }
    const parsed = ScheduleFileSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ScheduleFileError(`the schedules file ${file} is damaged (${issue?.path.join('.') || 'file'}: ${issue?.message}); fix it or move it away (nothing was changed)`);
    }
    return parsed.data;
  };

  return {
    file,
    load,
    update(change) {
      const next = queue.then(() =>
        withFileLock(file, async () => {
          const written = ScheduleFileSchema.parse(change(await load()));
          await writeFileAtomic(file, `${JSON.stringify(written, null, 2)}\n`);
          return written;
        }),
      );
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
