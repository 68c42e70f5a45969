import { z } from 'zod';
import { taskVerdict, TASK_VERDICTS } from '../shared/verdict';
import { actionCount } from '../shared/turns';
import type { ModelPrice } from '../shared/prices';
import { PlannerInfoSchema, TaskStatusSchema, type PlannerInfo } from '../shared/task';
import { failureWordsOf } from '../shared/task-failure';
import type { EvalAttempt } from './run-suite';

/**
 * What `amc eval --json` prints and `--compare` reads: one document per suite run. Declared once here; the
 * CLI, the HTML report and the tests all go through it.
 */
export const EvalAttemptSchema = z.object({
  attempt: z.number().int().positive(),
  success: z.boolean(),
  status: TaskStatusSchema,
  /** How the task ended, in the verdict every reader shows (absent in results written before it); `verdict` below is the validator's. */
  outcome: z.enum(TASK_VERDICTS).optional(),
  /** Actions taken. */
  steps: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  /** US dollars by the report's price; null when the model has none (absent in results written before costs). */
  costUsd: z.number().nonnegative().nullable().default(null),
  durationMs: z.number().nonnegative(),
  /** Host time around the task (seeding and judging the phone). */
  hostMs: z.number().nonnegative(),
  /** The validator's words: why it passed or failed. */
  verdict: z.string(),
  /** The task's own end: the model's answer, or why it failed or stopped. */
  result: z.string().nullable(),
  /** Why it failed or stopped, in plain words (the error's name left out). */
  failureReason: z.string().nullable(),
  /** The task report (HTML), relative to the eval report's folder; null when no report was written. */
  report: z.string().nullable(),
});

export const EvalTaskResultSchema = z.object({
  id: z.string(),
  goal: z.string(),
  app: z.string(),
  kind: z.string(),
  /** pass^k: every one of its runs passed. */
  success: z.boolean(),
  passes: z.number().int().nonnegative(),
  /** Medians over its runs. */
  steps: z.number().nonnegative(),
  tokens: z.number().nonnegative(),
  durationMs: z.number().nonnegative(),
  /** US dollars per run (median), when a price is known for the model; null otherwise. */
  costUsd: z.number().nonnegative().nullable(),
  /** The first failed run's reason; null when every run passed. */
  failureReason: z.string().nullable(),
  attempts: z.array(EvalAttemptSchema).min(1),
});

export const EvalReportSchema = z.object({
  kind: z.literal('amc-eval'),
  version: z.literal(1),
  startedAt: z.number().int().nonnegative(),
  wallMs: z.number().nonnegative(),
  planner: PlannerInfoSchema,
  /** The price table's entry for the planner's model (USD per million tokens); null: no price, so no cost is shown. */
  price: z.object({ model: z.string(), input: z.number().nonnegative(), output: z.number().nonnegative() }).nullable().default(null),
  parallel: z.number().int().positive(),
  repeat: z.number().int().positive(),
  /** False when the run was interrupted before every task ran. */
  complete: z.boolean(),
  tasks: z.array(EvalTaskResultSchema),
  passed: z.number().int().nonnegative(),
  /** Tasks that passed (pass^k) over tasks run, 0..1. */
  successRate: z.number().min(0).max(1),
  /** 95% Wilson score interval of the success rate. */
  successInterval: z.object({ low: z.number().min(0).max(1), high: z.number().min(0).max(1), confidence: z.literal(0.95) }),
  /** Passed runs over all runs (pass@1 averaged over the repeats). */
  runSuccessRate: z.number().min(0).max(1),
  /** Medians per run. */
  median: z.object({
    steps: z.number().nonnegative(),
    tokens: z.number().nonnegative(),
    costUsd: z.number().nonnegative().nullable().default(null),
    durationMs: z.number().nonnegative(),
    hostMs: z.number().nonnegative(),
  }),
  totals: z.object({ inputTokens: z.number().int().nonnegative(), outputTokens: z.number().int().nonnegative(), costUsd: z.number().nonnegative().nullable() }),
});

export type EvalAttemptResult = z.infer<typeof EvalAttemptSchema>;
export type EvalTaskResult = z.infer<typeof EvalTaskResultSchema>;
export type EvalReport = z.infer<typeof EvalReportSchema>;

const Z_95 = 1.959964;

