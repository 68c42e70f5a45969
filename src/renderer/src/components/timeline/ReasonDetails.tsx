import { plainReason, withoutClassName } from '../../../../shared/plain-words';
import { useWords } from '../../i18n/use-words';


/**
 * The reason exactly as recorded (provider wording, a stack trace, a page), for a bug report; only when it says
 * more than the plain words — an error class's name in front is not more.
 */
export function ReasonDetails({ reason }: { reason: string }) {
  const { t } = useWords();
  if (plainReason(reason) === withoutClassName(reason.trim())) return null;
  return (
    <details className="reason-details" data-testid="reason-details">
      <summary>{t('app:common.details')}</summary>
      <pre>{reason}</pre>
    </details>
  );
}
