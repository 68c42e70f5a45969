import type { TaskSummary } from '../../../../shared/contract';
import type { Words } from '../../../../shared/i18n/translate';
import type { PlannerInfo } from '../../../../shared/task';
import { taskOutcomeKind, type TaskOutcomeKind } from '../../../../shared/task-words';
import { TASK_VERDICTS } from '../../../../shared/verdict';

export interface HistoryFilter {
  /** Words that must all appear in the goal (any case, however hyphenated or spaced). */
  text: string;
  status: TaskOutcomeKind | 'any';
  serial: string | 'any';
  planner: 'any' | 'stub' | 'ai';
}

/** What the status filter offers: every verdict, and the tasks still running. */
export const HISTORY_STATUSES: readonly TaskOutcomeKind[] = [...TASK_VERDICTS, 'running'];

export const NO_FILTER: HistoryFilter = { text: '', status: 'any', serial: 'any', planner: 'any' };

/** The model that planned, in words: the built-in planner has none. */
export const modelOf = (planner: PlannerInfo, { t }: Words): string =>
  planner.kind === 'ai' ? (planner.model ?? t('app:history.modelDefault', { provider: planner.provider ?? 'AI' })) : t('app:history.builtIn');

/**
 * Text as a search compares it: any case, accents aside, and without the hyphens, spaces and dots people spell
 * differently ("wifi" finds "Turn on Wi-Fi", "e-mail" finds "email").
 */
const searchForm = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

export function matchesFilter(task: TaskSummary, filter: HistoryFilter): boolean {
  const goal = searchForm(task.goal);
  const words = filter.text.split(/\s+/).map(searchForm).filter(Boolean);
  return (
    words.every((word) => goal.includes(word)) &&
    (filter.status === 'any' || taskOutcomeKind(task) === filter.status) &&
    (filter.serial === 'any' || task.serial === filter.serial) &&
    (filter.planner === 'any' || task.planner.kind === filter.planner)
  );
}

export const isFiltered = (filter: HistoryFilter): boolean =>
  filter.text.trim() !== '' || filter.status !== 'any' || filter.serial !== 'any' || filter.planner !== 'any';
