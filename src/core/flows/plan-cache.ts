import type { Flow } from '../../shared/flow';
import { taskVerdict } from '../../shared/verdict';
import { planCacheKey } from '../../shared/plan-cache';
import type { TaskRecord } from '../../shared/task';
import type { ConfiguredPlanner } from '../runtime/planner';
import type { PlanCachePort } from '../runtime/plan-cache-port';
import type { PlanCacheStore } from '../storage/plan-cache-store';
import type { TaskStore } from '../storage/task-store';
import { flowFromRecord, NothingToReplay } from './flow-from-record';
import { createReplayPlanner } from './replay-planner';

/**
 * The plan cache ("Reuse successful runs"): a goal a model drove to a verified success before starts by following
 * that run's flow; the replay planner grounds and verifies each step on the fresh Scene and calls the model only
 * where the screen differs (or where the flow's end cannot be checked in code). Only such a run teaches the cache:
 * never a flow file's claim, a replay, a run that followed the cache, or one the runtime could not confirm.
 */

/**
 * Whether the runtime confirmed the run's success: not completed "not verified", some action verified in code (a switch
 * flipped, an app in front, a field's text), and the last action not left unconfirmed.
 */
function verifiedSuccess(record: TaskRecord): boolean {
  if (taskVerdict(record) !== 'done') return false;
  const checked = record.steps.flatMap((turn) => (turn.outcome?.ok && turn.outcome.verification ? [turn.outcome.verification.status] : []));
  return checked.includes('verified') && checked.at(-1) === 'verified';
}

/** The run's flow when it may teach the cache its goal; null when it may not. */
function flowTaught(record: TaskRecord): Flow | null {
  if (!verifiedSuccess(record) || record.planner.kind !== 'ai' || record.page) return null;
  // Every step the model's (a replayed, cached or skipped step is another run's say, and a flow's goal is its file's claim).
  if (record.steps.some((turn) => turn.planned && turn.planned.source !== 'model')) return null;
  try {
    return flowFromRecord(record);
  } catch (error) {
    if (error instanceof NothingToReplay) return null;
    throw error;
  }
}

/** Whether a finished task may teach the cache its goal. */
export const teachesPlanCache = (record: TaskRecord): boolean => flowTaught(record) !== null;

/** The port a runner offers its finished tasks to: a run that may teach the cache becomes its goal's entry. */
export function planCacheLearner(cache: Pick<PlanCacheStore, 'learn'>, now: () => number = Date.now): PlanCachePort {
  return {
    async consider(record) {
      const flow = flowTaught(record);
      if (!flow) return false;
      await cache.learn({ goal: record.goal, taskId: record.id, app: flow.app ?? null, learnedAt: now() });
      return true;
    },
  };
}

/** Where the cache reads from: its entries, and the history holding the runs they name. */
export interface PlanCacheSources {
  cache: Pick<PlanCacheStore, 'find'>;
  history: Pick<TaskStore, 'get'>;
}

/** The flow of the run this goal's entry names, when that run is still in history and still teaches exactly this goal. */
export async function cachedFlow({ cache, history }: PlanCacheSources, goal: string): Promise<Flow | null> {
  const entry = await cache.find(goal).catch(() => null);
  if (!entry) return null;
  const record = await history.get(entry.taskId).catch(() => undefined);
  if (!record || planCacheKey(record.goal) !== planCacheKey(goal)) return null;
  return flowTaught(record);
}

/** The AI planner, following the cached flow of this goal when the setting is on and there is one; else as it was. */
export async function withPlanCache(configured: ConfiguredPlanner, goal: string, sources: PlanCacheSources, reuseRuns: boolean): Promise<ConfiguredPlanner> {
  if (!reuseRuns || configured.planner.info.kind !== 'ai') return configured;
  const flow = await cachedFlow(sources, goal);
  return flow ? { ...configured, planner: createReplayPlanner({ flow, source: 'cache', model: configured.planner }) } : configured;
}
