import { useConnectionTest, type ConnectionTarget } from './use-connection-test';

/**
 * One tiny real request with the saved settings for one provider or transport (its section's fields); the answer in
 * plain words. Unsaved edits are not tested (the button says so), so what passes here is what the next task uses.
 */
export function TestConnection({ unsaved, target, name }: { unsaved: boolean; target: ConnectionTarget; name: string }) {
  const { testing, report, test } = useConnectionTest(target);
  return (
    <div className="test-connection" data-testid="test-connection" data-target={target.transport === 'cloud-proxy' ? 'cloud-proxy' : target.provider}>
      <button type="button" className="button secondary" onClick={() => void test()} disabled={testing || unsaved}>
        {testing ? `Testing ${name}…` : `Test connection to ${name}`}
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
