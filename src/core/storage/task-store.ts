import { link, mkdir, open, readdir, rm, stat, type FileHandle } from 'node:fs/promises';
import { saidList, say, type Said, type Saying } from '../../shared/said';
import path from 'node:path';
import { actionCount } from '../../shared/turns';
import { writeSyncedSibling } from './synced-file';
import { redactSecrets } from '@amc/provider-clients';
import type { DamagedHistoryFile, HistoryListing, TaskSummary } from '../../shared/contract/history';
import { FINAL_STATUSES, TaskEventSchema, type TaskEvent, type TaskRecord } from '../../shared/task';
import { parseEvent, sizeProblem, TASK_FILE_LIMITS, turnsProblem, type TaskFileLimits } from './task-file';
import { loadTaskFile, TaskFileError } from './task-loader';
import type { TurnsWanted } from './history-worker';

/**
 * Task history: one JSON Lines file per task under `<home>/storage/tasks/`, one line per task event, each
 * line flushed to disk (fsync) before the next is written. The file is only ever appended to, so a crash
 * can at worst leave a torn last line, which reading skips. The first line is always the `task.started`
 * event, which carries what the summary needs (goal, device, planner).
 *
 * Only what the schemas allow is written: events are parsed through TaskEventSchema first, so no
 * screenshot bytes (nor any other stray field) can reach the disk (seed: Perception Boundary).
 */
export interface TaskStore {
  readonly folder: string;
  /** Records one event; `task.started` creates the task's file. Appends for one task happen in order. */
  append(event: TaskEvent): Promise<void>;
  /** Every stored task, newest first, and every file of the folder that is not a readable task record. */
  list(): Promise<HistoryListing>;
  /** The task's full record, or undefined when there is none with this id; a damaged file is a TaskStoreError saying why. */
  get(id: string): Promise<TaskRecord | undefined>;
  /** As `get`, with only the wanted turns (`from: null`: the latest); its `page` says which, when not all of them. */
  page(id: string, turns: TurnsWanted): Promise<TaskRecord | undefined>;
  /** Removes a finished task. Refuses (TaskStoreError) while the task is still being written. */
  delete(id: string): Promise<boolean>;
  /** Flushes and closes the files of tasks still being written. */
  close(): Promise<void>;
}

export class TaskStoreError extends Error {
  override name = 'TaskStoreError';
  /** The message's code, for a reader in another language (the refusals a person meets carry one). */
  constructor(
    message: string,
    readonly said?: Said,
  ) {
    super(message);
  }
}

/** Why a task file is not a task record (too large, too many turns, no task.started line). */
/** Why a task file is not a task record: its English words, and the code that words it for the reader. */
class DamagedTaskFile extends Error {
  override name = 'DamagedTaskFile';
  constructor(readonly problem: Saying) {
    super(problem.text);
  }
}

export const TASKS_FOLDER = path.join('storage', 'tasks');
const EXTENSION = '.jsonl';
/** The finishing event is a few hundred bytes; reading this much of the tail finds it without reading the turns. */
const TAIL_BYTES = 16 * 1024;
/** What a reader of history says of a task whose file was never finished (the process died under it): interrupted. */
const NEVER_FINISHED = say('stop.neverFinished');
export const INTERRUPTED_REASON = NEVER_FINISHED.text;

/** Task ids become file names, so only plain characters are accepted (no separators, no dots). */
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

function checkId(id: string): void {
  if (!SAFE_ID.test(id)) throw new TaskStoreError(`"${id}" is not a task id (letters, digits, "-" and "_" only).`);
}

interface OpenTask {
  /** Resolves once the file exists and holds the task.started line. */
  handle: Promise<FileHandle>;
  /** Appends to this task, one after another. */
  tail: Promise<void>;
}

/**
 * `limits` bound what is read of one task file (size, turns): a file beyond them is listed as damaged and never
 * read whole. Whole files are read in the history worker (task-loader.ts), never on the calling thread.
 */
