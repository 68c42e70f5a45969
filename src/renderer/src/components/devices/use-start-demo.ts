import { useState } from 'react';
import { useBridge } from '../../bridge-context';
import { plainError } from '../../lib/errors';
import { useDevicesStore } from '../../store/devices-store';

/**
 * Starts a demo phone ("another" once one is listed) and selects it; `starting` while main brings it up, and a
 * message saying what happened either way.
 */
export function useStartDemo() {
  const bridge = useBridge();
  const [starting, setStarting] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const demoListed = useDevicesStore((s) => s.list?.devices.some((device) => device.name !== undefined) ?? false);
  const startDemo = async () => {
    setStarting(true);
    setMessage(null);
    try {
      const demo = await bridge.call('devices.startDemo', demoListed ? { another: true } : {});
      useDevicesStore.getState().select(demo.serial);
      setMessage({ ok: true, text: demo.alreadyRunning ? `${demo.name} is already running; it is selected.` : `${demo.name} started.` });
    } catch (error) {
      setMessage({ ok: false, text: plainError(error) });
    } finally {
      setStarting(false);
    }
  };
  return { startDemo, starting, message, label: demoListed ? 'Start another demo phone' : 'Start demo phone' };
}
