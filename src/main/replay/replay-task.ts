import type { TaskRecord } from '../../shared/task';
import type { ConfiguredPlanner } from '../runtime/planner';
import { flowFromRecord } from './flow-from-record';
import { createReplayPlanner } from './replay-planner';

/**
 * "Run again without the model": a finished task's planner for a new task with the same goal, which replays the
 * task's recorded flow. The configured AI planner, when there is one, takes over where the screen differs; the
 * budgets, the confirmation mode and the other policies are the configured ones.
 */

/** The task cannot be replayed (not a success, or nothing in it to repeat): nothing has started. */
export class ReplayRefused extends Error {
  override name = 'ReplayRefused';
}

/** `handOver: false` keeps the model out even when one is configured (a replay that measures the flow alone). */
export function replayPlannerFor(record: TaskRecord, configured: ConfiguredPlanner, { handOver = true }: { handOver?: boolean } = {}): ConfiguredPlanner {
  if (record.status !== 'completed') {
    const why = record.status === 'failed' || record.status === 'cancelled' ? `it ${record.status === 'failed' ? 'failed' : 'was stopped'}` : `it is still ${record.status}`;
    throw new ReplayRefused(`task ${record.id} cannot be replayed: ${why}, and only a successful run is replayed`);
  }
  let flow;
  try {
    flow = flowFromRecord(record);
  } catch (error) {
    throw new ReplayRefused(`task ${record.id} cannot be replayed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const model = handOver && configured.planner.info.kind === 'ai' ? configured.planner : undefined;
  return { ...configured, planner: createReplayPlanner({ flow, source: 'replayed', ...(model && { model }) }) };
}
