import { useEffect } from 'react';
import { useBridge } from '../../bridge-context';
import { reportError } from '../../store/app-store';
import { recordingOf, useRecordingStore } from '../../store/recording-store';

/** The phone's recording, kept in step with main's `record.changed` while the component shows it. */
export function useRecording(serial: string | null | undefined) {
  const bridge = useBridge();
  const recording = useRecordingStore(recordingOf(serial));
  useEffect(() => {
    if (!serial) return;
    const { set } = useRecordingStore.getState();
    bridge
      .call('record.status', { serial })
      .then(({ recording: now }) => set(serial, now))
      .catch(reportError);
    return bridge.on('record.changed', (change) => set(change.serial, change.recording));
  }, [bridge, serial]);
  return recording;
}
