import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../storage/module-worker';
import type { FlowFileResult, FlowProblem } from './flow-file';
import type { FlowCheckReply, FlowCheckRequest, FlowSummary } from './flow-check-worker';
import { sayProblem } from './flow-problem-said';

export type { FlowSummary } from './flow-check-worker';
/** What a check answers: the summary of a flow that can run, or every problem found. */
export type FlowCheckResult = { ok: true; summary: FlowSummary } | { ok: false; problems: FlowProblem[] };

/**
 * Flow files the app is given (the window, the local API) are read and checked in a worker thread: a large or hostile
 * file costs that thread its time, never the app's event loop, and a check that runs past its time is ended (the
 * thread with it) and refused in words. The thread starts on first use and keeps no process alive while idle.
 */
export const FLOW_CHECK_TIME_LIMIT_MS = 10_000;

interface Waiting {
  resolve(reply: FlowCheckReply): void;
  reject(error: Error): void;
}

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, Waiting>();

function startWorker(): Worker {
  const started = startModuleWorker(import.meta.url, 'flow-check-worker');
  started.unref();
  started.on('message', (reply: FlowCheckReply) => {
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if (pending.size === 0) started.unref();
    if ('error' in reply) waiting?.reject(new Error(reply.error));
    else waiting?.resolve(reply);
  });
  const fail = (error: Error) => {
    if (worker === started) worker = null;
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  started.on('error', fail);
  started.on('exit', (code) => fail(new Error(`the flow checker stopped (exit code ${code})`)));
  return started;
}

/** The flow file's text read and checked as `parseFlowFile` does, in the checker thread, within `limitMs`. */
export async function readFlowText(text: string, vars: Record<string, string> = {}, limitMs = FLOW_CHECK_TIME_LIMIT_MS): Promise<FlowFileResult> {
  const reply = await inChecker({ text, vars, want: 'flow' }, limitMs);
  return 'result' in reply ? reply.result : { ok: false, problems: [sayProblem('flowFile.checkerGaveNoFlow')] };
}

/** The flow file's text checked in the checker thread: what a check shows of it, or its problems. */
export async function checkFlowText(text: string, vars: Record<string, string> = {}, limitMs = FLOW_CHECK_TIME_LIMIT_MS): Promise<FlowCheckResult> {
  const reply = await inChecker({ text, vars, want: 'summary' }, limitMs);
  if ('summary' in reply) return { ok: true, summary: reply.summary };
  return reply.result.ok ? { ok: true, summary: { goal: reply.result.flow.goal, steps: reply.result.flow.steps.length, vars: Object.keys(reply.result.flow.vars) } } : reply.result;
}

function inChecker(request: Omit<FlowCheckRequest, 'id'>, limitMs: number): Promise<Exclude<FlowCheckReply, { error: string }>> {
  worker ??= startWorker();
  const running = worker;
  running.ref();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // The thread is busy with this file and cannot be asked to stop: it is ended, and the next check starts another.
      pending.delete(id);
      worker = worker === running ? null : worker;
      void running.terminate();
      resolve({ id, result: { ok: false, problems: [sayProblem('flowFile.tooCostly', { seconds: Math.round(limitMs / 1000) })] } });
    }, limitMs);
    pending.set(id, {
      resolve: (reply) => {
        clearTimeout(timer);
        if (!('error' in reply)) resolve(reply);
      },
      reject: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    });
    running.postMessage({ id, ...request } satisfies FlowCheckRequest);
  });
}
