import { z } from 'zod';
import { defineEvents, defineMethods } from './define';

/**
 * What a running task waits on a person for: a question to answer, a sensitive action to allow or deny, a
 * hand-over (the person uses the phone, then lets the agent go on) or a loop the guard caught. While one is
 * pending no model call is made; it is kept by main, so a reloaded window shows it again.
 */
const requestBase = {
  /** Unique per request: a reply to an answered or stale request is refused, never applied to a newer one. */
  id: z.string().min(1).max(200),
  taskId: z.string().min(1).max(200),
  serial: z.string(),
  /** The turn it arose in. */
  step: z.number().int().nonnegative(),
  at: z.number().int().nonnegative(),
};

export const QuestionRequestSchema = z.object({ kind: z.literal('question'), ...requestBase, question: z.string() });

export const ConfirmationRequestSchema = z.object({
  kind: z.literal('confirmation'),
  ...requestBase,
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  /** The element the action is aimed at (drawn on that turn's Scene wireframe), when it names one. */
  targetId: z.string().nullable(),
  targetLabel: z.string().nullable(),
  rationale: z.string().nullable(),
  /** Why the policy holds it for a yes, in plain words ("sends a message", "step mode"). */
  why: z.string(),
});

export const HandOverRequestSchema = z.object({ kind: z.literal('hand-over'), ...requestBase, reason: z.string() });

export const LoopRequestSchema = z.object({
  kind: z.literal('loop'),
  ...requestBase,
  /** What the guard saw, e.g. "launch_app Settings 4 times without the screen changing". */
  what: z.string(),
});

export const PendingRequestSchema = z.discriminatedUnion('kind', [
  QuestionRequestSchema,
  ConfirmationRequestSchema,
  HandOverRequestSchema,
  LoopRequestSchema,
]);
export type PendingRequest = z.infer<typeof PendingRequestSchema>;
export type PendingRequestKind = PendingRequest['kind'];
export type PendingRequestOf<K extends PendingRequestKind> = Extract<PendingRequest, { kind: K }>;

/** Whether, while this request waits, the phone is the person's (a hand-over, or a loop they may untangle): the mirror takes their input. */
export const handsPhoneOver = (request: PendingRequest | null | undefined): boolean => request?.kind === 'hand-over' || request?.kind === 'loop';

const note = z.string().trim().max(2000).optional();

/** A person's answer to one pending request; its kind must match the request's. */
export const SupervisorReplySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('question'), answer: z.string().trim().min(1, 'the answer must not be empty').max(2000) }).strict(),
  z.object({ kind: z.literal('confirmation'), decision: z.enum(['allow', 'deny', 'allow-for-task']) }).strict(),
  z.object({ kind: z.literal('hand-over'), decision: z.enum(['continue', 'stop']), note }).strict(),
  z.object({ kind: z.literal('loop'), decision: z.enum(['continue', 'stop']), note }).strict(),
]);
export type SupervisorReply = z.infer<typeof SupervisorReplySchema>;
export type SupervisorReplyOf<K extends PendingRequestKind> = Extract<SupervisorReply, { kind: K }>;

export const ReplyInputSchema = z
  .object({ taskId: z.string().trim().min(1).max(200), requestId: z.string().trim().min(1).max(200), reply: SupervisorReplySchema })
  .strict();
export type ReplyInput = z.infer<typeof ReplyInputSchema>;

export const ReplyResultSchema = z.object({
  /** False when the request was no longer pending (answered in another window, the task ended): nothing changed. */
  accepted: z.boolean(),
  /** Why it was not accepted, in plain words. */
  reason: z.string().nullable(),
});
export type ReplyResult = z.infer<typeof ReplyResultSchema>;

export const supervisionMethods = defineMethods({
  /** Answers the pending request of a task (a question, a confirmation, a hand-over, a loop). */
  'tasks.reply': { input: ReplyInputSchema, output: ReplyResultSchema },
  /** Every request waiting on a person, in every task: what a window shows after a load or a reload. */
  'tasks.pending': { input: z.object({}).strict(), output: z.array(PendingRequestSchema) },
});

export const supervisionEvents = defineEvents({
  /** A task now waits on a person (`request`), or no longer does (`request: null`, answered or ended). */
  'task.pending': z.object({ taskId: z.string(), serial: z.string(), request: PendingRequestSchema.nullable() }),
});

/** The desktop notification for a request, when the window is not in front (one wording for Electron and the browser). */
export function attentionNotice(request: PendingRequest): { title: string; body: string } {
  switch (request.kind) {
    case 'question':
      return { title: 'The agent has a question', body: request.question };
    case 'confirmation':
      return { title: 'The agent waits for your yes', body: `${request.tool}${request.targetLabel ? ` on ${request.targetLabel}` : ''}: ${request.why}` };
    case 'hand-over':
      return { title: 'Your turn on the phone', body: request.reason };
    case 'loop':
      return { title: 'The agent seems stuck', body: request.what };
  }
}
