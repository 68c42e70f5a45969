import { create } from 'zustand';
import type { AppInfo, Heartbeat } from '../../../shared/contract';

export interface AppState {
  info: AppInfo | null;
  connected: boolean;
  lastHeartbeat: Heartbeat | null;
  /** Round-trip time of the last ping, proving requests reach main and come back validated. */
  pingMs: number | null;
  error: string | null;
  settingsOpen: boolean;
  setInfo(info: AppInfo): void;
  setConnected(connected: boolean): void;
  recordHeartbeat(heartbeat: Heartbeat): void;
  setPing(ms: number): void;
  setError(error: string | null): void;
  toggleSettings(open?: boolean): void;
}

export const useAppStore = create<AppState>()((set) => ({
  info: null,
  connected: false,
  lastHeartbeat: null,
  pingMs: null,
  error: null,
  settingsOpen: false,
  setInfo: (info) => set({ info }),
  setConnected: (connected) => set({ connected }),
  recordHeartbeat: (lastHeartbeat) => set({ lastHeartbeat }),
  setPing: (pingMs) => set({ pingMs }),
  setError: (error) => set({ error }),
  toggleSettings: (open) => set((state) => ({ settingsOpen: open ?? !state.settingsOpen })),
}));
