import { useState } from 'react';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { plainError } from '../../lib/errors';
import { useDevicesStore } from '../../store/devices-store';

/**
 * Starts a demo phone ("another" once one is listed) and selects it; `starting` while main brings it up, and a
 * message saying what happened either way.
 */
export function useStartDemo() {
  const bridge = useBridge();
  const [starting, setStarting] = useState(false);
  const { t } = useWords();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const demoListed = useDevicesStore((s) => s.list?.devices.some((device) => device.name !== undefined) ?? false);
  const startDemo = async () => {
    setStarting(true);
    setMessage(null);
    try {
      const demo = await bridge.call('devices.startDemo', demoListed ? { another: true } : {});
      useDevicesStore.getState().select(demo.serial);
      setMessage({ ok: true, text: t(demo.alreadyRunning ? 'app:devices.demoRunning' : 'app:devices.demoStarted', { name: demo.name }) });
    } catch (error) {
      setMessage({ ok: false, text: plainError(error) });
    } finally {
      setStarting(false);
    }
  };
  return { startDemo, starting, message, label: t(demoListed ? 'app:devices.startAnotherDemo' : 'app:devices.startDemo') };
}
