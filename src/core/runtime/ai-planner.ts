import { ToolCallUnavailable, type DecisionToolSpec, type ToolCallingClient } from '@amc/provider-clients';
import type { PlannedStep, PlannerInfo } from '../../shared/task';
import type { Decision, PlanContext, PlanInput, Planner } from './planner';
import { hasNoUsableTree } from '../../shared/scene';
import { buildDecisionRequest, type PromptOptions } from './prompt';
import { isFinish } from '../../shared/tool-vocabulary';
import { argumentsInDevicePixels, COORDINATE_CONVENTIONS } from './screen-coordinates';

export interface AIPlannerOptions {
  client: ToolCallingClient;
  /** The tools offered to the model, finish_task among them (the catalog's MODEL_TOOL_SPECS). */
  tools: readonly DecisionToolSpec[];
  info: Omit<PlannerInfo, 'kind' | 'exposesReasoning'>;
  /** Send the turn's screenshot along with the Scene (default true). */
  sendScreenshot?: boolean;
  prompt?: PromptOptions;
}

/**
 * How much of the model's own words a turn keeps. A rationale is asked to be a sentence or two and a reason
 * one or two; a model stuck in a loop must not flood the timeline, the history file and the window.
 */
export const MODEL_TEXT_LIMITS = { rationale: 2_000, thinking: 50_000, reason: 1_000 } as const;

function capped(text: string, max: number): string;
function capped(text: string | null, max: number): string | null;
function capped(text: string | null, max: number): string | null {
  if (text === null || text.length <= max) return text;
  return `${text.slice(0, max)}… [${text.length - max} more characters not kept]`;
}

/** finish_task's arguments, checked: anything else is the model's malformed reply, not a decision. */
function finishArguments(args: Record<string, unknown>): { success: true; reason: string | null } | { success: false; reason: string } {
  if (typeof args.success !== 'boolean') {
    throw new ToolCallUnavailable('model called finish_task without a boolean "success"', { kind: 'malformed-reply' });
  }
  const reason = typeof args.reason === 'string' && args.reason.trim() ? args.reason.trim() : null;
  if (args.success) return { success: true, reason };
  if (!reason) throw new ToolCallUnavailable('model called finish_task(success=false) without a reason', { kind: 'malformed-reply' });
  return { success: false, reason };
}

/**
 * The LLM planner: one tool call per turn chosen by the model from the tools it is offered,
 * from the goal, this turn's Scene (and screenshot) and a compact history. finish_task is the `finish` decision
 * (success, reason), so completion only ever comes from the model saying so (seed D2/D3).
 */
export function createAIPlanner(options: AIPlannerOptions): Planner {
  const sendScreenshot = options.sendScreenshot ?? true;
  const coordinates = COORDINATE_CONVENTIONS[options.client.provider];
  return {
    info: { kind: 'ai', ...options.info, exposesReasoning: options.client.provider !== 'cloud-proxy' },
    accepts: { screenshot: sendScreenshot, history: true },
    async plan(input: PlanInput, context: PlanContext): Promise<Decision> {
      const request = buildDecisionRequest(input, options.tools, { ...options.prompt, coordinates });
      const decision = await options.client.decide(request, { signal: context.signal });
      const { reason } = decision.args;
      const finishing = isFinish(decision.tool);
      // On a screen with no usable UI tree the model aimed by the screenshot, in its provider's convention.
      const aimedByImage = !finishing && input.screenshot && input.scene && hasNoUsableTree(input.scene);
      const args = aimedByImage ? argumentsInDevicePixels(decision.args, coordinates, input.screenshot!, input.scene!.screen) : decision.args;
      const step: PlannedStep = {
        ...decision,
        args: finishing && typeof reason === 'string' ? { ...args, reason: capped(reason, MODEL_TEXT_LIMITS.reason) } : args,
        rationale: capped(decision.rationale, MODEL_TEXT_LIMITS.rationale),
        thinking: capped(decision.thinking, MODEL_TEXT_LIMITS.thinking),
        // The runner prices the call by the task's price table.
        costUsd: null,
        source: 'model',
      };
      if (!finishing) return { kind: 'act', call: step };
      const finish = finishArguments(step.args);
      return { kind: 'finish', ...finish, call: step };
    },
  };
}
