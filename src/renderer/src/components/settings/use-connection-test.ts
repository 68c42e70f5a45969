import { useState } from 'react';
import type { ConnectionReport } from '../../../../shared/connection-report';
import type { Provider, Transport } from '../../../../shared/settings';
import { useBridge } from '../../bridge-context';
import { plainError } from '../../lib/errors';
import { unsavedSettings, useSettingsStore } from '../../store/settings-store';

/** Which provider and transport to test; absent parts are the saved settings' own. */
export interface ConnectionTarget {
  provider?: Provider;
  transport?: Transport;
}

/** Whether a test of `target` tests what the next task uses (so the checklist may count it). */
function testsWhatRuns(target: ConnectionTarget, effective: { provider: Provider; transport: Transport } | undefined): boolean {
  if (!effective) return false;
  const transport = target.transport ?? effective.transport;
  if (transport !== effective.transport) return false;
  return transport === 'cloud-proxy' || (target.provider ?? effective.provider) === effective.provider;
}

/**
 * Runs "Test connection" for one provider/transport with the settings as the form shows them: the saved ones with
 * any unsaved changes (typed keys too) on top. The answer stays with the button that asked; a test of what the next
 * task uses (saved settings only) is also kept where the first-run checklist reads it.
 */
export function useConnectionTest(target: ConnectionTarget = {}): {
  testing: boolean;
  /** Whether a test now would include unsaved changes. */
  unsaved: boolean;
  report: ConnectionReport | null;
  test(): Promise<void>;
} {
  const bridge = useBridge();
  const [testing, setTesting] = useState(false);
  const [own, setOwn] = useState<ConnectionReport | null>(null);
  const effective = useSettingsStore((s) => s.screen?.effective.aiPlanner);
  const remembered = useSettingsStore((s) => s.lastConnectionTest);
  const setRemembered = useSettingsStore((s) => s.setConnectionTest);
  const unsaved = useSettingsStore((s) => unsavedSettings(s).changed > 0);
  const current = testsWhatRuns(target, effective) && !unsaved;
  const test = async () => {
    setTesting(true);
    let report: ConnectionReport;
    try {
      const { patch, secrets } = unsavedSettings(useSettingsStore.getState());
      report = await bridge.call('settings.testConnection', { ...target, ...(unsaved && { unsaved: { patch, secrets } }) });
    } catch (error) {
      report = { result: 'failed', message: plainError(error), model: null, latencyMs: null, target: 'the AI planner' };
    } finally {
      setTesting(false);
    }
    setOwn(report);
    if (current) setRemembered(report);
  };
  return { testing, unsaved, report: own ?? (current ? remembered : null), test };
}
