import { useState } from 'react';
import type { ConnectionReport } from '../../../../shared/connection-report';
import { useBridge } from '../../bridge-context';
import { plainError } from '../../lib/errors';
import { useSettingsStore } from '../../store/settings-store';

/**
 * One tiny real request with the saved settings for the chosen provider and transport; the answer in plain words.
 * Unsaved edits are not tested (the button says so), so what passes here is what the next task uses.
 */
export function TestConnection({ unsaved }: { unsaved: boolean }) {
  const bridge = useBridge();
  const [testing, setTesting] = useState(false);
  const report = useSettingsStore((s) => s.lastConnectionTest);
  const setReport = useSettingsStore((s) => s.setConnectionTest);
  const test = async () => {
    setTesting(true);
    try {
      setReport(await bridge.call('settings.testConnection', {}));
    } catch (error) {
      setReport({ result: 'failed', message: plainError(error), model: null, latencyMs: null, target: 'the AI planner' } satisfies ConnectionReport);
    } finally {
      setTesting(false);
    }
  };
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
