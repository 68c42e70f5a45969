import { useEffect } from 'react';
import { useBridge } from '../../bridge-context';
import { useAppStore } from '../../store/app-store';
import { useConfirmStore } from '../../store/confirm-store';
import { selectedDevice, useDevicesStore } from '../../store/devices-store';
import { closeInspect, inspect, useInspectStore } from '../../store/inspect-store';
import { isTypingTarget } from '../task/ShortcutsHelp';
import { INSPECT_KEY } from './InspectToggle';

/** The Inspect key, anywhere on the page but in a text field or under a dialog: Inspect on the selected phone, or off. */
export function useInspectShortcut(): void {
  const bridge = useBridge();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.key.toLowerCase() !== INSPECT_KEY) return;
      if (isTypingTarget(event.target) || useAppStore.getState().settingsOpen || useConfirmStore.getState().request !== null || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      if (useInspectStore.getState().target) {
        closeInspect();
        return;
      }
      const device = selectedDevice(useDevicesStore.getState());
      if (device?.state === 'device') void inspect(bridge, { kind: 'phone', serial: device.serial });
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [bridge]);
}
