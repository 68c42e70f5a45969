import { useState } from 'react';
import { useBridge } from '../../bridge-context';
import { reportError } from '../../store/app-store';
import { useDevicesStore } from '../../store/devices-store';

/** Starts a demo phone and selects it; `starting` while main brings it up. */
export function useStartDemo(): { starting: boolean; startDemo(): Promise<void> } {
  const bridge = useBridge();
  const [starting, setStarting] = useState(false);
  const startDemo = async () => {
    setStarting(true);
    try {
      const { serial } = await bridge.call('devices.startDemo', {});
      useDevicesStore.getState().select(serial);
    } catch (error) {
      reportError(error);
    } finally {
      setStarting(false);
    }
  };
  return { starting, startDemo };
}
