import { useSettingsStore } from '../../store/settings-store';
import { useConnectionTest } from './use-connection-test';

/**
 * One tiny real request with the saved settings for the chosen provider and transport; the answer in plain words.
 * Unsaved edits are not tested (the button says so), so what passes here is what the next task uses.
 */
export function TestConnection({ unsaved }: { unsaved: boolean }) {
  const report = useSettingsStore((s) => s.lastConnectionTest);
  const { testing, test } = useConnectionTest();
  return (
    <div className="test-connection" data-testid="test-connection">
      <button type="button" className="button secondary" onClick={() => void test()} disabled={testing || unsaved}>
        {testing ? 'Testing…' : 'Test connection'}
      </button>
      {unsaved && <span className="muted small"> Save first: the test uses the saved settings.</span>}
      {report && !testing && (
        <p className={`connection-result result-${report.result}`} role="status" data-testid="connection-result" data-result={report.result}>
          {report.result === 'ok' ? '✓ ' : '✗ '}
          {report.message}
        </p>
      )}
    </div>
  );
}
