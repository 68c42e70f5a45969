import { create } from 'zustand';
import { handsPhoneOver, type PendingRequest } from '../../../shared/contract';

/** What each running task waits on a person for, as main holds it (one request per task at most). */
export interface SupervisionState {
  byTask: Record<string, PendingRequest>;
  /** Replaces everything with main's list (at load and after a reconnect: a reloaded window shows them again). */
  setAll(requests: PendingRequest[]): void;
  /** One task's request arrived or went away (answered, withdrawn, task ended). */
  set(taskId: string, request: PendingRequest | null): void;
}

export const useSupervisionStore = create<SupervisionState>()((set, get) => ({
  byTask: {},
  setAll: (requests) => set({ byTask: Object.fromEntries(requests.map((request) => [request.taskId, request])) }),
  set: (taskId, request) => {
    const { [taskId]: _previous, ...others } = get().byTask;
    set({ byTask: request ? { ...others, [taskId]: request } : others });
  },
}));

/** Whether this task waits for the person to use the phone (the mirror then takes their input). */
export const personHoldsPhone = (taskId: string | undefined) => (state: SupervisionState): boolean =>
  handsPhoneOver(taskId ? state.byTask[taskId] : undefined);
