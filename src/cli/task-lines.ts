import { attemptsLabel, type StepOutcome } from '../shared/action';
import type { PlannerInfo, TaskEventOf } from '../shared/task';
import { countOf, finishedOutcome, formatDuration, lookedOnlyNote, tokensLabel } from '../shared/task-words';
import { plainReason } from '../shared/plain-words';

/** `amc run`'s words for a turn's outcome and the task's end: the app's vocabulary (see shared/task-words). */

export function outcomeLine(outcome: StepOutcome): string {
  const where = outcome.target?.label ? ` on ${outcome.target.label}` : '';
  const details = [attemptsLabel(outcome), outcome.ok ? formatDuration(outcome.durationMs) : null].filter(Boolean).join(', ');
  return outcome.ok ? `    -> ok${where} (${details})` : `    -> error: ${plainReason(outcome.error ?? 'unknown')}${details ? ` (${details})` : ''}`;
}

export function finishedLine(event: TaskEventOf<'task.finished'>, planner: Pick<PlannerInfo, 'kind'>): string {
  const totals = `${countOf(event.steps, 'action')}, ${formatDuration(event.durationMs)}, ${tokensLabel(event.usage)}`;
  switch (finishedOutcome({ ...event, planner })) {
    case 'looked-only':
      return `${lookedOnlyNote()} (${totals}). Turn it on in Settings (amc serve) or run with --planner ai.`;
    case 'done':
      return `Done (${totals})${event.result ? `: ${event.result}` : ''}`;
    case 'not-verified':
      return `Done, not verified: ${event.verification?.fact} (${totals})${event.result ? `. The model said: ${event.result}` : ''}`;
    case 'failed':
      return `Failed (${totals}): ${plainReason(event.failureReason ?? 'unknown reason')}`;
    case 'stopped':
      return `Stopped (${totals})${event.failureReason ? `: ${plainReason(event.failureReason)}` : '.'}`;
  }
}
