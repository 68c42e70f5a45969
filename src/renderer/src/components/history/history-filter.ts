import type { TaskSummary } from '../../../../shared/contract';
import type { PlannerInfo, TaskStatus } from '../../../../shared/task';

export interface HistoryFilter {
  /** Words that must all appear in the goal (any case). */
  text: string;
  status: TaskStatus | 'any';
  serial: string | 'any';
  planner: 'any' | 'stub' | 'ai';
}

export const NO_FILTER: HistoryFilter = { text: '', status: 'any', serial: 'any', planner: 'any' };

/** The model that planned, in words: the built-in planner has none. */
export const modelOf = (planner: PlannerInfo): string => (planner.kind === 'ai' ? (planner.model ?? `${planner.provider ?? 'AI'} default`) : 'built-in planner');

export function matchesFilter(task: TaskSummary, filter: HistoryFilter): boolean {
  const goal = task.goal.toLocaleLowerCase();
  const words = filter.text.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  return (
    words.every((word) => goal.includes(word)) &&
    (filter.status === 'any' || task.status === filter.status) &&
    (filter.serial === 'any' || task.serial === filter.serial) &&
    (filter.planner === 'any' || task.planner.kind === filter.planner)
  );
}

export const isFiltered = (filter: HistoryFilter): boolean =>
  filter.text.trim() !== '' || filter.status !== 'any' || filter.serial !== 'any' || filter.planner !== 'any';
