import { elementLabel, type Bounds, type SceneElement } from '../../../../shared/scene';
import type { PlannerInfo, StepRecord } from '../../../../shared/task';
import { formatArgs } from '../../lib/format';

/** The Scene element a turn's action was aimed at: by the planner's `element_id`, else by the executor's target. */
export function targetElement(step: StepRecord): SceneElement | undefined {
  const elements = step.scene?.elements ?? [];
  const requested = step.planned?.args.element_id;
  const id = typeof requested === 'string' ? requested : step.outcome?.target?.elementId;
  return id ? elements.find((element) => element.id === id) : undefined;
}

/** Words for the element the action touched, e.g. `Button "Save"`, or null when it acted on no element. */
export function targetDescription(step: StepRecord): string | null {
  const element = targetElement(step);
  if (element) return elementLabel(element);
  return step.outcome?.target?.label ?? null;
}

/** Where on the screen the action landed (device pixels), when known. */
export function targetPoint(step: StepRecord): { x: number; y: number; bounds?: Bounds } | null {
  const element = targetElement(step);
  const target = step.outcome?.target;
  if (target) return { x: target.x, y: target.y, bounds: element?.bounds };
  if (element) {
    const [left, top, right, bottom] = element.bounds;
    return { x: Math.round((left + right) / 2), y: Math.round((top + bottom) / 2), bounds: element.bounds };
  }
  const { x, y } = step.planned?.args ?? {};
  return typeof x === 'number' && typeof y === 'number' ? { x, y } : null;
}

/** Why a turn shows no rationale or thinking: told apart so "none given" never reads as "hidden". */
export function reasoningUnavailableReason(planner: PlannerInfo): string | null {
  if (planner.kind === 'stub') return 'Not available: the built-in planner follows fixed rules and does not reason in words.';
  if (!planner.exposesReasoning) {
    return planner.transport === 'cloud-proxy'
      ? 'Not available: the cloud-proxy transport returns only the chosen action, not the model\u2019s text or thinking.'
      : 'Not available: this planner\u2019s transport does not expose the model\u2019s text or thinking.';
  }
  return null;
}

export type StepPhase = 'planning' | 'acting' | 'waiting' | 'done';

/** What a live card says it is doing. */
export const PHASE_WORDS: Record<Exclude<StepPhase, 'done'>, string> = { planning: 'Planning…', acting: 'Acting…', waiting: 'Waiting for you' };

/**
 * How far a turn has got: a live card says what it is waiting for. `waitingStep` is the turn whose question,
 * confirmation or hand-over the person has not answered yet (the task neither plans nor acts meanwhile).
 */
export function stepPhase(step: StepRecord, taskRunning: boolean, waitingStep: number | null = null): StepPhase {
  if (!taskRunning) return 'done';
  if (waitingStep === step.step) return 'waiting';
  if (!step.planned) return 'planning';
  if (!step.outcome && step.planned.tool !== 'finish_task') return 'acting';
  return 'done';
}

/** Tools that only look or wait: they are not expected to change the screen, and send nothing to retry. */

/** One line for a turn: what it did and to what, e.g. `tap on Button "Save"`, or `press_key(key="home")`. */
export function stepSummary(step: StepRecord): string {
  const planned = step.planned;
  if (!planned) return 'no action yet';
  const target = targetDescription(step);
  if (target) return `${planned.tool} on ${target}`;
  return Object.keys(planned.args).length > 0 ? `${planned.tool}(${formatArgs(planned.args)})` : planned.tool;
}
