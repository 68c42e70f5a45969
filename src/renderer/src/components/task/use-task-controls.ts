import { useState } from 'react';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { reportError } from '../../store/app-store';
import { selectedDevice, useDevicesStore } from '../../store/devices-store';
import { useGoalStore } from '../../store/goal-store';
import { entryFor, isRunning, useTaskStore } from '../../store/task-store';
import { allowedAppsOption } from '../supervision/AllowedAppsField';
import { startTask } from './start-task';
import { useShownTask } from './use-shown-task';

/** The lock's refusal when an MCP agent (in any process) holds the phone between its actions. */
const HELD_BY_AGENT = /is being driven by an MCP agent/;

/**
 * Run, Pause/Resume and Stop, for the buttons and the keyboard alike: Run is about the selected phone; Pause and
 * Stop about the task on screen (it may be on a phone that vanished). A run refused because an MCP agent holds the
 * phone lets Stop take the phone back from that agent.
 */
export function useTaskControls() {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [heldByAgent, setHeldByAgent] = useState<string | null>(null);
  const device = useDevicesStore(selectedDevice);
  const goal = useGoalStore((s) => s.draft);
  const busyHere = isRunning(useTaskStore(entryFor(device?.serial))?.task);
  const { entry } = useShownTask();
  const task = entry?.task;
  const running = isRunning(task);
  const paused = running && entry?.paused === true;
  const { t } = useWords();

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

  // Why nothing can start on the selected phone now (a goal or a flow file alike).
  const phoneDisabledReason = !device
    ? t('app:goal.noPhone')
    : device.state !== 'device'
      ? t('app:goal.phoneNotReady')
      : busyHere
        ? t('app:goal.phoneBusy')
        : busy
          ? t('app:goal.wait')
          : null;
  const runDisabledReason = phoneDisabledReason ?? (!goal.trim() ? t('app:goal.typeGoal') : null);

  return {
    device,
    task,
    running,
    paused,
    busy,
    phoneDisabledReason,
    runDisabledReason,
    run: () => {
      if (runDisabledReason || !device) return;
      void act(async () => {
        try {
          await startTask(bridge, device.serial, goal, allowedAppsOption());
          setHeldByAgent(null);
        } catch (error) {
          setHeldByAgent(error instanceof Error && HELD_BY_AGENT.test(error.message) ? device.serial : null);
          throw error;
        }
      });
    },
    togglePause: () => {
      if (!running || busy) return;
      void act(() => bridge.call(paused ? 'tasks.resume' : 'tasks.pause', { taskId: task?.id }));
    },
    canStop: !busy && (running || (heldByAgent !== null && heldByAgent === device?.serial)),
    stop: () => {
      if (busy) return;
      if (running) void act(() => bridge.call('tasks.stop', { taskId: task?.id }));
      else if (heldByAgent && heldByAgent === device?.serial) void act(() => bridge.call('tasks.stop', { serial: heldByAgent }).then(() => setHeldByAgent(null)));
    },
  };
}

export type TaskControls = ReturnType<typeof useTaskControls>;
