import { create } from 'zustand';
import type { SchedulesOverview } from '../../../shared/schedule';

/** The local schedules and the runs missed while the app was closed, as main last reported them. */
export const useSchedulesStore = create<{ overview: SchedulesOverview | null; setOverview(overview: SchedulesOverview): void }>()((set) => ({
  overview: null,
  setOverview: (overview) => set({ overview }),
}));
