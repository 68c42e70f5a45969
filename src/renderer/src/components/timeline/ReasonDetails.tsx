import { failureWordsOf, type FailureFacts } from '../../../../shared/task-failure';
import { useWords } from '../../i18n/use-words';

/**
 * The reason exactly as recorded (provider wording, a stack trace, a page), for a bug report; only when it says
 * more than the plain words — an error class's name in front is not more.
 */
export function ReasonDetails({ task }: { task: FailureFacts }) {
  const { t } = useWords();
  const recorded = task.failure?.message ?? task.failureReason;
  if (recorded === null || failureWordsOf(task) === recorded.trim()) return null;
  return (
    <details className="reason-details" data-testid="reason-details">
      <summary>{t('app:common.details')}</summary>
      <pre>{task.failureReason}</pre>
    </details>
  );
}
