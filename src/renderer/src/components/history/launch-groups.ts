import type { TaskSummary } from '../../../../shared/contract';
import { launchOf } from '../../../../shared/task';

/** Tasks of one launch (one goal on several phones), or a task run alone (launchId null). */
export interface HistoryGroup {
  launchId: string | null;
  tasks: TaskSummary[];
}

/** The tasks grouped by launch, each group where its newest task stands in the list (which stays newest first). */
export function groupByLaunch(tasks: readonly TaskSummary[]): HistoryGroup[] {
  const groups = new Map<string, HistoryGroup>();
  for (const task of tasks) {
    const key = launchOf(task);
    const group = groups.get(key);
    if (group) group.tasks.push(task);
    else groups.set(key, { launchId: task.launchId ?? null, tasks: [task] });
  }
  return [...groups.values()];
}
