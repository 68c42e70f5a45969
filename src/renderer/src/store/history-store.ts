import { create } from 'zustand';
import type { TaskSummary } from '../../../shared/contract';
import type { TaskRecord } from '../../../shared/task';

export interface HistoryState {
  tasks: TaskSummary[] | null;
  /** The past task opened to read its timeline. */
  opened: TaskRecord | null;
  setTasks(tasks: TaskSummary[]): void;
  open(record: TaskRecord | null): void;
}

export const useHistoryStore = create<HistoryState>()((set) => ({
  tasks: null,
  opened: null,
  setTasks: (tasks) =>
    set((state) => ({ tasks, opened: state.opened && tasks.some((t) => t.id === state.opened?.id) ? state.opened : null })),
  open: (opened) => set({ opened }),
}));
