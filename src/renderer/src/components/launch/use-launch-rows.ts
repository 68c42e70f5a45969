import { useEffect, useState } from 'react';
import type { LaunchStarted } from '../../../../shared/contract';
import { launchRowOf, type LaunchRow } from '../../../../shared/launch';
import { useTaskStore } from '../../store/task-store';

/** Each phone's row of the launch, live: from its task as the events build it, else as the launch started it. */
export function useLaunchRows(launch: LaunchStarted): LaunchRow[] {
  const bySerial = useTaskStore((s) => s.bySerial);
  const running = launch.rows.some((row) => row.outcome === null);
  // Times of running tasks move on: redraw every second while any runs.
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return launch.rows.map((row) => {
    const task = bySerial[row.serial]?.task;
    return task && task.launchId === launch.launchId ? launchRowOf(task, now) : row;
  });
}
