import { actionPhrase } from './action-words';
import { ENGLISH, type Words } from './i18n/translate';
import { z } from 'zod';
import { saidList, SaidSchema, wordCode, wordSaid, type Said, type SaidCode, type SaidValues, type Saying } from './said';
import { nameInLabel } from './scene';
import { plainReason } from './plain-words';
import type { StepOutcome } from './action';
import type { Decider, PersonReply, PersonRequest, SupervisionEntry } from './task';

/**
 * The supervision log in words, one wording for the live timeline, History, the HTML report and the CLI: what
 * was asked or decided, and by whom. English unless given another language's `words` (catalog area `common`);
 * what was recorded (the question, the reasons, a guard's message) is quoted as it was recorded.
 */

/** Why nobody could answer, as the CLI and the runtime say it (its words declared once, in the catalogs). */
const UNANSWERED_CODES: readonly SaidCode[] = ['refusal.noTerminal', 'refusal.noTerminalYes', 'refusal.noPersonPresent', 'refusal.replaced', 'refusal.agentAsksOnlyActions'];
/** The code of why nobody could answer, when it is one of those. */
export const unansweredCode = (why: string): SaidCode | undefined => UNANSWERED_CODES.find((code) => wordCode(code) === why);
/** Why nobody could answer, in the reader's language when it is a known reason (else as it was recorded). */
export function unansweredWords(why: string, words: Words = ENGLISH): string {
  const code = unansweredCode(why);
  return code ? wordCode(code, {}, words) : why;
}

export const deciderWords = (by: Decider, words: Words = ENGLISH): string => words.t(`common:decider.${by}`);

/** An action as one line in a person's words ("Tap 'Send'"); `targetLabel` as the executor or policy recorded it. */
export const actionWords = (tool: string, args: Record<string, unknown>, targetLabel?: string, words: Words = ENGLISH): string =>
  actionPhrase(tool, args, targetLabel === undefined ? undefined : (nameInLabel(targetLabel) ?? targetLabel), 'do', words);

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** Why a confirmation was asked, in the window's language where the reasons carry their codes. */
export function confirmationReasons(request: Extract<PersonRequest, { kind: 'confirmation' }>, words: Words = ENGLISH): string {
  return request.reasons.map((reason, index) => wordSaid(reason, request.reasonsSaid?.[index], words)).join('; ');
}

/** What the loop guard saw, in the window's language where it carries its code (its action too). */
export const loopDescription = (request: Extract<PersonRequest, { kind: 'loop' }>, words: Words = ENGLISH): string =>
  guardMessage({ message: request.description, said: request.descriptionSaid }, words);

/**
 * An action as a guard's message carries it, to be worded in the reader's language (the `action` value); `mood`
 * `done` for what was done ("Pressed Home 3 times"). `targetSaid`: the target as a flow describes it (`targetLabel`
 * is its English), worded in the reader's language too.
 */
export const actionCall = (tool: string, args: Record<string, unknown>, targetLabel: string | undefined, mood: 'do' | 'done' = 'do', targetSaid?: Said): string =>
  JSON.stringify({ tool, args, targetLabel, ...(mood === 'done' && { mood }), ...(targetSaid && { targetSaid }) });

/** An action a message carries as a `…Call` value (see `actionCall`), worded in the reader's language. */
function callWords(call: string, words: Words): string {
  const { tool, args, targetLabel, mood, targetSaid } = JSON.parse(call) as { tool: string; args: Record<string, unknown>; targetLabel?: string; mood?: 'done'; targetSaid?: unknown };
  const described = SaidSchema.safeParse(targetSaid);
  const target = described.success ? { described: wordSaid(targetLabel ?? '', described.data, words) } : targetLabel === undefined ? undefined : (nameInLabel(targetLabel) ?? targetLabel);
  return actionPhrase(tool, args, target, mood ?? 'do', words);
}

/** A message with each `…Call` value worded as an action into the value without the suffix, at every depth of its `…Said` lists. */
function withCallsWorded(said: Said, words: Words): Said {
  const values: SaidValues = {};
  for (const [name, value] of Object.entries(said.values)) {
    if (name.endsWith('Call') && typeof value === 'string') values[name.slice(0, -'Call'.length)] = callWords(value, words);
    else if (name.endsWith('Said') && typeof value === 'string') values[name] = nestedCallsWorded(value, words);
    else values[name] = value;
  }
  return { code: said.code, values };
}

