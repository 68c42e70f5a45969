import { stat } from 'node:fs/promises';
import { readTaskFile, type TaskFileLimits, type TaskFileRead } from './task-file';

export interface FoldedRecordsOptions {
  /** How many records are kept: the task in view and the one before it. */
  size: number;
  /** With no read for this long, every kept record is let go (a long task's record can be hundreds of MB). */
  idleMs: number;
  /** How a file is read and folded (the test counts the folds). */
  fold?: typeof readTaskFile;
}

/**
 * The records the history worker folded last, kept while their files stay as they were: a window that reads a long
 * task page by page folds its file once. A file whose size or modification time changed (a running task's, a
 * rewritten one) is folded again; a deleted one reads as missing.
 */
export class FoldedRecords {
  private readonly kept = new Map<string, { key: string; read: TaskFileRead }>();
  private forgetting: NodeJS.Timeout | undefined;

  constructor(private readonly options: FoldedRecordsOptions) {}

  /** How many records are kept now. */
  get count(): number {
    return this.kept.size;
  }

  async read(file: string, taskId: string, limits: TaskFileLimits): Promise<TaskFileRead> {
    this.forgetWhenIdle();
    const facts = await stat(file).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    });
    if (!facts) {
      this.kept.delete(file);
      return { kind: 'missing' };
    }
    const key = JSON.stringify([taskId, facts.size, facts.mtimeMs, limits.maxBytes, limits.maxTurns]);
    const kept = this.kept.get(file);
    // Taken out and put back: the map's order is the order of use, oldest first.
    this.kept.delete(file);
    const read = kept?.key === key ? kept.read : await (this.options.fold ?? readTaskFile)(file, taskId, limits);
    this.kept.set(file, { key, read });
    for (const oldest of this.kept.keys()) if (this.kept.size > this.options.size) this.kept.delete(oldest);
    return read;
  }

  private forgetWhenIdle(): void {
    clearTimeout(this.forgetting);
    this.forgetting = setTimeout(() => this.kept.clear(), this.options.idleMs);
    // Keeping records is no reason for the worker (or a CLI run) to stay alive.
    this.forgetting.unref();
  }
}
