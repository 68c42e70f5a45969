import { buildPlanner } from '../core/runtime/build-planner';
import { taskVerdict } from '../shared/verdict';
import { replayPlannerFor } from '../core/flows/replay-task';
import { runSuite, type EvalAttempt, type SuiteOptions } from './run-suite';

/**
 * `amc eval --replay`: every success of a suite run replayed on fresh demo phones, without the model (a replay that
 * diverges stops rather than hands over), judged by the task's own validator from the phone's state. A question's
 * answer came from the model, so a replay of a question task is judged on the same terms and fails without it.
 */

export interface ReplayRound {
  /** The successes that could be replayed (they acted on the phone), each replayed once. */
  attempts: EvalAttempt[];
  passed: number;
  /** Model calls made by the replays (the goal is none). */
  modelCalls: number;
}

export async function replaySuccesses(options: Omit<SuiteOptions, 'tasks' | 'repeat' | 'plannerFor'>, suite: readonly EvalAttempt[]): Promise<ReplayRound> {
  const successes = new Map(suite.filter((attempt) => attempt.success && taskVerdict(attempt.record) === 'done' && acted(attempt)).map((attempt) => [attempt.task.id, attempt]));
  const tasks = [...successes.values()].map((attempt) => attempt.task);
  if (tasks.length === 0) return { attempts: [], passed: 0, modelCalls: 0 };
  const configured = buildPlanner(options.config);
  const attempts = await runSuite({ ...options, tasks, repeat: 1, plannerFor: (task) => replayPlannerFor(successes.get(task.id)!.record, configured) });
  const modelCalls = attempts.reduce((sum, attempt) => sum + attempt.record.steps.filter((step) => step.planned?.usage).length, 0);
  return { attempts, passed: attempts.filter((attempt) => attempt.success).length, modelCalls };
}

const acted = (attempt: EvalAttempt) => attempt.record.steps.some((step) => step.outcome && step.outcome.attempts > 0);
