import { open, type FileHandle } from 'node:fs/promises';
import { say, type Saying } from '../../shared/said';
import { LIMITS } from '../../shared/settings-catalog';
import { TaskEventSchema, applyTaskEventInPlace, newTaskRecord, type TaskEvent, type TaskRecord } from '../../shared/task';
import { withFailureKeptApart } from './older-failure';

/**
 * Reading one task file whole (what `history.get` and an unfinished task's summary need), in one pass over its
 * lines. It runs in the history worker (see task-loader.ts), never on the app's main thread. A file larger than
 * any task writes, or holding more turns than any task can take, is reported damaged before it costs more.
 */

/** The largest task file read: a long task with big screens stays far below it (a few MB). */
export const MAX_TASK_FILE_BYTES = 50 * 1024 * 1024;
/**
 * More turns than any task can have: a task takes at most LIMITS.maxSteps.max actions, and the turns without one (a
 * look, a wait, a question) are bounded by the loop guard; ten times the action limit is beyond every real task.
 */
export const MAX_TASK_TURNS = LIMITS.maxSteps.max * 10;

export interface TaskFileLimits {
  maxBytes: number;
  maxTurns: number;
}

export const TASK_FILE_LIMITS: TaskFileLimits = { maxBytes: MAX_TASK_FILE_BYTES, maxTurns: MAX_TASK_TURNS };

export type TaskFileRead = { kind: 'record'; record: TaskRecord } | { kind: 'damaged'; problem: Saying } | { kind: 'missing' };

const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** Why a file of this size is not read, or null when it may be. */
export function sizeProblem(bytes: number, limits: TaskFileLimits = TASK_FILE_LIMITS): Saying | null {
  return bytes > limits.maxBytes ? say('taskFile.tooLarge', { size: megabytes(bytes), max: megabytes(limits.maxBytes) }) : null;
}

/** Why a task with this many turns is not a task record, or null when it may be one. */
export function turnsProblem(turns: number, limits: TaskFileLimits = TASK_FILE_LIMITS): Saying | null {
  return turns > limits.maxTurns ? say('taskFile.tooManyTurns', { max: limits.maxTurns.toLocaleString('en-US') }) : null;
}

/** How much of a task file one read takes: the next is read (on libuv's threads) while this one is folded. */
export const READ_CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

/** The task's record from its file, or why the file is not one. */
export async function readTaskFile(file: string, id: string, limits: TaskFileLimits = TASK_FILE_LIMITS): Promise<TaskFileRead> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  let reading: Promise<{ bytesRead: number; buffer: Buffer }> | undefined;
  try {
    const tooLarge = sizeProblem((await handle.stat()).size, limits);
    if (tooLarge) return { kind: 'damaged', problem: tooLarge };
    const fold = new TaskFold(id, limits);
    // Lines are cut from the bytes and decoded one at a time: no copy of the whole file as one string. Each read
    // fills a buffer of its own, so the start of a line not ended yet is kept as a view into it.
    let unended: Buffer[] = [];
    let bytesSoFar = 0;
    reading = handle.read(Buffer.allocUnsafe(READ_CHUNK_BYTES), 0, READ_CHUNK_BYTES, null);
    for (;;) {
      const { bytesRead, buffer } = await reading;
      if (bytesRead === 0) break;
      // A file that grows past the limit while it is read (or a device that never ends) is not read further.
      bytesSoFar += bytesRead;
      const grown = sizeProblem(bytesSoFar, limits);
      if (grown) return { kind: 'damaged', problem: grown };
      reading = handle.read(Buffer.allocUnsafe(READ_CHUNK_BYTES), 0, READ_CHUNK_BYTES, null);
      const chunk = buffer.subarray(0, bytesRead);
      let start = 0;
      for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
        const line = unended.length ? Buffer.concat([...unended, chunk.subarray(0, newline)]).toString('utf8') : chunk.toString('utf8', start, newline);
        unended = [];
        if (!fold.add(line)) return fold.result();
        start = newline + 1;
      }
      if (start < chunk.length) unended.push(chunk.subarray(start));
    }
    if (unended.length) fold.add(Buffer.concat(unended).toString('utf8'));
    return fold.result();
  } finally {
    // The reads run ahead by one: the one still under way (after a damaged line) ends before the file closes.
    await reading?.catch(() => undefined);
    await handle.close();
  }
}

/** Folds a task file's text, line by line, without splitting it into an array first. */
export function foldTaskText(text: string, id: string, limits: TaskFileLimits = TASK_FILE_LIMITS): TaskFileRead {
  const fold = new TaskFold(id, limits);
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    if (!fold.add(text.slice(start, end))) break;
    start = end + 1;
  }
  return fold.result();
}

/** A task's record made of its file's lines in order; it stops taking them once the file is found damaged. */
class TaskFold {
  private record: TaskRecord | undefined;
  private turns = 0;
  private problem: Saying | null = null;

  constructor(
    private readonly id: string,
    private readonly limits: TaskFileLimits,
  ) {}

  /** Takes one line (a torn or foreign one is skipped); false once the file is damaged. */
  add(line: string): boolean {
    const event = parseEvent(line);
    if (!event || event.taskId !== this.id) return true;
    const { id } = this;
    if (event.type === 'task.started') {
      this.record ??= newTaskRecord({ id, goal: event.goal, serial: event.serial, planner: event.planner, maxSteps: event.maxSteps, createdAt: event.at });
    }
    if (!this.record) return true;
    // A turn that looked again (a flow step waiting) is still one turn.
    if (event.type === 'step.observed' && this.record.steps.at(-1)?.step !== event.step) {
      this.turns += 1;
      this.problem = turnsProblem(this.turns, this.limits);
      if (this.problem) return false;
    }
    applyTaskEventInPlace(this.record, event);
    return true;
  }

  result(): TaskFileRead {
    if (this.problem) return { kind: 'damaged', problem: this.problem };
    return this.record ? { kind: 'record', record: this.record } : { kind: 'damaged', problem: say('taskFile.notTaskRecord') };
  }
}

/** One line of a task file; undefined for a torn or foreign line. */
export function parseEvent(line: string): TaskEvent | undefined {
  if (!line.trim()) return undefined;
  try {
    const parsed = TaskEventSchema.safeParse(JSON.parse(line));
    return parsed.success ? withFailureKeptApart(parsed.data) : undefined;
  } catch {
    return undefined;
  }
}
