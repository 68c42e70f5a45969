// What the fleet reports (workers, their phones, jobs and their results), as `amc fleet` prints it and the app's
// Fleet view shows it. The job payloads themselves are the fleet's own (src/fleet/job.ts).
import { z } from 'zod';
import { TaskStatusSchema } from './task';
import { FlowStepResultSchema } from './flow';
import type { Words } from './i18n/words';

/** What a finished job leaves in Redis: enough for the results table, without the screens (seed D5). */
export const FleetResultSchema = z.object({
  worker: z.string(),
  serial: z.string(),
  taskId: z.string(),
  status: TaskStatusSchema,
  /** False when the task was done but the runtime could not confirm it (nothing was acted on, or the check failed). */
  verified: z.boolean(),
  failureReason: z.string().nullable(),
  result: z.string().nullable(),
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
  /** The flow's name, for a flow job. */
  flow: z.string().nullable(),
  launchId: z.string(),
  target: z.string(),
  state: JobStateSchema,
  /** Why it failed or was interrupted, in plain words. */
  reason: z.string().nullable(),
  result: FleetResultSchema.nullable(),
  submittedAt: z.string(),
});
export type JobView = z.infer<typeof JobViewSchema>;

export const FleetOverviewSchema = z.object({
  workers: z.array(FleetWorkerSchema.extend({ alive: z.boolean() })),
  counts: z.record(JobStateSchema, z.number().int().nonnegative()),
  jobs: z.array(JobViewSchema),
});
export type FleetOverview = z.infer<typeof FleetOverviewSchema>;

/** What a job (or a schedule) carries out, in words: its goal, or "flow NAME". */
export const workWords = (job: { goal: string; flow: string | null }, words: Words): string =>
  job.flow === null ? job.goal : words.t('cli:schedule.flow', { name: job.flow });

/** A job succeeded when its task was done and the runtime could confirm it, and a flow job's every step passed. */
export const jobSucceeded = (result: FleetResult | null): boolean =>
  result?.status === 'completed' && result.verified && (result.flowSteps ?? []).every((step) => step.status === 'passed');
