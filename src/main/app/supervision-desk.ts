import { randomUUID } from 'node:crypto';
import {
  handsPhoneOver,
  PendingRequestSchema,
  SupervisorReplySchema,
  type PendingRequest,
  type PendingRequestKind,
  type PendingRequestOf,
  type ReplyInput,
  type ReplyResult,
  type SupervisorReplyOf,
} from '../../shared/contract/supervision';
import type { EventHub } from '../ipc/event-hub';

/** A request as the runtime raises it; the desk gives it its id and time. */
export type RequestDraft<K extends PendingRequestKind> = Omit<PendingRequestOf<K>, 'id' | 'at'>;

interface Waiting {
  request: PendingRequest;
  settle(reply: SupervisorReplyOf<PendingRequestKind>): void;
  fail(reason: unknown): void;
}

/** Thrown to the waiting task when its request can no longer be answered (the task was stopped). */
export class RequestWithdrawn extends Error {
  override name = 'RequestWithdrawn';
}

/**
 * Where a running task waits on a person: one pending request per task, kept here (not in a window) so a
 * reloaded page shows it again, announced to every window, and settled by the first valid reply. Waiting is
 * a plain promise: nothing runs, and no model is called, until the person answers.
 */
export class SupervisionDesk {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly options: { events: Pick<EventHub, 'publish'>; now?: () => number; newId?: () => string },
  ) {}

  /** Raises a request and resolves with the person's reply; rejects with RequestWithdrawn if `signal` aborts first. */
  request<K extends PendingRequestKind>(draft: RequestDraft<K>, signal?: AbortSignal): Promise<SupervisorReplyOf<K>> {
    // Parsed, not cast: what the runtime raises is checked against the contract the windows rely on.
    const request = PendingRequestSchema.parse({ ...draft, id: (this.options.newId ?? randomUUID)(), at: (this.options.now ?? Date.now)() });
    // A task asks one thing at a time; a newer request replaces an unanswered one (whose task moved on).
    this.withdraw(draft.taskId, 'a newer request replaced it');
    return new Promise<SupervisorReplyOf<K>>((resolve, reject) => {
      const onAbort = () => this.withdraw(request.taskId, 'the task was stopped');
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.waiting.set(request.taskId, {
        request,
        settle: (reply) => {
          done();
          resolve(reply as SupervisorReplyOf<K>);
        },
        fail: (reason) => {
          done();
          reject(reason);
        },
      });
      this.announce(request.taskId, request.serial, request);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Applies a person's reply when it answers the task's current request and is of its kind. */
  reply(input: ReplyInput): ReplyResult {
    const entry = this.waiting.get(input.taskId);
    if (!entry || entry.request.id !== input.requestId) {
      return { accepted: false, reason: 'This request was already answered or its task has ended.' };
    }
    const reply = SupervisorReplySchema.parse(input.reply);
    if (reply.kind !== entry.request.kind) {
      return { accepted: false, reason: `This request needs a ${entry.request.kind} reply, not a ${reply.kind} one.` };
    }
    this.waiting.delete(input.taskId);
    this.announce(entry.request.taskId, entry.request.serial, null);
    entry.settle(reply);
    return { accepted: true, reason: null };
  }

  /** Every request waiting now, oldest first. */
  pending(): PendingRequest[] {
    return [...this.waiting.values()].map((entry) => entry.request).sort((a, b) => a.at - b.at);
  }

  pendingFor(taskId: string): PendingRequest | null {
    return this.waiting.get(taskId)?.request ?? null;
  }

  /** Whether the task waits for the person to use the phone (a hand-over, or a loop they may untangle). */
  handsPhoneOver(taskId: string): boolean {
    return handsPhoneOver(this.waiting.get(taskId)?.request);
  }

  /** Drops a task's request (its task ended or was stopped); the waiting task sees RequestWithdrawn. */
  withdraw(taskId: string, why: string): void {
    const entry = this.waiting.get(taskId);
    if (!entry) return;
    this.waiting.delete(taskId);
    this.announce(taskId, entry.request.serial, null);
    entry.fail(new RequestWithdrawn(`The ${entry.request.kind} was withdrawn: ${why}.`));
  }

  private announce(taskId: string, serial: string, request: PendingRequest | null): void {
    this.options.events.publish('task.pending', { taskId, serial, request });
  }
}
