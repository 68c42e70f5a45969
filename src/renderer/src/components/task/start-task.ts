import type { Bridge } from '../../bridge';
import type { RunTaskRequest } from '../../../../shared/task';
import { useDevicesStore } from '../../store/devices-store';
import { recentGoalsKey, useGoalStore } from '../../store/goal-store';
import { useTaskStore } from '../../store/task-store';
import { useLanguageStore } from '../../i18n/language-store';
import { useAppStore } from '../../store/app-store';

/**
 * Starts a goal on a phone, shows it as that phone's task under Current task (whichever tab the run came from), and
 * keeps it among the phone's recent goals.
 */
export async function startTask(bridge: Bridge, serial: string, goal: string, scope: Pick<RunTaskRequest, 'allowedApps'> = {}): Promise<void> {
  const record = await bridge.call('tasks.run', { serial, goal, ...scope, language: useLanguageStore.getState().language });
  // The events may already have created it; the answer is the same task at an earlier moment.
  const store = useTaskStore.getState();
  if (store.bySerial[record.serial]?.task.id !== record.id) store.attach(record.serial, { task: record, paused: false });
  const phone = useDevicesStore.getState().list?.devices.find((device) => device.serial === serial) ?? { serial };
  useGoalStore.getState().remember(recentGoalsKey(phone), goal.trim());
  useAppStore.getState().setView('task');
}
