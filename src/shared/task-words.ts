import { formatUsd } from './prices';
import { ENGLISH, type Words } from './i18n/translate';
import type { PlannerInfo } from './task';
import { taskVerdict, type TaskVerdict, type VerdictInput } from './verdict';
import type { StepSource } from './flow';

/**
 * The words every surface (timeline, History, the HTML report, `amc run`) uses for how a task ended and how much
 * it did, so the app and its exports never word the same thing two ways. The messages are in the catalogs
 * (src/shared/i18n, area `common`); each function words in English unless given another language's `words`.
 */

/** How a task is shown: before its end, pending or running; after it, its verdict (shared/verdict.ts). */
export type TaskOutcomeKind = 'pending' | 'running' | TaskVerdict;

/** Lower case, as in a table cell or a sentence; `capitalized` for a heading. */
export const outcomeWord = (kind: TaskOutcomeKind, words: Words = ENGLISH): string => words.t(`common:outcome.${kind}`);

export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** What a task run by the built-in planner did: it never acts, so "done" would claim what did not happen. */
export const lookedOnlyNote = (words: Words = ENGLISH): string => words.t('common:lookedOnly.note');
export const lookedOnlyHint = (words: Words = ENGLISH): string => words.t('common:lookedOnly.hint');

/** A task's verdict, or (before its end) whether it is pending or running. */
export function taskOutcomeKind(task: VerdictInput): TaskOutcomeKind {
  return taskVerdict(task) ?? (task.status === 'pending' ? 'pending' : 'running');
}

export function taskOutcomeWord(task: VerdictInput, words: Words = ENGLISH): string {
  return outcomeWord(taskOutcomeKind(task), words);
}

/** A whole number in the reader's locale ("74,611" in en-US); `locale` undefined means the runtime's default. */
export function formatCount(value: number, locale?: string): string {
  return Math.round(value).toLocaleString(locale);
}

/**
 * A duration as every surface shows it: "850 ms", "1.5 s", "12 s", "2 min 5 s", with the numbers in the reader's
 * locale ("1,5 s" in de-DE); "—" when unknown. `words` gives the units' language (its locale when it has one).
 */
export function formatDuration(ms: number | null | undefined, locale?: string, words: Words = ENGLISH): string {
  const { t } = words;
  const at = words.locale ?? locale;
  if (ms == null) return t('common:unknown');
  if (ms < 1000) return t('common:duration.ms', { value: formatCount(ms, at) });
  const seconds = ms / 1000;
  if (seconds < 59.5) return t('common:duration.s', { value: seconds.toLocaleString(at, { maximumFractionDigits: seconds < 10 ? 1 : 0 }) });
  const whole = Math.round(seconds);
  return t('common:duration.min', { minutes: formatCount(Math.floor(whole / 60), at), seconds: formatCount(whole % 60, at) });
}

/** "3 actions", "1 turn". */
export function countOf(count: number, noun: 'action' | 'turn', locale?: string, words: Words = ENGLISH): string {
  return words.t(`common:count.${noun}`, { count, value: formatCount(count, words.locale ?? locale) });
}

/** "3 actions in 4 turns": turns are the planner's decisions, actions the ones that ran on the phone or looked. */
export function stepCountsLabel(actions: number, turns: number, locale?: string, words: Words = ENGLISH): string {
  return words.t('common:stepCounts', { actions: countOf(actions, 'action', locale, words), turns: countOf(turns, 'turn', locale, words) });
}

/** "13,140 tokens in · 120 out": what the model read and wrote. */
export function tokensLabel(usage: { inputTokens: number; outputTokens: number }, locale?: string, words: Words = ENGLISH): string {
  const at = words.locale ?? locale;
  return words.t('common:tokens', { input: formatCount(usage.inputTokens, at), output: formatCount(usage.outputTokens, at) });
}

/**
 * A task's cost in words: the amount from the price table, "unknown (the model is not in the price table)" once a
 * call was made to a model without a price, and null before any call (nothing to price yet).
 */
export function costWords(
  task: { costUsd: number | null; usage: { inputTokens: number; outputTokens: number } },
  locale?: string,
  words: Words = ENGLISH,
): string | null {
  if (task.costUsd !== null) return formatUsd(task.costUsd, words.locale ?? locale);
  return task.usage.inputTokens + task.usage.outputTokens > 0 ? words.t('common:costUnknown') : null;
}

/**
 * Which planner ran a task: "built-in planner (no AI)", or "AI planner · anthropic · claude-sonnet-4-6 · via direct" (how
 * the model is reached, in each language's own words: "直接调用模型服务商").
 */
export function plannerWords(planner: Pick<PlannerInfo, 'kind' | 'provider' | 'model' | 'transport'>, words: Words = ENGLISH): string {
  const { t } = words;
  if (planner.kind === 'stub') return t('common:planner.builtIn');
  const ai = [t('common:planner.ai'), planner.provider, planner.model, planner.transport && t(`common:planner.via.${planner.transport}`)].filter(Boolean).join(' · ');
  if (planner.kind === 'replay') return usesModel(planner) ? t('common:planner.replayWithModel', { ai }) : t('common:planner.replay');
  return ai;
}

/** Whether a task's planner may call a model (an AI planner, or a replay with one to take over). */
export function usesModel(planner: Pick<PlannerInfo, 'kind' | 'provider' | 'model' | 'transport'>): boolean {
  return planner.kind === 'ai' || (planner.kind === 'replay' && Boolean(planner.provider ?? planner.model ?? planner.transport));
}

/** How the timeline and the terminal mark where a turn's step came from. */
export const stepSourceWords = (source: StepSource, words: Words = ENGLISH): string => words.t(`common:stepSource.${source}`);
