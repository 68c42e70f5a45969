import { isActionStep, type FlowStep, type StepCondition } from '../../shared/flow';
import { describeAction } from '../runtime/supervised-action';
import { blockSteps, isBlock, type Frame } from './flow-cursor';
import { describeLocator } from './locator';

/** A flow step in English words: for the model's hints, and for a replay's report lines. */

export const stepWords = (index: number) => `Step ${index + 1}`;

export const conditionWords = (condition: StepCondition) => (condition.visible !== undefined ? `"${condition.visible}" is on screen` : `"${condition.not_visible}" is not on screen`);

/** A step as the model's hint lists it. */
export function stepHint(step: FlowStep): string {
  if (isActionStep(step)) return describeAction(step.tool, step.args, step.target && describeLocator(step.target));
  if ('ai' in step) return step.ai;
  if ('assert' in step) return `check ${JSON.stringify(step.assert)}`;
  if ('wait_until' in step) return `wait until ${JSON.stringify(step.wait_until)}`;
  if ('wait_for_settle' in step) return 'wait for the screen to settle';
  if ('copy_text' in step) return `copy the words of ${describeLocator(step.copy_text.from)}`;
  if ('screenshot' in step) return `save a screenshot named ${step.screenshot}`;
  if ('scroll_until_visible' in step) return `scroll ${step.scroll_until_visible.direction} until ${describeLocator(step.scroll_until_visible.target)} shows`;
  if (isBlock(step)) return blockSteps(step).map(stepHint).join(', then ');
  return `answer "${step.ask_ai.question}"`;
}

/** How a finished block went, for its report line. */
export function blockDoneWords(frame: Frame): string {
  if ('repeat' in frame.block) return `repeated ${frame.round} ${frame.round === 1 ? 'time' : 'times'}`;
  if ('retry' in frame.block) return frame.round ? `passed on try ${frame.round + 1}` : 'passed on the first try';
  return frame.block.run_flow.file ? `the steps of ${frame.block.run_flow.file} passed` : 'its steps passed';
}
