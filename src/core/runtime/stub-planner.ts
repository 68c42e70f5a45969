import { act, type Decision, type Planner } from './planner';

/**
 * The planner used while the AI planner is disabled (the default): one `describe_screen` step, then a finish,
 * which completes the task. It makes no model call and takes neither screenshot nor history.
 */
export function createStubPlanner(): Planner {
  return {
    info: { kind: 'stub', exposesReasoning: false },
    accepts: { screenshot: false, history: false },
    async plan(input): Promise<Decision> {
      if (input.step > 1) return { kind: 'finish', success: true, reason: null, call: null };
      return act({ tool: 'describe_screen', args: {}, rationale: null, thinking: null, usage: null, costUsd: null, source: 'model' });
    },
  };
}
