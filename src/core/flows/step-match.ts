import { POINT_PATTERN, type ActionStep } from '../../shared/flow';
import type { Scene, SceneElement } from '../../shared/scene';
import { decideAction } from '../runtime/action-policy';
import type { ToolCatalog } from '../tools/tool';
import { resolveLocator } from './locator';
import { locatorSaidValue } from './locator-said';
import { say, type Saying } from '../../shared/said';
import { sayActions } from '../../shared/supervision-words';

/**
 * A recorded action step on one Scene: done already (its recorded outcome holds), an element (or none, for a step that
 * aims at no element) to act on, or why not, and whether waiting for the screen may help. Acts only on an element the
 * step's locator finds alone in the state it was recorded in; a sensitive step never on one of several look-alikes.
 */
export type StepMatch =
  | { kind: 'done'; words: Saying }
  | { kind: 'act'; element: SceneElement | undefined }
  | { kind: 'miss'; reason: Saying; wait: boolean };

/** What a recorded action finds on one Scene; `call` is the action (`actionCall`). */
export function matchStep(step: ActionStep, call: string, scene: Scene, tools: ToolCatalog): StepMatch {
  const found = step.target ? resolveLocator(scene, step.target) : null;
  const element = found?.kind === 'found' ? found.element : undefined;
  const done = outcomeHolds(step, scene, element);
  if (done) return { kind: 'done', words: done };
  if (found && found.kind !== 'found') return { kind: 'miss', reason: { text: found.reason, said: found.said }, wait: true };
  if (found?.singledOutAmong && sensitive(step, scene, found.element, tools)) {
    const alike = locatorSaidValue({ ...step.target!, distinguishedBy: undefined });
    return { kind: 'miss', reason: say('flowRun.sensitiveLookAlike', { count: found.singledOutAmong, whatSaid: alike }), wait: false };
  }
  // A point a person wrote (`tap: {x, y}`, `point: 50%,50%`) is theirs to choose; a recorded one is never kept.
  const written = step.point !== undefined || (step.args.x !== undefined && step.args.y !== undefined);
  if (!step.target && !written && tools.get(step.tool)?.aim === 'element') return { kind: 'miss', reason: sayActions('flowRun.noPoint', { actionCall: call }), wait: false };
  if (element && step.before?.checked !== undefined && element.checked !== step.before.checked) {
    return { kind: 'miss', reason: say(element.checked ? 'flowRun.onNotAsRecorded' : 'flowRun.offNotAsRecorded', { elementSaid: locatorSaidValue(step.target!) }), wait: true };
  }
  return { kind: 'act', element };
}

/** Whether the step on `element` is one the sensitive-action policy asks a person about (deleting, sending, paying…). */
function sensitive(step: ActionStep, scene: Scene, element: SceneElement, tools: ToolCatalog): boolean {
  const call = { name: step.tool, args: { ...step.args, element_id: element.id } };
  return decideAction({ call, scene, mode: 'sensitive', allowedApps: null, tools }).decision === 'confirm';
}

/** The step's recorded outcome, when it already holds on this Scene, in words ("'Wi-Fi' is on"); null otherwise. */
function outcomeHolds(step: ActionStep, scene: Scene, element: SceneElement | undefined): Saying | null {
  const expect = step.expect;
  if (!expect) return null;
  // An element is only found by the step's locator, which names it.
  const elementSaid = () => locatorSaidValue(step.target!);
  if (expect.checked !== undefined) return element && element.checked === expect.checked ? say(expect.checked ? 'flowRun.isOn' : 'flowRun.isOff', { elementSaid: elementSaid() }) : null;
  if (expect.fieldText !== undefined) return element?.editable && element.text === expect.fieldText ? say('flowRun.fieldShows', { elementSaid: elementSaid(), text: expect.fieldText }) : null;
  if (expect.app !== undefined) return scene.screen.package === expect.app ? say('flowRun.appInFront', { app: expect.app }) : null;
  return null;
}

/** A written point (`50%,50%` or `540,1200`) in this screen's pixels. */
export function pointOn(point: string, scene: Scene): { x: number; y: number } {
  const [, x, xPercent, y, yPercent] = POINT_PATTERN.exec(point)!;
  const { width, height } = scene.screen;
  const at = (value: string, percent: string, size: number) => Math.round(percent ? (Number(value) / 100) * (size - 1) : Number(value));
  return { x: at(x!, xPercent!, width), y: at(y!, yPercent!, height) };
}
