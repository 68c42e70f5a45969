import { isActionStep, type FlowStep } from '../../shared/flow';
import { describeAction } from '../runtime/supervised-action';
import { blockSteps, isBlock } from './flow-cursor';
import { describeLocator } from './locator-said';

/** A flow step in English words, for the model's hints (a replay's report lines are by code: flow-step-said.ts). */

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
