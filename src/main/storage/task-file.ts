import { readFile, stat } from 'node:fs/promises';
import { LIMITS } from '../../shared/settings-catalog';
import { TaskEventSchema, applyTaskEventInPlace, newTaskRecord, type TaskEvent, type TaskRecord } from '../../shared/task';

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

export type TaskFileRead = { kind: 'record'; record: TaskRecord } | { kind: 'damaged'; problem: string } | { kind: 'missing' };

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** Why a file of this size is not read, or null when it may be. */
export function sizeProblem(bytes: number, limits: TaskFileLimits = TASK_FILE_LIMITS): string | null {
  return bytes > limits.maxBytes ? `it is ${megabytes(bytes)}, larger than any task record (at most ${megabytes(limits.maxBytes)}), so it is not read` : null;
}

/** Why a task with this many turns is not a task record, or null when it may be one. */
export function turnsProblem(turns: number, limits: TaskFileLimits = TASK_FILE_LIMITS): string | null {
  return turns > limits.maxTurns ? `it holds more than ${limits.maxTurns.toLocaleString('en-US')} turns, more than any task can take` : null;
}

/** The task's record from its file, or why the file is not one. */
export async function readTaskFile(file: string, id: string, limits: TaskFileLimits = TASK_FILE_LIMITS): Promise<TaskFileRead> {
  let text: string;
  try {
    const tooLarge = sizeProblem((await stat(file)).size, limits);
    if (tooLarge) return { kind: 'damaged', problem: tooLarge };
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  return foldTaskText(text, id, limits);
}

/** Folds a task file's text, line by line, without splitting it into an array first. */
export function foldTaskText(text: string, id: string, limits: TaskFileLimits = TASK_FILE_LIMITS): TaskFileRead {
  let record: TaskRecord | undefined;
  let turns = 0;
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const event = parseEvent(text.slice(start, end));
    start = end + 1;
    if (!event || event.taskId !== id) continue;
    if (event.type === 'task.started') {
      record ??= newTaskRecord({ id, goal: event.goal, serial: event.serial, planner: event.planner, maxSteps: event.maxSteps, createdAt: event.at });
    }
    if (!record) continue;
    if (event.type === 'step.observed') {
      turns += 1;
      const tooMany = turnsProblem(turns, limits);
      if (tooMany) return { kind: 'damaged', problem: tooMany };
    }
    applyTaskEventInPlace(record, event);
  }
  return record ? { kind: 'record', record } : { kind: 'damaged', problem: 'it does not start with a task.started line, so it is not a task record' };
}

/** One line of a task file; undefined for a torn or foreign line. */
export function parseEvent(line: string): TaskEvent | undefined {
  if (!line.trim()) return undefined;
  try {
    const parsed = TaskEventSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
