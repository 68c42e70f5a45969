import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TaskRecord } from '../../shared/task';
import type { LoadReply, LoadRequest, TurnsWanted } from './history-worker';
import { TASK_FILE_LIMITS, type TaskFileLimits, type TaskFileRead } from './task-file';

/**
 * Task files are read and folded in a worker thread: a long or hostile file costs that thread its time, never the
 * app's event loop (the window, the mirror and every other call keep being answered). The worker is started on
 * first use and does not keep the process alive while idle.
 *
 * From source (tsx, Vitest) the worker runs history-worker.ts through tsx; in the built app it runs the bundle's
 * history-worker.js (an entry of its own in electron.vite.config.ts).
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
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSource ? './history-worker.ts' : './history-worker.js', import.meta.url);
  // From source, the worker registers tsx (as bin/amc.mjs does) before it imports the TypeScript entry.
  const tsx = fromSource ? tsxEsmApi() : null;
  const started = tsx
    ? new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`, { eval: true })
    : new Worker(entry);
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

/** tsx's `tsx/esm/api` as a file URL, by its package's exports map (require.resolve would give the CommonJS one). */
function tsxEsmApi(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('tsx/package.json');
  const { exports } = require(manifest) as { exports: Record<string, { import: { default: string } }> };
  return new URL(exports['./esm/api']!.import.default, pathToFileURL(manifest)).href;
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
