import type { Flow } from '../../shared/flow';
import type { Planner } from '../runtime/planner';
import type { ToolCatalog } from '../tools/tool';
import type { FlowChecks } from './flow-checks-port';

/** What a replay planner is given: the flow, who takes over where the screen leaves it, and who hears each step. */

export interface ReplayPlannerOptions {
  flow: Flow;
  /** How the timeline marks the flow's steps: a replay, or a run that follows the plan cache. */
  source: 'replayed' | 'cache';
  /** The AI planner: runs `ai` steps and takes over where the screen diverges. Absent: the replay stops there. */
  model?: Planner;
  /** Judges `assert` and answers `ask_ai` steps (the flow runner's); absent: a flow with such steps stops at them. */
  checks?: FlowChecks;
  /** Values of `${name}` in the flow's steps (over the flow's own `vars`). */
  vars?: Readonly<Record<string, string>>;
  tools?: ToolCatalog;
  /**
   * Whether a step's lookup or check waits for the screen to show what it needs (see waitingTimeoutMs); default: a
   * replay's steps do, the plan cache's do not (a screen that left the cached run goes to the model at once).
   */
  waits?: boolean;
  /**
   * Where the screen leaves the flow: `model` hands the rest of the goal to the model (when there is one); `fail`
   * fails the run at that step with what was looked for and what the screen shows (a CI run: `amc flow run`).
   */
  onDivergence?: 'model' | 'fail' | 'heal';
  /** Where `screenshot` steps save the screen; absent: such a step fails, saying this run keeps no screenshots. */
  screenshots?: FlowScreenshots;
}

/** Keeps a `screenshot` step's picture of the phone as a file (the run's output folder); never in the task's history. */
export interface FlowScreenshots {
  /** Saves the screen as it is now under the step's name; resolves to where it was saved and its size, in words. */
  save(name: string, signal: AbortSignal): Promise<string>;
}

/** `heal`: an action step whose element does not match is given to the model for at most this many actions. */
export const HEAL_TURNS = 3;

/** How long a lookup or a check waits for the screen by default, as Maestro's do: 17 s, and 7 s for an optional step. */
export const LOOKUP_TIMEOUT_MS = 17_000;
export const OPTIONAL_LOOKUP_TIMEOUT_MS = 7_000;


/** How long a step waits for the screen: its own timeout, else 7 s when optional, else 17 s. */
export function timeoutOf(step: { timeout?: number; optional?: boolean }): number {
  return step.timeout ?? (step.optional ? OPTIONAL_LOOKUP_TIMEOUT_MS : LOOKUP_TIMEOUT_MS);
}
