import type { Flow } from '../../shared/flow';
import { createReplayPlanner } from './replay-planner';
import type { FlowScreenshots } from './replay-options';
import { buildToolCallingClient } from '../runtime/build-planner';
import type { RuntimeConfig } from '../runtime/config';
import type { ConfiguredPlanner } from '../runtime/planner';
import { createFlowChecks } from './flow-checks';

/**
 * The planner of a flow run, from the one the configuration builds: the flow's steps replayed on the fresh Scene of
 * each turn (each lookup and check waiting for the screen, each turn's screen read once it settled), asserts judged
 * in code, and the configured model (when the AI planner is on) for `ai` and `ask_ai` steps. With the AI planner off
 * no model is called (seed D6): such steps stop the run and say why. Each turn carries the flow's marks (the step it
 * carries out, the steps it knew the result of): the run's report folds them (flow-run-fold.ts). `screenshots` saves
 * `screenshot` steps' pictures (without it, such a step fails).
 */
export function flowRunPlanner(
  flow: Flow,
  config: RuntimeConfig,
  configured: ConfiguredPlanner,
  { heal = false, screenshots }: { heal?: boolean; screenshots?: FlowScreenshots } = {},
): ConfiguredPlanner {
  const model = configured.planner.info.kind === 'ai' ? configured.planner : undefined;
  const checks = createFlowChecks({ client: model ? buildToolCallingClient(config) : null });
  // A step that does not match fails the run there, with what it looked for and what the screen shows: the model
  // answers `ai` and `ask_ai` steps only, and never carries on in the flow's place; with `heal` (asked for, and a
  // model set up) it carries out that one step's meaning in a few supervised actions, and the flow goes on.
  const planner = createReplayPlanner({
    flow,
    source: 'replayed',
    checks,
    onDivergence: heal && model ? 'heal' : 'fail',
    ...(model && { model }),
    ...(screenshots && { screenshots }),
  });
  // Every step may take a turn of its own, and one more confirms the end.
  return { ...configured, planner, maxSteps: Math.max(configured.maxSteps, flow.steps.length + 1) };
}
