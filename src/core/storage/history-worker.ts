import { parentPort } from 'node:worker_threads';
import { actionCount } from '../../shared/turns';
import { FoldedRecords } from './folded-records';
import type { TaskFileLimits, TaskFileRead } from './task-file';

/**
 * The history worker's entry: reads and folds task files off the app's main thread (see task-loader.ts). A load
 * asks for the whole record, or with `turns` for one page of its turns (`from: null`: the latest ones).
 */
export interface TurnsWanted {
  from: number | null;
  count: number;
}
export type LoadRequest =
  | { id: number; file: string; taskId: string; limits: TaskFileLimits; turns?: TurnsWanted }
  | { id: number; nextPart: true };

/**
 * The result travels as JSON texts: a string crosses threads as a copy of its bytes, and parsing is several times
 * quicker for the main thread than taking the same record as a structured clone. A whole record comes in parts (its
 * head, then its steps a few hundred KB at a time; `more` until the last), each sent when the main thread asks for
 * the next, so it takes and parses a long record between its other work instead of in one long pause (the
 * bench's stall row). Sent all at once, a port hands every queued message over in one go. A page is one part.
 */
export type LoadReply = { id: number; part: string; more: boolean } | { id: number; error: string; code?: string };

/** About how many characters of steps one part holds: a few milliseconds of parsing. */
const PART_CHARS = 512 * 1024;

function replyParts(result: TaskFileRead): string[] {
  if (result.kind !== 'record') return [JSON.stringify(result)];
  const { steps, ...head } = result.record;
  const parts = [JSON.stringify({ kind: 'record', record: { ...head, steps: [] } })];
  let chunk: string[] = [];
  let chars = 0;
  const flush = () => {
    if (chunk.length) parts.push(`[${chunk.join(',')}]`);
    chunk = [];
    chars = 0;
  };
  for (const step of steps) {
    const json = JSON.stringify(step);
    chunk.push(json);
    chars += json.length;
    if (chars >= PART_CHARS) flush();
  }
  flush();
  return parts;
}

/** The record with only the wanted turns, and which ones those are of how many. */
function pageOf(result: TaskFileRead, wanted: TurnsWanted): TaskFileRead {
  if (result.kind !== 'record') return result;
  const { record } = result;
  const turnCount = record.steps.length;
  const from = Math.min(wanted.from ?? Math.max(0, turnCount - wanted.count), turnCount);
  const steps = record.steps.slice(from, from + wanted.count);
  // A page that holds every turn is the whole record, as a short task always is.
  if (steps.length === turnCount) return { kind: 'record', record: { ...record, steps } };
  return { kind: 'record', record: { ...record, steps, page: { from, turnCount, actionCount: actionCount(record) } } };
}

/** Two records (the task in view and the one before it), let go after two minutes without a read. */
const folded = new FoldedRecords({ size: 2, idleMs: 120_000 });

/** Parts of each load that the main thread has not asked for yet. */
const unsent = new Map<number, string[]>();

function sendPart(id: number): void {
  const parts = unsent.get(id);
  const part = parts?.shift();
  if (part === undefined) return;
  if (parts!.length === 0) unsent.delete(id);
  parentPort?.postMessage({ id, part, more: unsent.has(id) } satisfies LoadReply);
}

parentPort?.on('message', (request: LoadRequest) => {
  if ('nextPart' in request) return sendPart(request.id);
  folded.read(request.file, request.taskId, request.limits).then(
    (result: TaskFileRead) => {
      unsent.set(request.id, request.turns ? [JSON.stringify(pageOf(result, request.turns))] : replyParts(result));
      sendPart(request.id);
    },
    (error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error), ...(code && { code }) } satisfies LoadReply);
    },
  );
});
