import { create } from 'zustand';
import type { Recording } from '../../../shared/recording';

/** Each phone's recording as main last said (main keeps it; the window shows it and sends edits). */
export interface RecordingState {
  bySerial: Record<string, Recording | null>;
  set(serial: string, recording: Recording | null): void;
}

export const useRecordingStore = create<RecordingState>()((set) => ({
  bySerial: {},
  set: (serial, recording) => set((state) => ({ bySerial: { ...state.bySerial, [serial]: recording } })),
}));

export const recordingOf = (serial: string | null | undefined) => (state: RecordingState) => (serial ? (state.bySerial[serial] ?? null) : null);