export function createTaskStore(home: string, limits: TaskFileLimits = TASK_FILE_LIMITS): TaskStore {
  const folder = path.join(home, TASKS_FOLDER);
  const fileOf = (id: string) => path.join(folder, `${id}${EXTENSION}`);
  const open_ = new Map<string, OpenTask>();

  async function write(handle: FileHandle, event: TaskEvent): Promise<void> {
    await handle.appendFile(eventLine(event), 'utf8');
    await handle.sync();
  }

  async function create(event: TaskEvent): Promise<FileHandle> {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    // The file appears with its task.started line already on disk (written beside it, then linked into place), so a
    // crash can never leave an empty task file. link() fails on an existing file: a task id is never reused.
    const file = fileOf(event.taskId);
    const sibling = await writeSyncedSibling(file, eventLine(event), 0o600);
    try {
      await link(sibling, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new TaskStoreError(`A task with id "${event.taskId}" is already stored.`);
      throw error;
    } finally {
      await rm(sibling, { force: true });
    }
    return open(file, 'a');
  }

  /** The record (or a page of it), read in the history worker; a task no longer being written that did not finish was interrupted. */
  async function readRecord(id: string, turns?: TurnsWanted): Promise<TaskRecord | undefined> {
    const read = await loadTaskFile(fileOf(id), id, limits, turns);
    if (read.kind === 'missing') return undefined;
    if (read.kind === 'damaged') throw new DamagedTaskFile(read.problem);
    const { record } = read;
    if (!FINAL_STATUSES.includes(record.status) && !open_.has(id)) {
      return { ...record, status: 'failed', failureReason: INTERRUPTED_REASON, failureSaid: NEVER_FINISHED.said };
    }
    return record;
  }

  /** The summary from the first line and the finishing event at the end, without reading the turns in between. */
  async function summarize(id: string): Promise<TaskSummary | undefined> {
    const file = fileOf(id);
    const { size } = await stat(file);
    const tooLarge = open_.has(id) ? null : sizeProblem(size, limits);
    if (tooLarge) throw new DamagedTaskFile(tooLarge);
    const handle = await open(file, 'r');
    let head: string;
    let tail: string;
    try {
      head = await readChunk(handle, 0, Math.min(size, TAIL_BYTES));
      tail = size <= TAIL_BYTES ? head : await readChunk(handle, size - TAIL_BYTES, TAIL_BYTES);
    } finally {
      await handle.close();
    }
    const started = parseEvent(head.split('\n')[0] ?? '');
    const finished = tail
      .split('\n')
      .reverse()
      .map(parseEvent)
      .find((event) => event?.type === 'task.finished' && event.taskId === id);
    if (started?.type === 'task.started' && finished?.type === 'task.finished') {
      const tooMany = turnsProblem(finished.steps, limits);
      if (tooMany) throw new DamagedTaskFile(tooMany);
      return {
        id,
        goal: started.goal,
        serial: started.serial,
        planner: started.planner,
        launchId: started.launchId ?? null,
        status: finished.status,
        failureReason: finished.failureReason,
        ...(finished.failureSaid && { failureSaid: finished.failureSaid }),
        ...(finished.failure && { failure: finished.failure }),
        verification: finished.verification ?? null,
        steps: finished.steps,
        createdAt: started.at,
        finishedAt: finished.at,
        durationMs: finished.durationMs,
        usage: finished.usage,
        ...(started.recorded && { recordedByPerson: true as const }),
      };
    }
    // Running, interrupted, or a first line longer than the chunk: read it all (in the worker, within the limits).
    const record = await readRecord(id).catch((error: unknown) => {
      // A file still being written may be read while its first line is not there yet: young, not damaged.
      if (error instanceof DamagedTaskFile && open_.has(id)) return undefined;
      throw error;
    });
    return record && summaryOf(record);
  }

  /** A record for a reader: a damaged or unreadable file is a TaskStoreError that says why and what to do, by code. */
  async function readShown(id: string, turns?: TurnsWanted): Promise<TaskRecord | undefined> {
    checkId(id);
    try {
      return await readRecord(id, turns);
    } catch (error) {
      const problem =
        error instanceof DamagedTaskFile ? error.problem : error instanceof TaskFileError ? say('taskFile.unreadable', { error: error.code ?? error.message }) : null;
      if (!problem) throw error;
      const action = say('taskFile.moveOrDelete', { path: fileOf(id) });
      const shown = say('taskFile.cannotBeShown', { id, problemSaid: saidList([problem.said]), actionSaid: saidList([action.said]) });
      throw new TaskStoreError(`The task "${id}" cannot be shown: ${problem.text}. ${action.text}`, shown.said);
    }
  }

  return {
    folder,

    async append(input) {
      const event = TaskEventSchema.parse(input);
      checkId(event.taskId);
      if (event.type === 'task.started') {
        if (open_.has(event.taskId)) throw new TaskStoreError(`Task "${event.taskId}" has already started.`);
        const handle = create(event);
        open_.set(event.taskId, { handle, tail: handle.then(() => undefined, () => undefined) });
        await handle.catch((error: unknown) => {
          open_.delete(event.taskId);
          throw error;
        });
        return;
      }
      const task = open_.get(event.taskId);
      if (!task) throw new TaskStoreError(`Task "${event.taskId}" is not being recorded (its task.started event was not stored).`);
      const run = task.tail.then(async () => {
        const handle = await task.handle;
        await write(handle, event);
        if (event.type === 'task.finished') {
          open_.delete(event.taskId);
          await handle.close();
        }
      });
      task.tail = run.catch(() => undefined);
      await run;
    },

    async list() {
      let names: string[];
      try {
        names = await readdir(folder);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { tasks: [], damaged: [] };
        throw error;
      }
      const tasks: TaskSummary[] = [];
      const damaged: DamagedHistoryFile[] = [];
      await Promise.all(
        names
          .filter((name) => name.endsWith(EXTENSION))
          .map(async (name) => {
            const id = name.slice(0, -EXTENSION.length);
            const problem = !SAFE_ID.test(id)
              ? say('taskFile.notTaskId')
              : await summarize(id).then(
                  (summary) => {
                    if (summary) tasks.push(summary);
                    // A task whose first line is being written right now is not damaged, only young.
                    return summary || open_.has(id) ? undefined : say('taskFile.notTaskRecord');
                  },
                  (error: unknown) =>
                    error instanceof DamagedTaskFile ? error.problem : say('taskFile.unreadable', { error: (error as NodeJS.ErrnoException).code ?? 'unknown error' }),
                );
            if (problem) {
              const action = say('taskFile.moveOrDelete', { path: path.join(folder, name) });
              damaged.push({ fileName: name, problem: problem.text, problemSaid: problem.said, action: action.text, actionSaid: action.said });
            }
          }),
      );
      tasks.sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id));
      damaged.sort((a, b) => a.fileName.localeCompare(b.fileName));
      return { tasks, damaged };
    },

    get: (id) => readShown(id),
    page: (id, turns) => readShown(id, turns),

    async delete(id) {
      checkId(id);
      if (open_.has(id)) throw new TaskStoreError('This task is still running; stop it before deleting it.');
      try {
        await rm(fileOf(id));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    },

    async close() {
      const tasks = [...open_.values()];
      open_.clear();
      await Promise.all(
        tasks.map(async (task) => {
          await task.tail;
          await (await task.handle.catch(() => undefined))?.close().catch(() => undefined);
        }),
      );
    },
  };
}

/** An event as its file's line: what is stored passes the redaction step (a key repeated by a provider, a URL password). */
const eventLine = (event: TaskEvent): string => `${redactSecrets(JSON.stringify(event))}\n`;


async function readChunk(handle: FileHandle, position: number, length: number): Promise<string> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead).toString('utf8');
}

export function summaryOf(record: TaskRecord): TaskSummary {
  return {
    id: record.id,
    goal: record.goal,
    serial: record.serial,
    planner: record.planner,
    status: record.status,
    failureReason: record.failureReason,
    ...(record.failureSaid && { failureSaid: record.failureSaid }),
    ...(record.failure && { failure: record.failure }),
    verification: record.verification,
    // Actions carried out (not questions, hand-overs or denied actions).
    steps: actionCount(record),
    createdAt: record.createdAt,
    finishedAt: record.finishedAt,
    durationMs: record.timings.totalMs || (record.finishedAt && record.startedAt ? record.finishedAt - record.startedAt : 0),
    usage: record.usage,
    launchId: record.launchId,
    ...(record.recorded && { recordedByPerson: true as const }),
  };
}
