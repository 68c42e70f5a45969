import { formatUsd } from './prices';
import type { Verification } from './action';
import type { PlannerInfo, TaskStatus } from './task';
import type { StepSource } from './flow';

/**
 * The words every surface (timeline, History, the HTML report, `amc run`) uses for how a task ended and how much
 * it did, so the app and its exports never word the same thing two ways.
 */

/** How a finished task is shown: a status word, plus "looked only" for the built-in planner that acts on nothing. */
export type TaskOutcomeKind = 'pending' | 'running' | 'done' | 'looked-only' | 'failed' | 'stopped';

/** Lower case, as in a table cell or a sentence; `capitalized` for a heading. */
export const OUTCOME_WORDS: Record<TaskOutcomeKind, string> = {
  pending: 'pending',
  running: 'running',
  done: 'done',
  'looked-only': 'looked only',
  failed: 'failed',
  stopped: 'stopped',
};

export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** What a task run by the built-in planner did: it never acts, so "done" would claim what did not happen. */
export const LOOKED_ONLY_NOTE = 'Looked at the screen only — the AI planner is off';
export const LOOKED_ONLY_HINT = 'The built-in planner describes the screen and stops; it carries out no goal. Turn on the AI planner in Settings to let a model act.';

/** A completed task whose planner was the built-in one only looked; the record keeps "completed" (the seed's stub behaviour). */
export function taskOutcomeKind(task: { status: TaskStatus; planner: Pick<PlannerInfo, 'kind'> }): TaskOutcomeKind {
  switch (task.status) {
    case 'completed':
      return task.planner.kind === 'stub' ? 'looked-only' : 'done';
    case 'cancelled':
      return 'stopped';
    default:
      return task.status;
  }
}

/**
 * How a finished task ended, for whoever acts on it without reading it (a script's exit code, an agent's MCP
 * status): only "done" carried the goal out with nothing against it. "not-verified" claimed success with no action
 * taken; "looked-only" is the built-in planner, which carries nothing out.
 */
export type FinishedOutcome = 'done' | 'not-verified' | 'looked-only' | 'failed' | 'stopped';

export function finishedOutcome(task: {
  status: TaskStatus;
  planner: Pick<PlannerInfo, 'kind'>;
  verification?: Verification | null | undefined;
}): FinishedOutcome {
  switch (task.status) {
    case 'completed':
      if (task.planner.kind === 'stub') return 'looked-only';
      return task.verification?.status === 'not-verified' ? 'not-verified' : 'done';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'stopped';
    default:
      throw new Error(`the task has not finished yet (${task.status})`);
  }
}

export function taskOutcomeWord(task: { status: TaskStatus; planner: Pick<PlannerInfo, 'kind'> }): string {
  return OUTCOME_WORDS[taskOutcomeKind(task)];
}

/** A whole number in the reader's locale ("74,611" in en-US); `locale` undefined means the runtime's default. */
export function formatCount(value: number, locale?: string): string {
  return Math.round(value).toLocaleString(locale);
}

/**
 * A duration as every surface shows it: "850 ms", "1.5 s", "12 s", "2 min 5 s", with the numbers in the reader's
 * locale ("1,5 s" in de-DE); "—" when unknown.
 */
export function formatDuration(ms: number | null | undefined, locale?: string): string {
  if (ms == null) return '—';
  if (ms < 1000) return `${formatCount(ms, locale)} ms`;
  const seconds = ms / 1000;
  if (seconds < 59.5) return `${seconds.toLocaleString(locale, { maximumFractionDigits: seconds < 10 ? 1 : 0 })} s`;
  const whole = Math.round(seconds);
  return `${formatCount(Math.floor(whole / 60), locale)} min ${formatCount(whole % 60, locale)} s`;
}

export function countOf(count: number, noun: string, locale?: string): string {
  return `${formatCount(count, locale)} ${noun}${count === 1 ? '' : 's'}`;
}

/** "3 actions in 4 turns": turns are the planner's decisions, actions the ones that ran on the phone or looked. */
export function stepCountsLabel(actions: number, turns: number, locale?: string): string {
  return `${countOf(actions, 'action', locale)} in ${countOf(turns, 'turn', locale)}`;
}

/** "13,140 tokens in · 120 out": what the model read and wrote. */
export function tokensLabel(usage: { inputTokens: number; outputTokens: number }, locale?: string): string {
  return `${formatCount(usage.inputTokens, locale)} tokens in · ${formatCount(usage.outputTokens, locale)} out`;
}

/**
 * A task's cost in words: the amount from the price table, "unknown (the model is not in the price table)" once a
 * call was made to a model without a price, and null before any call (nothing to price yet).
 */
export function costWords(task: { costUsd: number | null; usage: { inputTokens: number; outputTokens: number } }, locale?: string): string | null {
  if (task.costUsd !== null) return formatUsd(task.costUsd, locale);
  return task.usage.inputTokens + task.usage.outputTokens > 0 ? 'unknown (the model is not in the price table)' : null;
}

/** Which planner ran a task: "built-in planner (no AI)", or "AI planner · anthropic · claude-sonnet-4-6 · via direct". */
export function plannerWords(planner: Pick<PlannerInfo, 'kind' | 'provider' | 'model' | 'transport'>): string {
  if (planner.kind === 'stub') return 'built-in planner (no AI)';
  const ai = ['AI planner', planner.provider, planner.model, planner.transport && `via ${planner.transport}`].filter(Boolean).join(' · ');
  if (planner.kind === 'replay') return usesModel(planner) ? `replay of a recorded run; where the screen differs: ${ai}` : 'replay of a recorded run (no AI)';
  return ai;
}

/** Whether a task's planner may call a model (an AI planner, or a replay with one to take over). */
export function usesModel(planner: Pick<PlannerInfo, 'kind' | 'provider' | 'model' | 'transport'>): boolean {
  return planner.kind === 'ai' || (planner.kind === 'replay' && Boolean(planner.provider ?? planner.model ?? planner.transport));
}

/** How the timeline and the terminal mark where a turn's step came from. */
const STEP_SOURCE_WORDS: Record<StepSource, string> = {
  model: 'planned by the model',
  replayed: 'replayed',
  cache: 'from the cache',
  skipped: 'skipped: already done',
};
export const stepSourceWords = (source: StepSource): string => STEP_SOURCE_WORDS[source];
