import type { Flow } from '../../shared/flow';
import { taskVerdict } from '../../shared/verdict';
import type { ConfiguredPlanner } from '../runtime/planner';
import type { TaskStore } from '../storage/task-store';
import { flowFromRecord, NothingToReplay } from './flow-from-record';
import { createReplayPlanner } from './replay-planner';

/**
 * The plan cache ("Reuse successful runs"): history is the cache. A goal that succeeded before (the same words,
 * whatever their case, spacing or closing punctuation) starts by following that run's flow; the replay planner
 * grounds and verifies each step on the fresh Scene and calls the model only where the screen differs (or where the
 * flow's end cannot be checked in code).
 */

export const normalizeGoal = (goal: string): string =>
  goal
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[.!?…]+$/u, '');

/** The flow of the newest successful, verified run of this goal that did something a replay can repeat; null when none. */
export async function cachedFlow(store: Pick<TaskStore, 'list' | 'get'>, goal: string): Promise<Flow | null> {
  const wanted = normalizeGoal(goal);
  const { tasks } = await store.list();
  for (const summary of tasks) {
    // Only a run whose outcome was verified teaches a shortcut: a claim the screen did not bear out is not one.
    if (taskVerdict(summary) !== 'done' || normalizeGoal(summary.goal) !== wanted) continue;
    // A run that cannot be read any more, was not verified, or did nothing is no plan to follow.
    const record = await store.get(summary.id).catch(() => undefined);
    if (!record || record.verification?.status === 'not-verified') continue;
    try {
      return flowFromRecord(record);
    } catch (error) {
      if (!(error instanceof NothingToReplay)) throw error;
    }
  }
  return null;
}

/** The AI planner, following the cached flow of this goal when the setting is on and there is one; else as it was. */
export async function withPlanCache(configured: ConfiguredPlanner, goal: string, store: Pick<TaskStore, 'list' | 'get'>, reuseRuns: boolean): Promise<ConfiguredPlanner> {
  if (!reuseRuns || configured.planner.info.kind !== 'ai') return configured;
  const flow = await cachedFlow(store, goal);
  return flow ? { ...configured, planner: createReplayPlanner({ flow, source: 'cache', model: configured.planner }) } : configured;
}
