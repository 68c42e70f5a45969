import type { PlannedStep } from '../../shared/task';
import type { Planner } from './planner';

/**
 * The planner used while the AI planner is disabled (the default): one `describe_screen` step, then an
 * empty plan, which completes the task. It makes no model call and takes neither screenshot nor history.
 */
export function createStubPlanner(): Planner {
  return {
    info: { kind: 'stub', exposesReasoning: false },
    accepts: { screenshot: false, history: false },
    async plan(input): Promise<PlannedStep[]> {
      if (input.step > 1) return [];
      return [{ tool: 'describe_screen', args: {}, rationale: null, thinking: null, usage: null, costUsd: null, source: 'model' }];
    },
    goalReached: () => false,
  };
}
