// What the fleet reports (workers, their phones, jobs and their results), as `amc fleet` prints it and the app's
// Fleet view shows it. The job payloads themselves are the fleet's own (src/fleet/job.ts).
import { z } from 'zod';
import { TaskFailureSchema, TaskStatusSchema } from './task';
import { SaidSchema, wordSaid, type Said } from './said';
import { FlowStepResultSchema, flowPassed } from './flow';
import { TASK_VERDICTS, type TaskVerdict } from './verdict';
import type { Words } from './i18n/words';
import { ENGLISH } from './i18n/translate';
import { formatCount } from './task-words';

/** What a finished job leaves in Redis: enough for the results table, without the screens (seed D5). */
export const FleetResultSchema = z.object({
  worker: z.string(),
  serial: z.string(),
  taskId: z.string(),
  status: TaskStatusSchema,
  /** How the task ended (shared/verdict.ts); a flow job's steps may still fail a `done` task (see `jobVerdict`). */
  verdict: z.enum(TASK_VERDICTS),
  failureReason: z.string().nullable(),
  /** The failure reason's code, for a reader in another language (absent in results written before it). */
  failureSaid: SaidSchema.optional(),
  /** When the task failed on an exception: the error's name and message apart; readers word `failureWordsOf` (absent in older results). */
  failure: TaskFailureSchema.optional(),
  result: z.string().nullable(),
  /** Actions taken. */
  steps: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative().nullable(),
  /** When the task started on the phone (ms since the epoch). */
  startedAt: z.number().nonnegative(),
  durationMs: z.number().nonnegative(),
  /** Workers that had started this job before and went away (their runs were interrupted). */
  interruptedOn: z.array(z.string()).default([]),
  /** For a scheduled job: how late it started against its planned time. */
  lateMs: z.number().nonnegative().optional(),
  /** For a flow job: how each of the flow's steps went. */
  flowSteps: z.array(FlowStepResultSchema).optional(),
});
export type FleetResult = z.infer<typeof FleetResultSchema>;

/** A worker's phones as it last reported them. */
export const FleetPhoneSchema = z.object({
  serial: z.string(),
  state: z.enum(['ready', 'busy', 'offline']),
  /** The job it is running, when busy. */
  jobId: z.string().nullable(),
  groups: z.array(z.string()),
});
export type FleetPhone = z.infer<typeof FleetPhoneSchema>;

export const FleetWorkerSchema = z.object({
  name: z.string(),
  host: z.string(),
  pid: z.number().int(),
  startedAt: z.iso.datetime(),
  seenAt: z.iso.datetime(),
  phones: z.array(FleetPhoneSchema),
});
export type FleetWorkerInfo = z.infer<typeof FleetWorkerSchema>;

export const JOB_STATES = ['queued', 'running', 'finished', 'failed', 'interrupted'] as const;
export const JobStateSchema = z.enum(JOB_STATES);
export type JobState = z.infer<typeof JobStateSchema>;

export const JobViewSchema = z.object({
  id: z.string(),
  queue: z.string(),
  goal: z.string(),
  /** The goal's code when it is our words, not the job's (a payload that is not a fleet job). */
  goalSaid: SaidSchema.optional(),
  /** The flow's name, for a flow job. */
  flow: z.string().nullable(),
  launchId: z.string(),
  target: z.string(),
  state: JobStateSchema,
  /** How it ended (`jobVerdict`); null while it waits or runs. */
  verdict: z.enum(TASK_VERDICTS).nullable(),
  /** Why it failed or was interrupted, in plain words. */
  reason: z.string().nullable(),
  /** The reason's code, when the fleet client worded it (a worker's own refusal comes in its terminal's language). */
  reasonSaid: SaidSchema.nullable().optional(),
  result: FleetResultSchema.nullable(),
  submittedAt: z.string(),
});
export type JobView = z.infer<typeof JobViewSchema>;

/** What `amc fleet` counts: jobs waiting or running, and the ended ones by verdict (failed, not verified, interrupted apart). */
export const JOB_COUNTS = ['queued', 'running', ...TASK_VERDICTS] as const;
export type JobCount = (typeof JOB_COUNTS)[number];

export const FleetOverviewSchema = z.object({
  workers: z.array(FleetWorkerSchema.extend({ alive: z.boolean() })),
  counts: z.record(z.enum(JOB_COUNTS), z.number().int().nonnegative()),
  jobs: z.array(JobViewSchema),
});
export type FleetOverview = z.infer<typeof FleetOverviewSchema>;

/** The target of a job for the first free phone, as a job (or a schedule) records it; `targetWords` words it. */
export const ANY_PHONE_TARGET = 'any free phone';

/** Where a job (or a schedule) runs, in words: its phone's serial, or the first free phone. */
export const targetWords = (target: string, words: Words): string => (target === ANY_PHONE_TARGET ? words.t('cli:fleet.anyPhone') : target);

/** What a job (or a schedule) carries out, in words: its goal, or "flow NAME". */
export const workWords = (job: { goal: string; goalSaid?: Said | undefined; flow: string | null }, words: Words): string =>
  job.flow === null ? wordSaid(job.goal, job.goalSaid, words) : words.t('cli:schedule.flow', { name: job.flow });

/**
 * A job's verdict: its task's, except that a flow job whose task was done failed when any step did not pass; a job
 * that ended without a result failed, or was interrupted (its worker went away). Null while it waits or runs.
 */
export function jobVerdict(view: Pick<JobView, 'state' | 'result'>): TaskVerdict | null {
  if (view.state === 'interrupted') return 'interrupted';
  const { result } = view;
  if (!result) return view.state === 'failed' ? 'failed' : null;
  if (result.verdict === 'done' && result.flowSteps && !flowPassed(result.flowSteps)) return 'failed';
  return result.verdict;
}

/** Counts of jobs by what `amc fleet` tells apart. */
export function jobCounts(views: ReadonlyArray<Pick<JobView, 'state' | 'result'>>): Record<JobCount, number> {
  const counts = Object.fromEntries(JOB_COUNTS.map((count) => [count, 0])) as Record<JobCount, number>;
  for (const view of views) {
    const verdict = jobVerdict(view);
    counts[verdict ?? (view.state === 'queued' ? 'queued' : 'running')] += 1;
  }
  return counts;
}

/** The counts in words, every verdict apart: "0 queued, 1 running, 5 done, 1 not verified, 4 failed, …". */
export const jobCountWords = (counts: Record<JobCount, number>, words: Words = ENGLISH): string =>
  JOB_COUNTS.map((count) => words.t(`common:jobCount.${count}`, { value: formatCount(counts[count], words.locale) })).join(words.t('common:listSeparator'));

/** A job succeeded only when its verdict is done. */
export const jobSucceeded = (view: Pick<JobView, 'state' | 'result'>): boolean => jobVerdict(view) === 'done';
