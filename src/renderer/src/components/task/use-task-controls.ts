import { useState } from 'react';
import { useBridge } from '../../bridge-context';
import { reportError } from '../../store/app-store';
import { selectedDevice, useDevicesStore } from '../../store/devices-store';
import { useGoalStore } from '../../store/goal-store';
import { entryFor, isRunning, useTaskStore } from '../../store/task-store';
import { allowedAppsOption } from '../supervision/AllowedAppsField';
import { startTask } from './start-task';
import { useShownTask } from './use-shown-task';

/**
 * Run, Pause/Resume and Stop, for the buttons and the keyboard alike: Run is about the selected phone; Pause and
 * Stop about the task on screen (it may be on a phone that vanished).
 */
export function useTaskControls() {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const device = useDevicesStore(selectedDevice);
  const goal = useGoalStore((s) => s.draft);
  const busyHere = isRunning(useTaskStore(entryFor(device?.serial))?.task);
  const { entry } = useShownTask();
  const task = entry?.task;
  const running = isRunning(task);
  const paused = running && entry?.paused === true;

  const act = async (action: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      reportError(error);
    } finally {
      setBusy(false);
    }
  };

  const runDisabledReason = !device
    ? 'Choose a phone first'
    : device.state !== 'device'
      ? 'The phone is not ready'
      : busyHere
        ? 'A task is running on this phone'
        : !goal.trim()
          ? 'Type a goal first'
          : busy
            ? 'Wait a moment'
            : null;

  return {
    device,
    task,
    running,
    paused,
    busy,
    runDisabledReason,
    run: () => {
      if (runDisabledReason || !device) return;
      void act(() => startTask(bridge, device.serial, goal, allowedAppsOption()));
    },
    togglePause: () => {
      if (!running || busy) return;
      void act(() => bridge.call(paused ? 'tasks.resume' : 'tasks.pause', { taskId: task?.id }));
    },
    stop: () => {
      if (!running || busy) return;
      void act(() => bridge.call('tasks.stop', { taskId: task?.id }));
    },
  };
}

export type TaskControls = ReturnType<typeof useTaskControls>;
