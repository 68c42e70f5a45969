import { create } from 'zustand';
import type { DamagedHistoryFile, HistoryListing, TaskSummary } from '../../../shared/contract';
import type { TaskRecord } from '../../../shared/task';

export interface HistoryState {
  tasks: TaskSummary[] | null;
  /** History files that could not be read, each with what to do about it. */
  damaged: DamagedHistoryFile[];
  /** The past task opened to read its timeline. */
  opened: TaskRecord | null;
  setListing(listing: HistoryListing): void;
  open(record: TaskRecord | null): void;
}

export const useHistoryStore = create<HistoryState>()((set) => ({
  tasks: null,
  damaged: [],
  opened: null,
  setListing: ({ tasks, damaged }) =>
    set((state) => ({ tasks, damaged, opened: state.opened && tasks.some((t) => t.id === state.opened?.id) ? state.opened : null })),
  open: (opened) => set({ opened }),
}));
