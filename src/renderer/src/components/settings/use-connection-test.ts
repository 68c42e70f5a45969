import { useState } from 'react';
import { useBridge } from '../../bridge-context';
import { plainError } from '../../lib/errors';
import { useSettingsStore } from '../../store/settings-store';

/** Runs "Test connection" with the saved settings and keeps the answer where Settings and the checklist read it. */
export function useConnectionTest(): { testing: boolean; test(): Promise<void> } {
  const bridge = useBridge();
  const [testing, setTesting] = useState(false);
  const setReport = useSettingsStore((s) => s.setConnectionTest);
  const test = async () => {
    setTesting(true);
    try {
      setReport(await bridge.call('settings.testConnection', {}));
    } catch (error) {
      setReport({ result: 'failed', message: plainError(error), model: null, latencyMs: null, target: 'the AI planner' });
    } finally {
      setTesting(false);
    }
  };
  return { testing, test };
}
