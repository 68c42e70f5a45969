import { create } from 'zustand';
import type { LaunchStarted } from '../../../shared/contract';

/** The launch this window started last (one goal on several phones): its phones' rows as they started. */
export interface LaunchState {
  launch: LaunchStarted | null;
  /** The phones ticked for the next launch. */
  picked: string[];
  setLaunch(launch: LaunchStarted | null): void;
  setPicked(picked: string[]): void;
}

export const useLaunchStore = create<LaunchState>()((set) => ({
  launch: null,
  picked: [],
  setLaunch: (launch) => set({ launch }),
  setPicked: (picked) => set({ picked }),
}));
