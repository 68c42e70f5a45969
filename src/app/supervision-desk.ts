import { wordCode } from '../shared/said';
import { replyFits, type PersonRequest } from '../shared/task';
import { handsPhoneOver, type ReplyInput, type ReplyResult } from '../shared/contract/supervision';
import type { SupervisorDecision, SupervisorPort, SupervisorRequest } from '../core/runtime/supervisor';

interface Waiting {
  requestId: string;
  request: PersonRequest;
  settle(decision: SupervisorDecision): void;
}

/**
 * The app's side of the runtime's supervisor port: a task's request waits here until a person replies from a
 * window. Waiting is a plain promise (nothing runs, no model is called); the request itself reaches the windows
 * as the task's `person.asked` event, so a reloaded window finds it in the task's record.
 */
export class SupervisionDesk implements SupervisorPort {
  private readonly waiting = new Map<string, Waiting>();

  ask({ taskId, requestId, request }: SupervisorRequest, { signal }: { signal: AbortSignal }): Promise<SupervisorDecision> {
    return new Promise<SupervisorDecision>((resolve) => {
      const settle = (decision: SupervisorDecision) => {
        signal.removeEventListener('abort', onAbort);
        if (this.waiting.get(taskId)?.requestId === requestId) this.waiting.delete(taskId);
        resolve(decision);
      };
      // Stopped while waiting: the runner has stopped listening, this only frees the slot.
      const onAbort = () => settle({ reply: { kind: 'unanswered', reason: 'the task was stopped' }, by: 'no-one-present' });
      // A task asks one thing at a time; an older unanswered request of it is over.
      this.waiting.get(taskId)?.settle({ reply: { kind: 'unanswered', reason: wordCode('refusal.replaced') }, by: 'no-one-present' });
      this.waiting.set(taskId, { requestId, request, settle });
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Applies a person's reply when it answers the task's current request and fits its kind. */
  reply({ taskId, requestId, reply }: ReplyInput): ReplyResult {
    const entry = this.waiting.get(taskId);
    if (!entry || entry.requestId !== requestId) {
      return { accepted: false, reason: 'This request was already answered, or its task has ended.' };
    }
    if (!replyFits(entry.request, reply)) {
      return { accepted: false, reason: `"${reply.kind}" is not a reply to a ${entry.request.kind}.` };
    }
    entry.settle({ reply, by: 'person' });
    return { accepted: true, reason: null };
  }

  /** Whether the task waits for the person to use the phone (a hand-over, or a loop they may untangle). */
  handsPhoneOver(taskId: string): boolean {
    return handsPhoneOver(this.waiting.get(taskId)?.request);
  }
}
