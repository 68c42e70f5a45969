import { attemptsLabel, type StepOutcome } from '../shared/action';
import type { PlannerInfo, TaskEventOf } from '../shared/task';
import { countOf, formatDuration, lookedOnlyNote, tokensLabel } from '../shared/task-words';
import { finishedVerdict } from '../shared/verdict';
import { failureWordsOf } from '../shared/task-failure';
import { ENGLISH, type Words } from '../shared/i18n/translate';
import { wordSaid } from '../shared/said';
import { saidWords, stepErrorWords } from '../shared/supervision-words';

/** `amc run`'s words for a turn's outcome and the task's end: the app's vocabulary (see shared/task-words), in the terminal's language. */

export function outcomeLine(outcome: StepOutcome, words: Words = ENGLISH): string {
  const { t } = words;
  const details = [attemptsLabel(outcome, words), outcome.ok ? formatDuration(outcome.durationMs, undefined, words) : null].filter(Boolean).join(t('common:listSeparator'));
  if (outcome.ok) return `    -> ${outcome.target?.label ? t('cli:run.okOn', { target: outcome.target.label }) : t('cli:run.ok')} (${details})`;
  return `    -> ${t('cli:run.error', { reason: stepErrorWords(outcome, words) ?? t('cli:run.unknownReason') })}${details ? ` (${details})` : ''}`;
}

export function finishedLine(event: TaskEventOf<'task.finished'>, planner: Pick<PlannerInfo, 'kind'>, words: Words = ENGLISH): string {
  const { t } = words;
  const totals = [countOf(event.steps, 'action', undefined, words), formatDuration(event.durationMs, undefined, words), tokensLabel(event.usage, undefined, words)].join(t('common:listSeparator'));
  const reason = () => {
    const failed = event.failureReason ? failureWordsOf(event) : null;
    return failed !== null ? saidWords(failed, event.failureSaid, words) : null;
  };
  // A result the app wrote (a flow's end) in the terminal's language; the model's as it said it.
  const result = event.result === null ? null : saidWords(event.result, event.resultSaid, words);
  switch (finishedVerdict({ ...event, planner })) {
    case 'looked-only':
      return t('cli:run.lookedOnly', { note: lookedOnlyNote(words), totals });
    case 'done':
      return result ? t('cli:run.doneResult', { totals, result }) : t('cli:run.done', { totals });
    case 'done-not-verified': {
      const fact = event.verification ? wordSaid(event.verification.fact, event.verification.said, words) : '';
      return result ? t('cli:run.notVerifiedResult', { fact, totals, result }) : t('cli:run.notVerified', { fact, totals });
    }
    case 'failed':
      return t('cli:run.failed', { totals, reason: reason() ?? t('cli:run.unknownReason') });
    case 'stopped': {
      const why = reason();
      return why ? t('cli:run.stoppedReason', { totals, reason: why }) : t('cli:run.stopped', { totals });
    }
    case 'interrupted':
      return t('cli:run.interrupted', { totals, reason: reason() ?? t('cli:run.unknownReason') });
  }
}
