import { stepPhrase, targetElement } from '../../../../shared/action-words';
import { isFinish } from '../../../../shared/tool-vocabulary';
import type { Words } from '../../../../shared/i18n/translate';
import { saidWords } from '../../../../shared/supervision-words';
import { elementLabel, type Bounds } from '../../../../shared/scene';
import type { PlannerInfo, StepRecord, TaskRecord } from '../../../../shared/task';
import { usesModel } from '../../../../shared/task-words';

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
export function reasoningUnavailableReason(planner: PlannerInfo, { t }: Words): string | null {
  if (planner.kind === 'stub') return t('app:timeline.noReasoningStub');
  if (planner.kind === 'replay' && !usesModel(planner)) return t('app:timeline.noReasoningReplay');
  if (!planner.exposesReasoning) {
    return t(planner.transport === 'cloud-proxy' ? 'app:timeline.noReasoningProxy' : 'app:timeline.noReasoningTransport');
  }
  return null;
}

export type StepPhase = 'planning' | 'acting' | 'waiting' | 'done';

/** What a live card says it is doing. */
export const phaseWords = (phase: Exclude<StepPhase, 'done'>, { t }: Words): string => t(`app:timeline.phase.${phase}`);

/**
 * How far a turn has got: a live card says what it is waiting for. `waitingStep` is the turn whose question,
 * confirmation or hand-over the person has not answered yet (the task neither plans nor acts meanwhile).
 */
export function stepPhase(step: StepRecord, taskRunning: boolean, waitingStep: number | null = null): StepPhase {
  if (!taskRunning) return 'done';
  if (waitingStep === step.step) return 'waiting';
  if (!step.planned) return 'planning';
  if (!step.outcome && !isFinish(step.planned.tool)) return 'acting';
  return 'done';
}

/** One line for a turn as a person says it: what it did and to what, e.g. `Tap 'Network & internet'`, `Press Home`. */
export function stepSummary(step: StepRecord, words: Words): string {
  return stepPhrase(step, words) ?? words.t('app:timeline.noActionYet');
}

/** Why a turn was taken: the model's words as it said them, or a replayed step's in the window's language. */
export function rationaleWords(step: StepRecord, words: Words): string | null {
  const planned = step.planned;
  return planned?.rationale ? saidWords(planned.rationale, planned.rationaleSaid, words) : null;
}

/** The first line of the reason for a turn, for a closed card (the open card shows all of it). */
export function rationaleFirstLine(step: StepRecord, words: Words): string | null {
  return rationaleWords(step, words)?.split('\n').find((line) => line.trim())?.trim() ?? null;
}

/** Whether a task's steps are marked with where they came from: a replay, or a task where some step was not the model's. */
export function marksSources(task: Pick<TaskRecord, 'planner' | 'steps'>): boolean {
  return task.planner.kind === 'replay' || task.steps.some((step) => step.planned && step.planned.source !== 'model');
}
