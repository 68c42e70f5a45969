import { create } from 'zustand';
import type { CurrentTask } from '../../../shared/contract';
import { applyTaskEvent, newTaskRecord, type TaskEvent, type TaskRecord } from '../../../shared/task';

export interface TaskState {
  /** The task on screen: the running one, or the last one this window saw finish. */
  task: TaskRecord | null;
  paused: boolean;
  /** Re-attaches to main's view of the running task (after a reload or a reconnect). */
  attach(current: CurrentTask): void;
  /**
   * Applies one live event. Returns false when the event belongs to a task this window does not know
   * (it was opened mid-task), so the caller fetches `tasks.current` instead of guessing.
   */
  applyEvent(event: TaskEvent): boolean;
  clear(): void;
}

const isRunning = (task: TaskRecord | null) => task?.status === 'running' || task?.status === 'pending';

export const useTaskStore = create<TaskState>()((set, get) => ({
  task: null,
  paused: false,
  attach: ({ task, paused }) => {
    // No task running: keep showing the finished one this window already has.
    if (!task && !isRunning(get().task)) return set({ paused: false });
    set({ task, paused });
  },
  applyEvent: (event) => {
    const { task } = get();
    if (event.type === 'task.started' && task?.id !== event.taskId) {
      const fresh = newTaskRecord({
        id: event.taskId,
        goal: event.goal,
        serial: event.serial,
        planner: event.planner,
        maxSteps: event.maxSteps,
        createdAt: event.at,
      });
      set({ task: applyTaskEvent(fresh, event), paused: false });
      return true;
    }
    if (!task || task.id !== event.taskId) return false;
    // A turn already present came with the snapshot from tasks.current: applying it again would add it twice.
    if (event.type === 'step.observed' && task.steps.some((step) => step.step === event.step)) return true;
    const paused = event.type === 'task.paused' ? true : event.type === 'task.resumed' || event.type === 'task.finished' ? false : get().paused;
    set({ task: applyTaskEvent(task, event), paused });
    return true;
  },
  clear: () => set({ task: null, paused: false }),
}));

export const taskIsRunning = (state: TaskState): boolean => isRunning(state.task);
