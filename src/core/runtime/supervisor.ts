import type { Decider, PersonReply, PersonRequest } from '../../shared/task';
import { wordCode } from '../../shared/said';

/** One question to a person, as the runtime hands it to the supervisor port. */
export interface SupervisorRequest {
  taskId: string;
  /** Unique per request; the reply names it (what the app's answer operation refers to). */
  requestId: string;
  /** The turn that asks. */
  step: number;
  request: PersonRequest;
}

/** A reply and who gave it: a person, an answer given in advance (`--yes`, `--answer`), or nobody. */
export interface SupervisorDecision {
  reply: PersonReply;
  by: Extract<Decider, 'person' | 'preset' | 'no-one-present'>;
}

/**
 * The one way the runtime reaches a person: a question from the model, a confirmation before a sensitive action,
 * a hand-over, a loop that goes on after a warning. `ask` resolves when there is a reply (waiting costs no
 * tokens: no model call is made meanwhile); when `signal` aborts (Stop, app closing) it should settle promptly
 * (the runner stops waiting either way). A reply that does not fit the request (see `replyFits`) is treated as
 * `unanswered`.
 */
export interface SupervisorPort {
  ask(request: SupervisorRequest, context: { signal: AbortSignal }): Promise<SupervisorDecision>;
}

/** Why nobody answered, in the words a failed task's reason carries. */
export const NO_PERSON_PRESENT = wordCode('refusal.noPersonPresent');

/** The default: no one can be asked, so every request goes unanswered and the task ends `failed`, naming why. */
export const noPersonPresent: SupervisorPort = {
  ask: async () => ({ reply: { kind: 'unanswered', reason: NO_PERSON_PRESENT }, by: 'no-one-present' }),
};

/** Answers given in advance, for runs without a person at hand (`amc run --yes --answer ...`, the eval suite). */
export interface Preset {
  /** Allow every action the policy asks about. */
  allowActions?: boolean;
  /** Answers to the model's questions, used in order. */
  answers?: readonly string[];
}

/** Replies from `preset` where it has one (decided by `preset`); everything else goes to `fallback`. */
export function presetSupervisor(preset: Preset, fallback: SupervisorPort = noPersonPresent): SupervisorPort {
  const answers = [...(preset.answers ?? [])];
  return {
    ask(request, context) {
      if (request.request.kind === 'confirmation' && preset.allowActions) return Promise.resolve({ reply: { kind: 'allow', scope: 'once' }, by: 'preset' });
      const answer = request.request.kind === 'question' ? answers.shift() : undefined;
      if (answer !== undefined) return Promise.resolve({ reply: { kind: 'answer', text: answer }, by: 'preset' });
      return fallback.ask(request, context);
    },
  };
}
