// What travels through Redis between `amc submit`, the workers and `amc fleet`: every payload is checked against
// these schemas where it is read, as at every other boundary, since anyone who can write to the Redis can queue.
import { z } from 'zod';
import { RunTaskRequestSchema } from '../shared/task';
import { NamedFlowSchema } from '../shared/flow';
import { schemaMessage } from '../shared/schema-message';
import { issueSaidAt } from '../shared/issue-said';
import { textForReader } from '../shared/said';
import { ENGLISH, type Words } from '../shared/i18n/translate';

/** Where a job runs: one named phone (its own queue), or the first free phone of any worker (the shared queue). */
export const FleetTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('device'), serial: RunTaskRequestSchema.shape.serial }).strict(),
  z.object({ kind: z.literal('any') }).strict(),
]);
export type FleetTarget = z.infer<typeof FleetTargetSchema>;

export const FleetJobSchema = z
  .object({
    goal: RunTaskRequestSchema.shape.goal,
    /**
     * A flow job's flow, its variables filled in: the content travels, never a path the worker would read from its
     * own disk. Its goal is the job's goal.
     */
    flow: NamedFlowSchema.optional(),
    target: FleetTargetSchema,
    maxSteps: RunTaskRequestSchema.shape.maxSteps,
    allowedApps: RunTaskRequestSchema.shape.allowedApps,
    /** Sensitive actions are approved in advance (as `amc run --yes`); otherwise they are refused, nobody is asked. */
    yes: z.boolean().default(false),
    /** Answers given in advance to the agent's questions (as `amc run --answer`). */
    answers: z.array(z.string().trim().min(1).max(2000)).max(20).default([]),
    /** The jobs queued by one `amc submit` (or one firing of a schedule) share this id. */
    launchId: z.string().min(1).max(100),
    /** The device group the job was sent to, if any: shown with the results. */
    group: z.string().max(100).optional(),
    /** The schedule that queued it, if any. */
    schedule: z.string().max(100).optional(),
    submittedAt: z.iso.datetime(),
  })
  .strict()
  .refine((job) => !job.flow || job.flow.content.goal === job.goal, { path: ['goal'], ...schemaMessage('schema.flowJobGoal') });
export type FleetJob = z.infer<typeof FleetJobSchema>;
export type FleetJobInput = z.input<typeof FleetJobSchema>;

export { FleetPhoneSchema, FleetResultSchema, FleetWorkerSchema, type FleetPhone, type FleetResult, type FleetWorkerInfo } from '../shared/fleet';

/**
 * A job payload in plain words when it is refused: the first problem's field and what is wrong with it, in zod's own
 * words for an English reader (as always), else by the issue's code in the reader's language.
 */
export function describeJobProblem(error: z.ZodError, words: Words = ENGLISH): string {
  // zod gives at least one issue.
  const issue = error.issues[0]!;
  const english = `${issue.path.join('.') || 'the job'}: ${issue.message}`;
  return textForReader(english, issueSaidAt(issue), words);
}
