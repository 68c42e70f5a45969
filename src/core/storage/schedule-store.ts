// The local schedules file (schedules.json in the app's data folder): read by the running app's scheduler and written
// by it and by `amc schedule` (without --redis). Every write replaces the file whole (atomic rename), under the file's
// lock, so a change another process makes at the same moment is not lost.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ScheduleFileSchema, type ScheduleFile } from '../../shared/schedule';
import { issueSaid } from '../../shared/issue-said';
import { saidList, say, type Said, type Saying } from '../../shared/said';
import { withFileLock } from './file-lock';
import { writeFileAtomic } from './settings-store';

export const SCHEDULES_FILE = 'schedules.json';

/** The schedules file exists but cannot be used: its English words, and the code that words them for the reader. */
export class ScheduleFileError extends Error {
  override name = 'ScheduleFileError';
  readonly said: Said;
  constructor({ text, said }: Saying) {
    super(text);
    this.said = said;
  }
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
      throw new ScheduleFileError(say('storedFile.schedulesUnreadable', { file, systemText: (error as NodeJS.ErrnoException).code ?? String(error) }));
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ScheduleFileError(say('storedFile.schedulesNotJson', { file }));
    }
    const parsed = ScheduleFileSchema.safeParse(json);
    if (!parsed.success) {
      // zod gives at least one issue: the first says where and why (zod's English in the text, its code beside it).
      const issue = parsed.error.issues[0]!;
      const where = issue.path.join('.') || 'file';
      throw new ScheduleFileError({
        text: `the schedules file ${file} is damaged (${where}: ${issue.message}); fix it or move it away (nothing was changed)`,
        said: { code: 'storedFile.schedulesDamaged', values: { file, path: where, problemSaid: saidList([issueSaid(issue)]) } },
      });
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
