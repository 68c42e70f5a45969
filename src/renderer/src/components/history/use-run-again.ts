import { useState } from 'react';
import { taskVerdict, type VerdictInput } from '../../../../shared/verdict';
import type { TaskSummary } from '../../../../shared/contract';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { plainError } from '../../lib/errors';
import { useAppStore } from '../../store/app-store';
import { nameOfSerial, useDevicesStore } from '../../store/devices-store';
import { useGoalStore } from '../../store/goal-store';
import { startTask } from '../task/start-task';
import { useTaskStore } from '../../store/task-store';

/**
 * "Run again": the same goal on the same phone when it is connected and ready (then the Current task tab shows
 * it); otherwise the goal waits in the goal box and the notice says which phone is missing. "Run again without the
 * model" replays the task's recorded steps there instead (the model only where the screen differs).
 */
export function useRunAgain() {
  const bridge = useBridge();
  const [notice, setNotice] = useState<string | null>(null);
  const { t } = useWords();
  /** `missingKey`: the notice when the phone is not connected (its `{{phone}}` filled in). */
  const onPhoneOf = async (task: Pick<TaskSummary, 'goal' | 'serial'>, missingKey: string, start: () => Promise<void>) => {
    setNotice(null);
    const devices = useDevicesStore.getState();
    const phone = devices.list?.devices.find((device) => device.serial === task.serial);
    if (phone?.state !== 'device') {
      setNotice(t(missingKey, { phone: nameOfSerial(devices, task.serial) }));
      return;
    }
    try {
      devices.select(task.serial);
      await start();
      useAppStore.getState().setView('task');
    } catch (error) {
      setNotice(plainError(error));
    }
  };
  const runAgain = (task: Pick<TaskSummary, 'goal' | 'serial'>) => {
    useGoalStore.getState().setDraft(task.goal);
    return onPhoneOf(task, 'app:history.notConnected', () => startTask(bridge, task.serial, task.goal));
  };
  /** `letModelFix`: "Run again, let the model fix differences"; otherwise the model is never called. */
  const replay = (task: Pick<TaskSummary, 'id' | 'goal' | 'serial'>, letModelFix = false) =>
    onPhoneOf(task, 'app:history.notConnectedReplay', async () => {
      const record = await bridge.call('tasks.replay', { taskId: task.id, serial: task.serial, ...(letModelFix && { letModelFix }) });
      useTaskStore.getState().attach(record.serial, { task: record, paused: false });
    });
  return { runAgain, replay, notice };
}

/**
 * Whether a task can be replayed: it was done (verified; a claim the screen did not bear out is no recipe, and the
 * built-in planner only looks) and acted on the phone (a replay repeats actions).
 */
export const replayable = (task: VerdictInput, actions: number) => taskVerdict(task) === 'done' && actions > 0;

/** The replay buttons' words (message keys): History and the result card say them alike. */
export const REPLAY_WORDS = 'app:history.replay';
export const REPLAY_FIX_WORDS = 'app:history.replayFix';
