import { wordSaid } from '../../../../shared/said';
import { useWords } from '../../i18n/use-words';
import { useConnectionTest, type ConnectionTarget } from './use-connection-test';

/**
 * One tiny real request for one provider or transport (its section's fields) with the settings as the form shows
 * them; the answer in plain words. With unsaved changes the button says it tests them, not what the next task uses.
 */
export function TestConnection({ target, name }: { target: ConnectionTarget; name: string }) {
  const { testing, unsaved, report, test } = useConnectionTest(target);
  const words = useWords();
  const { t } = words;
  return (
    <div className="test-connection" data-testid="test-connection" data-target={target.transport === 'cloud-proxy' ? 'cloud-proxy' : target.provider}>
      <button type="button" className="button secondary" onClick={() => void test()} disabled={testing}>
        {testing ? t('app:settings.testing', { name }) : t('app:settings.testConnection', { name })}
      </button>
      {unsaved && <span className="muted small" data-testid="tests-unsaved">{t('app:settings.testsUnsaved')}</span>}
      {report && !testing && (
        <p className={`connection-result result-${report.result}`} role="status" data-testid="connection-result" data-result={report.result}>
          {report.result === 'ok' ? '✓ ' : '✗ '}
          {wordSaid(report.message, report.said, words)}
        </p>
      )}
    </div>
  );
}