/** Wilson score interval for `passed` of `total` at 95%: honest at small n and at 0 or 100%, unlike the normal approximation. */
export function wilsonInterval(passed: number, total: number): { low: number; high: number } {
  if (total === 0) return { low: 0, high: 1 };
  const p = passed / total;
  const z2 = Z_95 * Z_95;
  const centre = (p + z2 / (2 * total)) / (1 + z2 / total);
  const half = (Z_95 * Math.sqrt((p * (1 - p)) / total + z2 / (4 * total * total))) / (1 + z2 / total);
  // At 0% or 100% the interval ends exactly at 0 or 1; computed, it can miss by a rounding (0.9999999999999999).
  return { low: passed === 0 ? 0 : Math.max(0, centre - half), high: passed === total ? 1 : Math.min(1, centre + half) };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const tokensOf = (attempt: EvalAttemptResult) => attempt.inputTokens + attempt.outputTokens;

/** The median cost of `runs`, or null without a price (a priced run that made no call cost $0). */
const medianCost = (runs: readonly EvalAttemptResult[], price: ModelPrice | null) => (price ? median(runs.map((run) => run.costUsd ?? 0)) : null);

function attemptResult(attempt: EvalAttempt, report: string | null, price: ModelPrice | null): EvalAttemptResult {
  const { record } = attempt;
  return {
    attempt: attempt.attempt,
    success: attempt.success,
    status: record.status,
    ...(taskVerdict(record) && { outcome: taskVerdict(record)! }),
    steps: actionCount(record),
    inputTokens: record.usage.inputTokens,
    outputTokens: record.usage.outputTokens,
    // The runtime priced each call by the same entry; a run without a call has no cost of its own yet.
    costUsd: price ? (record.costUsd ?? 0) : null,
    durationMs: record.timings.totalMs,
    hostMs: attempt.hostMs,
    verdict: attempt.verdict,
    result: record.result,
    failureReason: failureWordsOf(record),
    report,
  };
}

export interface SummaryInput {
  attempts: readonly EvalAttempt[];
  planner: PlannerInfo;
  /** The price the runs were costed at (the configured planner's), null when its model has none. */
  price: ModelPrice | null;
  startedAt: number;
  wallMs: number;
  parallel: number;
  repeat: number;
  complete: boolean;
  /** Where each attempt's task report was written, relative to the eval report. */
  reportOf?: (attempt: EvalAttempt) => string | null;
}

/** Scores a suite run: per task (pass^k over its runs) and in total, with the interval and medians. */
export function summarize(input: SummaryInput): EvalReport {
  const byTask = new Map<string, EvalAttempt[]>();
  for (const attempt of input.attempts) byTask.set(attempt.task.id, [...(byTask.get(attempt.task.id) ?? []), attempt]);
  const tasks: EvalTaskResult[] = [...byTask.values()].map((runs) => {
    const task = runs[0]!.task;
    const results = runs.sort((a, b) => a.attempt - b.attempt).map((run) => attemptResult(run, input.reportOf?.(run) ?? null, input.price));
    const failed = results.find((result) => !result.success);
    return {
      id: task.id,
      goal: task.goal,
      app: task.app,
      kind: task.kind,
      success: failed === undefined,
      passes: results.filter((result) => result.success).length,
      steps: median(results.map((r) => r.steps)),
      tokens: median(results.map(tokensOf)),
      durationMs: median(results.map((r) => r.durationMs)),
      costUsd: medianCost(results, input.price),
      failureReason: failed ? failed.verdict : null,
      attempts: results,
    };
  });
  const runs = tasks.flatMap((task) => task.attempts);
  const passed = tasks.filter((task) => task.success).length;
  const { low, high } = wilsonInterval(passed, tasks.length);
  return {
    kind: 'amc-eval',
    version: 1,
    startedAt: input.startedAt,
    wallMs: input.wallMs,
    planner: input.planner,
    price: input.price && { model: input.price.model, input: input.price.input, output: input.price.output },
    parallel: input.parallel,
    repeat: input.repeat,
    complete: input.complete,
    tasks,
    passed,
    successRate: tasks.length ? passed / tasks.length : 0,
    successInterval: { low, high, confidence: 0.95 },
    runSuccessRate: runs.length ? runs.filter((run) => run.success).length / runs.length : 0,
    median: {
      steps: median(runs.map((r) => r.steps)),
      tokens: median(runs.map(tokensOf)),
      costUsd: medianCost(runs, input.price),
      durationMs: median(runs.map((r) => r.durationMs)),
      hostMs: median(runs.map((r) => r.hostMs)),
    },
    totals: {
      inputTokens: runs.reduce((sum, r) => sum + r.inputTokens, 0),
      outputTokens: runs.reduce((sum, r) => sum + r.outputTokens, 0),
      costUsd: input.price ? runs.reduce((sum, r) => sum + (r.costUsd ?? 0), 0) : null,
    },
  };
}
