import { actionPhrase } from './action-words';
import { nameInLabel } from './scene';
import type { Decider, PersonReply, PersonRequest, SupervisionEntry } from './task';

/**
 * The supervision log in words, one wording for the live timeline, History, the HTML report and the CLI: what
 * was asked or decided, and by whom.
 */

export const DECIDER_WORDS: Record<Decider, string> = {
  runtime: 'the runtime',
  policy: 'the policy',
  person: 'the person',
  preset: 'an answer given in advance',
  'no-one-present': 'no one present',
};

/** An action as one line in a person's words ("Tap 'Send'"); `targetLabel` as the executor or policy recorded it. */
export const actionWords = (tool: string, args: Record<string, unknown>, targetLabel?: string): string =>
  actionPhrase(tool, args, targetLabel === undefined ? undefined : (nameInLabel(targetLabel) ?? targetLabel));

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

export function requestWords(request: PersonRequest): string {
  switch (request.kind) {
    case 'question':
      return `The agent asked: ${request.question}`;
    case 'confirmation':
      return `Confirmation asked to ${lowerFirst(actionWords(request.tool, request.args, request.target?.label))}: ${request.reasons.join('; ')}`;
    case 'hand-over':
      return `The agent handed the phone over: ${request.reason}`;
    case 'loop':
      return `Loop: ${request.description}`;
  }
}

export function replyWords(reply: PersonReply): string {
  switch (reply.kind) {
    case 'answer':
      return `Answered: ${reply.text}`;
    case 'allow':
      return reply.scope === 'task' ? 'Allowed for the rest of this task' : 'Allowed';
    case 'deny':
      return 'Denied';
    case 'continue':
      return reply.note ? `Continue, with the note: ${reply.note}` : 'Continue';
    case 'stop':
      return 'Stop';
    case 'unanswered':
      return `Unanswered: ${reply.reason}`;
  }
}

export interface SupervisionLine {
  at: number;
  step: number;
  kind: 'guard' | 'asked' | 'answered' | 'note';
  text: string;
  /** Who decided; null for a question put to the person (nobody has decided yet). */
  by: string | null;
}

/** One line per entry of a task's supervision log, in order. */
export function supervisionLines(log: readonly SupervisionEntry[]): SupervisionLine[] {
  return log.map((entry): SupervisionLine => {
    switch (entry.type) {
      case 'guard.decided':
        return { at: entry.at, step: entry.step, kind: 'guard', text: `Guard (${entry.guard}, ${entry.decision}): ${entry.message}`, by: DECIDER_WORDS[entry.by] };
      case 'person.asked':
        return { at: entry.at, step: entry.step, kind: 'asked', text: requestWords(entry.request), by: null };
      case 'person.answered':
        return { at: entry.at, step: entry.step, kind: 'answered', text: replyWords(entry.reply), by: DECIDER_WORDS[entry.by] };
      case 'task.resumed':
        return { at: entry.at, step: entry.step, kind: 'note', text: `Resumed with a note for the agent: ${entry.note ?? ''}`, by: DECIDER_WORDS.person };
    }
  });
}
