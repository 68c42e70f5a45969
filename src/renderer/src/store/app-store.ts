import { create } from 'zustand';
import type { AppInfo, Heartbeat } from '../../../shared/contract';
import { plainError } from '../lib/errors';

export type MainView = 'task' | 'launch' | 'history' | 'fleet';

export interface AppState {
  info: AppInfo | null;
  connected: boolean;
  /** The transport reported a drop (or a failed first connect) and has not reconnected yet. */
  connectionLost: boolean;
  lastHeartbeat: Heartbeat | null;
  /** Round-trip time of the last ping, proving requests reach main and come back validated. */
  pingMs: number | null;
  /** The last failure a person should know about, in plain words (shown in a dismissible banner). */
  error: string | null;
  settingsOpen: boolean;
  view: MainView;
  setInfo(info: AppInfo): void;
  setConnected(connected: boolean): void;
  setConnectionLost(lost: boolean): void;
  recordHeartbeat(heartbeat: Heartbeat): void;
  setPing(ms: number): void;
  setError(error: string | null): void;
  /** Shows any thrown value (BridgeError, Error, string) as a plain sentence. */
  reportError(error: unknown): void;
  toggleSettings(open?: boolean): void;
  setView(view: MainView): void;
}

export const useAppStore = create<AppState>()((set) => ({
  info: null,
  connected: false,
  connectionLost: false,
  lastHeartbeat: null,
  pingMs: null,
  error: null,
  settingsOpen: false,
  view: 'task',
  setInfo: (info) => set({ info }),
  setConnected: (connected) => set({ connected }),
  setConnectionLost: (connectionLost) => set({ connectionLost }),
  recordHeartbeat: (lastHeartbeat) => set({ lastHeartbeat }),
  setPing: (pingMs) => set({ pingMs }),
  setError: (error) => set({ error }),
  reportError: (error) => set({ error: plainError(error) }),
  toggleSettings: (open) => set((state) => ({ settingsOpen: open ?? !state.settingsOpen })),
  setView: (view) => set({ view }),
}));

/** For event handlers outside React: report a failed bridge call without losing the promise's rejection. */
export const reportError = (error: unknown): void => useAppStore.getState().reportError(error);
