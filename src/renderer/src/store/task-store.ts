import { create } from 'zustand';
import type { CurrentTask } from '../../../shared/contract';
import { applyTaskEvent, newTaskRecord, type TaskEvent, type TaskRecord } from '../../../shared/task';

/** The task a phone shows: the running one, or the last one this window saw on it. */
export interface TaskEntry {
  task: TaskRecord;
  paused: boolean;
}

export interface TaskState {
  /** One entry per phone: tasks on different phones run at the same time. */
  bySerial: Record<string, TaskEntry>;
  /** The phone of the task this window saw start (or re-attached to) last. */
  lastSerial: string | null;
  /**
   * Re-attaches to main's view of a phone's task (after a load, a reload or a reconnect). With no task running
   * the finished one this window has stays on screen.
   */
  attach(serial: string, current: CurrentTask): void;
  /** Puts a stored record in place of a phone's entry (a task that finished while this window was away). */
  replace(record: TaskRecord): void;
  /**
   * Applies one live event. Returns false when the event belongs to a task this window does not know (it was
   * opened mid-task), so the caller fetches `tasks.current` instead of guessing.
   */
  applyEvent(event: TaskEvent): boolean;
}

export const isRunning = (task: TaskRecord | undefined): boolean => task?.status === 'running' || task?.status === 'pending';

const findSerial = (bySerial: Record<string, TaskEntry>, taskId: string) =>
  Object.keys(bySerial).find((serial) => bySerial[serial]!.task.id === taskId);

export const useTaskStore = create<TaskState>()((set, get) => ({
  bySerial: {},
  lastSerial: null,
  attach: (serial, { task, paused }) => {
    if (!task) {
      const entry = get().bySerial[serial];
      if (entry?.paused) set({ bySerial: { ...get().bySerial, [serial]: { ...entry, paused: false } } });
      return;
    }
    set({ bySerial: { ...get().bySerial, [serial]: { task, paused } }, lastSerial: serial });
  },
  replace: (record) => {
    const entry = get().bySerial[record.serial];
    if (entry && entry.task.id !== record.id) return;
    set({ bySerial: { ...get().bySerial, [record.serial]: { task: record, paused: false } } });
  },
  applyEvent: (event) => {
    const { bySerial } = get();
    if (event.type === 'task.started' && !findSerial(bySerial, event.taskId)) {
      const fresh = newTaskRecord({
        id: event.taskId,
        goal: event.goal,
        serial: event.serial,
        planner: event.planner,
        maxSteps: event.maxSteps,
        createdAt: event.at,
      });
      set({ bySerial: { ...bySerial, [event.serial]: { task: applyTaskEvent(fresh, event), paused: false } }, lastSerial: event.serial });
      return true;
    }
    const serial = findSerial(bySerial, event.taskId);
    if (!serial) return false;
    const entry = bySerial[serial]!;
    // A turn already planned came with the snapshot from tasks.current: applying its look again would undo its plan.
    // (A turn that looks again before planning, a flow step waiting for its element, replaces its look.)
    if (event.type === 'step.observed' && entry.task.steps.some((step) => step.step === event.step && step.planned !== null)) return true;
    const paused =
      event.type === 'task.paused' ? true : event.type === 'task.resumed' || event.type === 'task.finished' ? false : entry.paused;
    set({ bySerial: { ...bySerial, [serial]: { task: applyTaskEvent(entry.task, event), paused } } });
    return true;
  },
}));

const NO_ENTRY = undefined;
/** The entry of one phone (stable reference for React selectors). */
export const entryFor = (serial: string | null | undefined) => (state: TaskState): TaskEntry | undefined =>
  serial ? state.bySerial[serial] : NO_ENTRY;

/**
 * The task the window shows: the selected phone's; when that phone has none, the last task this window saw if
 * its phone is no longer listed (it vanished mid-task), so how that task ended stays on screen.
 */
export function shownEntry(state: TaskState, selectedSerial: string | null, listedSerials: readonly string[]): TaskEntry | undefined {
  const selected = selectedSerial ? state.bySerial[selectedSerial] : undefined;
  if (selected) return selected;
  const last = state.lastSerial;
  return last && !listedSerials.includes(last) ? state.bySerial[last] : undefined;
}
