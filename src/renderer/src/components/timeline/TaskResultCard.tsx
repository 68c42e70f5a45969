import { actionCount, turnCount } from '../../../../shared/turns';
import type { TaskRecord } from '../../../../shared/task';
import { capitalized, formatDuration, lookedOnlyHint, outcomeWord, stepCountsLabel } from '../../../../shared/task-words';
import { taskVerdict, type TaskVerdict } from '../../../../shared/verdict';
import type { Words } from '../../../../shared/i18n/translate';
import { failureWordsOf } from '../../../../shared/task-failure';
import { wordSaid } from '../../../../shared/said';
import { saidWords } from '../../../../shared/supervision-words';
import { useWords } from '../../i18n/use-words';
import { formatTokens } from '../../lib/format';
import { useAppStore } from '../../store/app-store';
import { ReasonDetails } from './ReasonDetails';
import { MarkWrongButton } from '../notes/MarkWrongButton';
import { replayable } from '../history/use-run-again';
import { ReplayButton } from './ReplayButton';

/** The closing card of a finished task: its result or why it did not get there, in plain words. */
export function TaskResultCard({ task }: { task: TaskRecord }) {
  const openSettings = useAppStore((s) => s.toggleSettings);
  const words = useWords();
  const { t } = words;
  const kind = taskVerdict(task);
  if (!kind) return null;
  const turns = turnCount(task);
  const actions = actionCount(task);
  const heading = kind === 'looked-only' ? t('app:result.lookedOnly') : capitalized(outcomeWord(kind, words));
  return (
    <article className={`result-card verdict-${kind}`} data-testid="task-result" data-outcome={kind} aria-labelledby="task-result-title">
      <h3 id="task-result-title">{heading}</h3>
      <p data-testid="task-result-text">{resultText(task, kind, words)}</p>
      {kind === 'looked-only' && (
        <button type="button" className="button secondary" onClick={() => openSettings(true)}>
          {t('app:common.openSettings')}
        </button>
      )}
      {task.failureReason && <ReasonDetails task={task} />}
      <p className="muted" data-testid="task-result-summary">
        {stepCountsLabel(actions, turns, undefined, words)} · {formatDuration(task.timings.totalMs, undefined, words)} · {formatTokens(task.usage, words)}
      </p>
      {/* One row: a run that acted can be run again without the model; one that reached its goal may have taught
          notes per app, which the person can take back. */}
      <div className="result-actions">
        {replayable(task, actions) && <ReplayButton task={task} />}
        {kind === 'done' && <MarkWrongButton key={task.id} taskId={task.id} />}
      </div>
    </article>
  );
}

/** The card's first line: what the verdict rests on (why not verified, why it failed, who stopped it). */
function resultText(task: TaskRecord, kind: TaskVerdict, words: Words): string {
  const { t } = words;
  const failed = task.failureReason ? failureWordsOf(task) : null;
  const reason = failed !== null ? saidWords(failed, task.failureSaid, words) : null;
  // A result the app wrote (a flow's end) in the window's language; the model's as it said it.
  const result = task.result === null ? null : saidWords(task.result, task.resultSaid, words);
  switch (kind) {
    case 'looked-only':
      return t('app:result.plannerOff', { hint: lookedOnlyHint(words) });
    case 'done':
      return result ?? t('app:result.reached');
    case 'done-not-verified': {
      const fact = capitalized(task.verification ? wordSaid(task.verification.fact, task.verification.said, words) : t('app:result.unknownFailure'));
      return result ? t('app:result.notVerified', { fact, said: result }) : fact;
    }
    case 'stopped':
      return reason ?? t('app:result.stopped');
    case 'failed':
    case 'interrupted':
      return reason ?? t('app:result.unknownFailure');
  }
}
