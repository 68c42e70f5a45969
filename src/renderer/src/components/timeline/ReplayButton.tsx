import type { TaskRecord } from '../../../../shared/task';
import { useWords } from '../../i18n/use-words';
import { REPLAY_FIX_WORDS, REPLAY_WORDS, useRunAgain } from '../history/use-run-again';

/**
 * "Run again without the model" (which never calls it) and, apart, "Run again, let the model fix differences" on a
 * finished task's result card, and what stopped either when it could not start.
 */
export function ReplayButton({ task }: { task: TaskRecord }) {
  const { replay, notice } = useRunAgain();
  const { t } = useWords();
  return (
    <>
      <button type="button" className="button secondary" onClick={() => void replay(task)} data-testid="replay-task">
        {t(REPLAY_WORDS)}
      </button>
      <button type="button" className="button secondary" onClick={() => void replay(task, true)} data-testid="replay-task-fix" title={t('app:history.replayFixTitle')}>
        {t(REPLAY_FIX_WORDS)}
      </button>
      {notice && (
        <p className="banner warning result-notice" role="status" data-testid="replay-notice">
          {notice}
        </p>
      )}
    </>
  );
}
