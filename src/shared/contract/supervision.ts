import { z } from 'zod';
import { PersonReplySchema, type PersonRequest } from '../task';
import { defineMethods } from './define';

/**
 * A person's reply from a window to what a running task waits on (a question, a confirmation, a hand-over, a
 * loop). The request itself travels as the task's `person.asked` event and stays in its record as `pending`, so a
 * reloaded window shows it again. `unanswered` is the runtime's own (nobody could answer), never a person's.
 */
export type PersonRequestOf<K extends PersonRequest['kind']> = Extract<PersonRequest, { kind: K }>;

/** Every reply but `unanswered`, picked by position from PersonReplySchema (supervision-desk.test checks each kind). */
const [answerReply, allowReply, denyReply, continueReply, stopReply] = PersonReplySchema.options;
export const GivenReplySchema = z.discriminatedUnion('kind', [answerReply, allowReply, denyReply, continueReply, stopReply]);
export type GivenReply = z.infer<typeof GivenReplySchema>;

export const ReplyInputSchema = z
  .object({ taskId: z.string().trim().min(1).max(200), requestId: z.string().trim().min(1).max(200), reply: GivenReplySchema })
  .strict();
export type ReplyInput = z.infer<typeof ReplyInputSchema>;

export const ReplyResultSchema = z.object({
  /** False when nothing changed: the request was already answered (another window, the terminal) or its task ended. */
  accepted: z.boolean(),
  /** Why it was not accepted, in plain words. */
  reason: z.string().nullable(),
});
export type ReplyResult = z.infer<typeof ReplyResultSchema>;

export const supervisionMethods = defineMethods({
  /** Answers a task's pending request; the first fitting reply wins, a late or misfit one is refused with the reason. */
  'tasks.reply': { input: ReplyInputSchema, output: ReplyResultSchema },
});

/** Whether, while this request waits, the phone is the person's (a hand-over, or a loop they may untangle): the mirror takes their input. */
export const handsPhoneOver = (request: PersonRequest | null | undefined): boolean => request?.kind === 'hand-over' || request?.kind === 'loop';

/** The desktop notification for a request, when the window is not in front (one wording for Electron and the browser). */
export function attentionNotice(request: PersonRequest): { title: string; body: string } {
  switch (request.kind) {
    case 'question':
      return { title: 'The agent has a question', body: request.question };
    case 'confirmation':
      return { title: 'The agent waits for your yes', body: `${request.tool}${request.target?.label ? ` on ${request.target.label}` : ''}: ${request.reasons.join('; ')}` };
    case 'hand-over':
      return { title: 'Your turn on the phone', body: request.reason };
    case 'loop':
      return { title: 'The agent seems stuck', body: request.description };
  }
}
