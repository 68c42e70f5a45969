import type { TaskRecord } from '../../shared/task';
import { outcomeWord } from '../../shared/task-words';
import { taskVerdict } from '../../shared/verdict';
import type { ConfiguredPlanner } from '../runtime/planner';
import { flowFromRecord } from './flow-from-record';
import { createReplayPlanner } from './replay-planner';

/**
 * "Run again without the model": a finished task's planner for a new task with the same goal, which replays the
 * task's recorded flow and never calls the model, even when the AI planner is on: where the screen differs it stops
 * and says what it sees. "Run again, let the model fix differences" (`letModelFix`) hands such a step to the
 * configured AI planner, whose steps are marked `fixed`. The budgets, the confirmation mode and the other policies
 * are the configured ones.
 */

/** The task cannot be replayed (not a success, or nothing in it to repeat): nothing has started. */
export class ReplayRefused extends Error {
  override name = 'ReplayRefused';
}

export function replayPlannerFor(record: TaskRecord, configured: ConfiguredPlanner, { letModelFix = false }: { letModelFix?: boolean } = {}): ConfiguredPlanner {
  const verdict = taskVerdict(record);
  if (verdict !== 'done') {
    const why = verdict ? `it ended ${outcomeWord(verdict)}` : `it is still ${record.status}`;
    throw new ReplayRefused(`task ${record.id} cannot be replayed: ${why}, and only a run that was done (and verified) is replayed`);
  }
  if (letModelFix && configured.planner.info.kind !== 'ai') {
    throw new ReplayRefused(`letting the model fix differences needs the AI planner: turn it on in Settings, or run again without the model`);
  }
  let flow;
  try {
    flow = flowFromRecord(record);
  } catch (error) {
    throw new ReplayRefused(`task ${record.id} cannot be replayed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const model = letModelFix ? configured.planner : undefined;
  return { ...configured, planner: createReplayPlanner({ flow, source: 'replayed', ...(model && { model }) }) };
}
