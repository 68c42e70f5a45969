import { turnTotals } from '../../../../shared/action-words';
import type { TaskRecord } from '../../../../shared/task';
import { capitalized, formatDuration, lookedOnlyHint, outcomeWord, stepCountsLabel, taskOutcomeKind } from '../../../../shared/task-words';
import { plainReason } from '../../../../shared/plain-words';
import { wordSaid } from '../../../../shared/said';
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
  if (task.status !== 'completed' && task.status !== 'failed' && task.status !== 'cancelled') return null;
  const kind = taskOutcomeKind(task);
  const { turns, actions } = turnTotals(task);
  const heading = kind === 'looked-only' ? t('app:result.lookedOnly') : capitalized(outcomeWord(kind, words));
  const text =
    kind === 'looked-only'
      ? t('app:result.plannerOff', { hint: lookedOnlyHint(words) })
      : task.status === 'completed'
        ? (task.result ?? t('app:result.reached'))
        : task.failureReason
          ? wordSaid(plainReason(task.failureReason), task.failureSaid, words)
          : task.status === 'cancelled'
            ? t('app:result.stopped')
            : t('app:result.unknownFailure');
  return (
    <article className={`result-card status-${kind === 'looked-only' ? 'neutral' : task.status}`} data-testid="task-result" data-outcome={kind} aria-labelledby="task-result-title">
      <h3 id="task-result-title">{heading}</h3>
      <p data-testid="task-result-text">{text}</p>
      {kind === 'looked-only' && (
        <button type="button" className="button secondary" onClick={() => openSettings(true)}>
          {t('app:common.openSettings')}
        </button>
      )}
      {task.failureReason && <ReasonDetails reason={task.failureReason} />}
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
