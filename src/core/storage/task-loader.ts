import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from './module-worker';
import type { TaskRecord } from '../../shared/task';
import type { LoadReply, LoadRequest, TurnsWanted } from './history-worker';
import { TASK_FILE_LIMITS, type TaskFileLimits, type TaskFileRead } from './task-file';

/**
 * Task files are read and folded in a worker thread: a long or hostile file costs that thread its time, never the
 * app's event loop (the window, the mirror and every other call keep being answered). The worker is started on
 * first use and does not keep the process alive while idle.
 *
 * The worker runs history-worker.ts (from source, through tsx) or the bundle's history-worker.js (module-worker.ts).
 */
export class TaskFileError extends Error {
  override name = 'TaskFileError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

let worker: Worker | null = null;
let nextId = 0;
interface Waiting {
  resolve(result: TaskFileRead): void;
  reject(error: Error): void;
  /** What the parts so far made: the head, then its steps as they come. */
  read?: TaskFileRead;
}
const pending = new Map<number, Waiting>();

function startWorker(): Worker {
  const started = startModuleWorker(import.meta.url, 'history-worker');
  started.unref();
  started.on('message', (reply: LoadReply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    if ('part' in reply) {
      const taken = takePart(waiting, reply.part);
      if (taken && reply.more) return started.postMessage({ id: reply.id, nextPart: true } satisfies LoadRequest);
      // A part that is not JSON has rejected the load; the parts after it find nothing waiting.
      if (taken) waiting.resolve(waiting.read!);
    } else waiting.reject(new TaskFileError(reply.error, reply.code));
    pending.delete(reply.id);
    if (pending.size === 0) started.unref();
  });
  const fail = (error: Error) => {
    worker = null;
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  started.on('error', fail);
  started.on('exit', (code) => fail(new Error(`the history reader stopped (exit code ${code})`)));
  return started;
}

/** Adds one part of the reply (the head first, then steps); false, after rejecting, when it is not JSON. */
function takePart(waiting: Waiting, part: string): boolean {
  try {
    if (!waiting.read) waiting.read = JSON.parse(part) as TaskFileRead;
    else if (waiting.read.kind === 'record') waiting.read.record.steps.push(...(JSON.parse(part) as TaskRecord['steps']));
    return true;
  } catch (error) {
    waiting.reject(error as Error);
    return false;
  }
}

/**
 * The task's record from its file, read in the history worker; or why the file is not one. With `turns`, the record
 * holds only those turns and its `page` says which they are (absent when they are all of them).
 */
export function loadTaskFile(file: string, taskId: string, limits: TaskFileLimits = TASK_FILE_LIMITS, turns?: TurnsWanted): Promise<TaskFileRead> {
  worker ??= startWorker();
  const running = worker;
  running.ref();
  const id = nextId++;
  return new Promise<TaskFileRead>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    running.postMessage({ id, file, taskId, limits, ...(turns && { turns }) } satisfies LoadRequest);
  });
}
