import { parsePriceTable, priceOf, type ModelPrice } from '../../shared/prices';
import { DEFAULT_SCENE_TOKEN_BUDGET } from '../../shared/scene';
import type { ConfirmationMode } from '../../shared/settings-catalog';
import { defaultSettings, type Settings } from '../../shared/settings';

/** When the loop guard speaks up: `warnAfter` looping turns tell the model; `stopAfter` ask a person (or fail). */
export interface LoopThresholds {
  warnAfter: number;
  stopAfter: number;
}

/** How one task is kept in bounds, besides its step budget: what Settings say, resolved for the task's model. */
export interface TaskPolicies {
  /** Input + output tokens; null: no cap. */
  maxTokens: number | null;
  maxCostUsd: number | null;
  /** The agent's own time; null: no cap. */
  maxDurationMs: number | null;
  /** The price of the task's model; null when the table does not list it (then no cost is shown or capped). */
  price: ModelPrice | null;
  confirmation: ConfirmationMode;
  loop: LoopThresholds;
  standingInstructions: string;
  /** The most tokens each turn's Scene may take (see `buildScene`). */
  sceneTokenBudget: number;
  /** The long edge, in pixels, of the screenshot a planner that takes one receives. */
  screenshotLongEdge: number;
  /** Whether the task learns notes per app when it completes and its planner receives the notes of the app in front. */
  appNotes: boolean;
}

export const DEFAULT_LOOP_THRESHOLDS: LoopThresholds = { warnAfter: 2, stopAfter: 3 };

/** Without settings (tests, the built-in planner on its own): no caps but steps, sensitive actions confirmed. */
export const DEFAULT_TASK_POLICIES: TaskPolicies = {
  maxTokens: null,
  maxCostUsd: null,
  maxDurationMs: null,
  price: null,
  confirmation: 'sensitive',
  loop: DEFAULT_LOOP_THRESHOLDS,
  standingInstructions: '',
  sceneTokenBudget: DEFAULT_SCENE_TOKEN_BUDGET,
  screenshotLongEdge: defaultSettings().aiPlanner.screenshotLongEdge,
  appNotes: false,
};

/** The policies Settings give a task whose model is `model` (undefined: no model, e.g. the built-in planner). */
export function taskPoliciesFrom(settings: Pick<Settings, 'budget' | 'supervision' | 'perception' | 'aiPlanner'>, model: string | undefined): TaskPolicies {
  const { budget, supervision, perception, aiPlanner } = settings;
  const table = parsePriceTable(budget.priceTable);
  return {
    maxTokens: budget.maxTokens,
    maxCostUsd: budget.maxCostCents === null ? null : budget.maxCostCents / 100,
    maxDurationMs: budget.maxMinutes === null ? null : budget.maxMinutes * 60_000,
    price: model && 'prices' in table ? priceOf(model, table.prices) : null,
    confirmation: supervision.confirmation,
    loop: { warnAfter: supervision.loopWarnAfter, stopAfter: supervision.loopStopAfter },
    standingInstructions: supervision.standingInstructions,
    sceneTokenBudget: perception.sceneTokenBudget,
    screenshotLongEdge: aiPlanner.screenshotLongEdge,
    appNotes: aiPlanner.appNotes,
  };
}
