import { useState } from 'react';
import type { TaskSummary } from '../../../../shared/contract';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { plainError } from '../../lib/errors';
import { useAppStore } from '../../store/app-store';
import { nameOfSerial, useDevicesStore } from '../../store/devices-store';
import { useGoalStore } from '../../store/goal-store';
import { startTask } from '../task/start-task';

/**
 * "Run again": the same goal on the same phone when it is connected and ready (then the Current task tab shows
 * it); otherwise the goal waits in the goal box and the notice says which phone is missing.
 */
export function useRunAgain() {
  const bridge = useBridge();
  const [notice, setNotice] = useState<string | null>(null);
  const { t } = useWords();
  const runAgain = async (task: Pick<TaskSummary, 'goal' | 'serial'>) => {
    setNotice(null);
    useGoalStore.getState().setDraft(task.goal);
    const devices = useDevicesStore.getState();
    const phone = devices.list?.devices.find((device) => device.serial === task.serial);
    if (phone?.state !== 'device') {
      setNotice(t('app:history.notConnected', { phone: nameOfSerial(devices, task.serial) }));
      return;
    }
    try {
      devices.select(task.serial);
      await startTask(bridge, task.serial, task.goal);
      useAppStore.getState().setView('task');
    } catch (error) {
      setNotice(plainError(error));
    }
  };
  return { runAgain, notice };
}
