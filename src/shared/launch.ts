// One goal launched on several phones at once: each phone's row in the results table, as the CLI, the app and its
// History show it. A phone whose task never started (gone, held by another task) has a row too, with the reason.
import { z } from 'zod';
import { schemaMessage } from './schema-message';
import { outcomeWord } from './task-words';
import { finishedVerdict, TASK_VERDICTS, type TaskVerdict } from './verdict';
import { RunTaskRequestSchema, type TaskRecord } from './task';
import { failureWordsOf } from './task-failure';
import { actionCount } from './turns';
import { ENGLISH, type Words } from './i18n/translate';
import { SaidSchema, type Saying } from './said';

/**
 * The phones of a launch: picked one by one, a device group declared in Settings, or one of this app's demo phones
 * by its number ("Demo phone" is 1, "Demo phone 2" is 2), whose serial changes at every start: a schedule names it so.
 */
export const LaunchPhonesSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('serials'), serials: z.array(RunTaskRequestSchema.shape.serial).min(1, schemaMessage('schema.pickPhones')).max(50) }).strict(),
  z.object({ kind: z.literal('group'), group: z.string().trim().min(1, schemaMessage('schema.pickGroup')).max(100) }).strict(),
  z.object({ kind: z.literal('demo'), number: z.number().int().min(1).max(20) }).strict(),
]);
export type LaunchPhones = z.infer<typeof LaunchPhonesSchema>;

/** The phones in words: "lab (group)", the demo phone's name, or the serials. */
export function launchPhonesWords(phones: LaunchPhones, words: Words = ENGLISH): string {
  switch (phones.kind) {
    case 'group':
      return words.t('common:launch.group', { group: phones.group });
    case 'demo':
      return phones.number === 1 ? words.t('said:phoneName.demo') : words.t('said:phoneName.demoNumbered', { number: phones.number });
    case 'serials':
      return phones.serials.join(', ');
  }
}

export const LaunchRowSchema = z.object({
  serial: z.string(),
  /** Null when no task started on the phone. */
  taskId: z.string().nullable(),
  /** Null while the task runs. */
  outcome: z.enum(TASK_VERDICTS).nullable(),
  /** Why it failed or stopped, in plain words (or what the model said on success). */
  reason: z.string().nullable(),
  /** The reason's code when the app worded why the task could not start, for a reader in another language. */
  reasonSaid: SaidSchema.optional(),
  /** Actions carried out on the phone. */
  steps: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  /** Null when the model has no price. */
  costUsd: z.number().nonnegative().nullable(),
  durationMs: z.number().nonnegative(),
});
export type LaunchRow = z.infer<typeof LaunchRowSchema>;

/** A task's row, finished or still running. */
export function launchRowOf(record: TaskRecord, now: number = Date.now()): LaunchRow {
  const finished = record.status !== 'pending' && record.status !== 'running';
  const started = record.startedAt ?? record.createdAt;
  return {
    serial: record.serial,
    taskId: record.id,
    outcome: finished ? finishedVerdict(record) : null,
    ...reasonOf(record, finished),
    // Actions carried out, as History counts them (not questions, hand-overs or denied actions).
    steps: actionCount(record),
    tokens: record.usage.inputTokens + record.usage.outputTokens,
    costUsd: record.costUsd,
    durationMs: Math.max(0, (record.finishedAt ?? now) - started),
  };
}

/** Why a finished task went as it did, with its code: the failure's words, else the task's result. */
function reasonOf(record: TaskRecord, finished: boolean): Pick<LaunchRow, 'reason' | 'reasonSaid'> {
  const failed = failureWordsOf(record);
  if (failed !== null) return { reason: failed, ...(record.failureSaid && { reasonSaid: record.failureSaid }) };
  if (!finished || record.result === null) return { reason: null };
  return { reason: record.result, ...(record.resultSaid && { reasonSaid: record.resultSaid }) };
}

/** The row of a phone whose task could not start. */
export function refusedRow(serial: string, reason: string | Saying): LaunchRow {
  const why = typeof reason === 'string' ? { reason } : { reason: reason.text, reasonSaid: reason.said };
  return { serial, taskId: null, outcome: 'failed', ...why, steps: 0, tokens: 0, costUsd: null, durationMs: 0 };
}

/** A launch succeeded only when every phone's task was done (and not contradicted). */
export const launchSucceeded = (rows: readonly LaunchRow[]): boolean => rows.length > 0 && rows.every((row) => row.outcome === 'done');

/** The launch's outcome for whoever acts on it without reading it: the phones' shared outcome, or "failed" when they differ. */
export function launchOutcome(rows: readonly LaunchRow[]): TaskVerdict {
  const outcomes = new Set(rows.map((row) => row.outcome ?? 'failed'));
  return outcomes.size === 1 ? [...outcomes][0]! : 'failed';
}

/** A verdict as a results table shows it. */
export const finishedOutcomeWords = (outcome: TaskVerdict, words: Words = ENGLISH): string => outcomeWord(outcome, words);
