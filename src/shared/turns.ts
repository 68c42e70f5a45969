import type { StepOutcome } from './action';
import { isDenied } from './action-words';
import type { TaskRecord } from './task';
import { toolKind, type ToolKind } from './tool-vocabulary';

/**
 * A task's two counts, beside the reducer that builds its record, for every reader (the step budget, the timeline,
 * History, the report, the CLI, the fleet, the eval, MCP): a **turn** is one observe → decide (a row of
 * `record.steps`), an **action** is a turn whose tool reached the phone (or looked at it). A question, a hand-over,
 * a wait and an action the person denied are turns, not actions. The runtime's own Back out of an app outside the
 * task's allowed apps (`source: runtime`) is a turn and an action: it reached the phone. A record read a page at a time
 * counts every turn.
 */

/** The kinds of tool whose turns are not actions even when they have an outcome. */
const NOT_ACTIONS: ReadonlySet<ToolKind> = new Set<ToolKind>(['question', 'hand-over', 'wait', 'finish']);

/** Whether a recorded turn is an action: it has an outcome, and is not a question, a hand-over, a wait or a denied action. */
export function isAction(step: { planned: { tool: string } | null; outcome: StepOutcome | null }): boolean {
  if (!step.outcome || !step.planned) return false;
  return !NOT_ACTIONS.has(toolKind(step.planned.tool)) && !isDenied(step.outcome);
}

/** Every turn of the task, also when its record holds only a page of them. */
export function turnCount(record: Pick<TaskRecord, 'steps' | 'page'>): number {
  return record.page ? record.page.turnCount : record.steps.length;
}

/** Every action of the task, also when its record holds only a page of its turns. */
export function actionCount(record: Pick<TaskRecord, 'steps' | 'page'>): number {
  return record.page ? record.page.actionCount : record.steps.filter(isAction).length;
}