/** A `…Said` value's messages with their calls worded; a value that is no such list stays as it is. */
function nestedCallsWorded(json: string, words: Words): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return json;
  }
  const list = z.array(SaidSchema).safeParse(parsed);
  return list.success ? saidList(list.data.map((said) => withCallsWorded(said, words))) : json;
}

/**
 * A message in the reader's language (a guard's, a task's failure reason, a flow step's): its code, with each
 * `…Call` value (`actionCall`, `firstCall`) worded as an action into the value without the suffix (`action`,
 * `first`), in its nested messages too; the English it was recorded with when it has no code this build knows.
 */
export function saidWords(english: string, said: Said | null | undefined, words: Words = ENGLISH): string {
  if (!said) return english;
  try {
    return wordSaid(english, withCallsWorded(said, words), words);
  } catch {
    return english;
  }
}

/** A message whose values may hold actions (`…Call`) and nested messages (`…Said`): its English text and its code. */
export const sayActions = (code: SaidCode, values: SaidValues = {}): Saying => ({ text: saidWords('', { code, values }), said: { code, values } });

/** A guard's message in the reader's language. */
export const guardMessage = (entry: { message: string; said?: Said | undefined }, words: Words = ENGLISH): string => saidWords(entry.message, entry.said, words);

export function requestWords(request: PersonRequest, words: Words = ENGLISH): string {
  const { t } = words;
  switch (request.kind) {
    case 'question':
      return t('common:request.question', { question: request.question });
    case 'confirmation':
      return t('common:request.confirmation', {
        action: lowerFirst(actionWords(request.tool, request.args, request.target?.label, words)),
        reasons: confirmationReasons(request, words),
      });
    case 'hand-over':
      return t('common:request.hand-over', { reason: request.reason });
    case 'loop':
      return t('common:request.loop', { description: loopDescription(request, words) });
  }
}

export function replyWords(reply: PersonReply, words: Words = ENGLISH): string {
  const { t } = words;
  switch (reply.kind) {
    case 'answer':
      return t('common:reply.answer', { text: reply.text });
    case 'allow':
      return t(reply.scope === 'task' ? 'common:reply.allowTask' : 'common:reply.allow');
    case 'deny':
      return t('common:reply.deny');
    case 'continue':
      return reply.note ? t('common:reply.continueNote', { note: reply.note }) : t('common:reply.continue');
    case 'stop':
      return t('common:reply.stop');
    case 'unanswered':
      return t('common:reply.unanswered', { reason: reply.reasonSaid ? saidWords(reply.reason, reply.reasonSaid, words) : unansweredWords(reply.reason, words) });
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
export function supervisionLines(log: readonly SupervisionEntry[], words: Words = ENGLISH): SupervisionLine[] {
  const { t } = words;
  return log.map((entry): SupervisionLine => {
    switch (entry.type) {
      case 'guard.decided':
        return {
          at: entry.at,
          step: entry.step,
          kind: 'guard',
          text: t('common:guard', { guard: t(`common:guardName.${entry.guard}`), decision: t(`common:guardDecision.${entry.decision}`), message: guardMessage(entry, words) }),
          by: deciderWords(entry.by, words),
        };
      case 'person.asked':
        return { at: entry.at, step: entry.step, kind: 'asked', text: requestWords(entry.request, words), by: null };
      case 'person.answered':
        return { at: entry.at, step: entry.step, kind: 'answered', text: replyWords(entry.reply, words), by: deciderWords(entry.by, words) };
      case 'task.resumed':
        return { at: entry.at, step: entry.step, kind: 'note', text: t('common:resumed', { note: entry.note ?? '' }), by: deciderWords('person', words) };
    }
  });
}

/** A failed step's error in the reader's language: by its code, else the runtime's words without an error's class name. */
export function stepErrorWords(outcome: Pick<StepOutcome, 'error' | 'errorSaid'>, words: Words = ENGLISH): string | null {
  return outcome.error === undefined ? null : saidWords(plainReason(outcome.error), outcome.errorSaid, words);
}

/**
 * A failed step's error for a surface whose English is the runtime's own text (`amc act`, MCP results): that text for
 * an English reader, worded from its code for any other.
 */
export function stepErrorFor(outcome: Pick<StepOutcome, 'error' | 'errorSaid'>, words: Words): string | null {
  if (outcome.error === undefined) return null;
  return words.language === 'en' ? plainReason(outcome.error) : stepErrorWords(outcome, words);
}
