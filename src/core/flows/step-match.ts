import { POINT_PATTERN, type ActionStep } from '../../shared/flow';
import type { Scene, SceneElement } from '../../shared/scene';
import { decideAction } from '../runtime/action-policy';
import type { ToolCatalog } from '../tools/tool';
import { describeLocator, resolveLocator } from './locator';

/**
 * A recorded action step on one Scene: done already (its recorded outcome holds), an element (or none, for a step that
 * aims at no element) to act on, or why not, and whether waiting for the screen may help. Acts only on an element the
 * step's locator finds alone in the state it was recorded in; a sensitive step never on one of several look-alikes.
 */
export type StepMatch =
  | { kind: 'done'; words: string }
  | { kind: 'act'; element: SceneElement | undefined }
  | { kind: 'miss'; reason: string; wait: boolean };

const onOff = (checked: boolean | undefined) => (checked ? 'on' : 'off');

/** What a recorded action finds on one Scene; `words` names the action. */
export function matchStep(step: ActionStep, words: string, scene: Scene, tools: ToolCatalog): StepMatch {
  const found = step.target ? resolveLocator(scene, step.target) : null;
  const element = found?.kind === 'found' ? found.element : undefined;
  const done = outcomeHolds(step, scene, element);
  if (done) return { kind: 'done', words: done };
  if (found && found.kind !== 'found') return { kind: 'miss', reason: found.reason, wait: true };
  if (found?.singledOutAmong && sensitive(step, scene, found.element, tools)) {
    const alike = describeLocator({ ...step.target!, distinguishedBy: undefined });
    return { kind: 'miss', reason: `${found.singledOutAmong} elements match ${alike}, and a sensitive step is never taken on one of several look-alikes`, wait: false };
  }
  // A point a person wrote (`tap: {x, y}`, `point: 50%,50%`) is theirs to choose; a recorded one is never kept.
  const written = step.point !== undefined || (step.args.x !== undefined && step.args.y !== undefined);
  if (!step.target && !written && tools.get(step.tool)?.aim === 'element') return { kind: 'miss', reason: `${words} names no element, and a replay does not act on a point it cannot name`, wait: false };
  if (element && step.before?.checked !== undefined && element.checked !== step.before.checked) {
    return { kind: 'miss', reason: `${describeLocator(step.target!)} is ${onOff(element.checked)}, not ${onOff(step.before.checked)} as when the flow was recorded`, wait: true };
  }
  return { kind: 'act', element };
}

/** Whether the step on `element` is one the sensitive-action policy asks a person about (deleting, sending, paying…). */
function sensitive(step: ActionStep, scene: Scene, element: SceneElement, tools: ToolCatalog): boolean {
  const call = { name: step.tool, args: { ...step.args, element_id: element.id } };
  return decideAction({ call, scene, mode: 'sensitive', allowedApps: null, tools }).decision === 'confirm';
}

/** The step's recorded outcome, when it already holds on this Scene, in words ("'Wi-Fi' is on"); null otherwise. */
function outcomeHolds(step: ActionStep, scene: Scene, element: SceneElement | undefined): string | null {
  const expect = step.expect;
  if (!expect) return null;
  const named = step.target ? describeLocator(step.target) : 'the field';
  if (expect.checked !== undefined) return element && element.checked === expect.checked ? `${named} is ${onOff(expect.checked)}` : null;
  if (expect.fieldText !== undefined) return element?.editable && element.text === expect.fieldText ? `${named} shows "${expect.fieldText}"` : null;
  if (expect.app !== undefined) return scene.screen.package === expect.app ? `${expect.app} is in front` : null;
  return null;
}

/** A written point (`50%,50%` or `540,1200`) in this screen's pixels. */
export function pointOn(point: string, scene: Scene): { x: number; y: number } {
  const [, x, xPercent, y, yPercent] = POINT_PATTERN.exec(point)!;
  const { width, height } = scene.screen;
  const at = (value: string, percent: string, size: number) => Math.round(percent ? (Number(value) / 100) * (size - 1) : Number(value));
  return { x: at(x!, xPercent!, width), y: at(y!, yPercent!, height) };
}
