import { takesRawScreencaps } from '../core/perception/observer';
import { primePngScreenshots } from '../core/perception/screenshot';
import { preloadPlannerClient } from '../core/runtime/build-planner';
import type { RuntimeConfig } from '../core/runtime/config';
import type { ConfiguredPlanner } from '../core/runtime/task-runner';

/**
 * For a process that waits for tasks (a fleet worker): readies, before the first task arrives, what that task's first
 * turn would otherwise ready while the task waits (2-5 s on a busy host): the provider SDK of its planner, and the PNG
 * screenshot worker when a phone it offers sends its screenshots as PNG. Nothing is sent to a phone or a model.
 */
export async function warmUpFirstTurn(config: RuntimeConfig, configured: ConfiguredPlanner, serials: readonly string[]): Promise<void> {
  // The runner asks for a screenshot exactly when the planner takes one.
  await Promise.all([
    configured.planner.accepts.screenshot && serials.some((serial) => !takesRawScreencaps(serial)) ? primePngScreenshots() : undefined,
    preloadPlannerClient(config),
  ]);
}
