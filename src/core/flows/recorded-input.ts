import type { ToolCall } from '../../shared/action';
import type { MirrorKey } from '../../shared/contract/devices';
import { objectNameProblem, type ActionStep, type FlowStep, type Locator } from '../../shared/flow';
import type { CheckKind, RecordedNote } from '../../shared/recording';
import { elementName, labelParts, type Scene, type SceneElement } from '../../shared/scene';
import { locatorFor, resolveLocator } from './locator';
import { joinedWritten } from './flow-variables';
import { centreOf, elementAtPoint, type MirrorPoint } from './element-locator';

/**
 * A person's input on the mirror while recording, as the call carried out on the phone and the flow step it
 * becomes. The step names its element by the locator a recorded model step would get; the element is the one the
 * person saw under the pointer (on `seen`, the screen read after their previous input), found again on `now` (the
 * screen read just before this input): where it moved meanwhile, the input is aimed at where it is now, never at
 * whatever took its place. Pure.
 */

export type MirrorInput =
  | { kind: 'tap'; x: number; y: number }
  | { kind: 'longPress'; x: number; y: number }
  | { kind: 'swipe'; fromX: number; fromY: number; toX: number; toY: number; durationMs?: number }
  | { kind: 'key'; key: MirrorKey }
  | { kind: 'text'; text: string };

export interface RecordedInput {
  /** What is carried out on the phone (a tap may be aimed anew at an element that moved). */
  call: ToolCall;
  step: ActionStep;
  note?: RecordedNote;
}

const contains = ({ bounds: [left, top, right, bottom] }: SceneElement, { x, y }: MirrorPoint) => x >= left && x < right && y >= top && y < bottom;

/** The element the person meant at `point` and where it is on `now`: their screen's element found again, else now's. */
function meantElement(seen: Scene | null, now: Scene | null, point: MirrorPoint): { element: SceneElement; scene: Scene; moved: boolean } | null {
  const sawn = seen ? elementAtPoint(seen, point) : undefined;
  const sawnLocator = seen && sawn ? locatorFor(seen, sawn) : null;
  if (now && sawnLocator) {
    const found = resolveLocator(now, sawnLocator);
    if (found.kind === 'found') return { element: found.element, scene: now, moved: !contains(found.element, point) };
  }
  const under = now ? elementAtPoint(now, point) : undefined;
  if (now && under) return { element: under, scene: now, moved: false };
  // No screen read now (the read failed): the person's own screen is the best account of what they touched.
  return seen && sawn ? { element: sawn, scene: seen, moved: false } : null;
}

/** The way a finger moved, as the swipe tool names it. */
function directionOf({ fromX, fromY, toX, toY }: Extract<MirrorInput, { kind: 'swipe' }>): 'up' | 'down' | 'left' | 'right' {
  const dx = toX - fromX;
  const dy = toY - fromY;
  if (Math.abs(dx) > Math.abs(dy)) return dx > 0 ? 'right' : 'left';
  return dy > 0 ? 'down' : 'up';
}

/** A tap or a touch and hold on the element the person meant, named by its locator (its point only where none names it alone). */
function touched(tool: 'tap' | 'long_press', seen: Scene | null, now: Scene | null, point: MirrorPoint): RecordedInput {
  const meant = meantElement(seen, now, point);
  const locator = meant ? locatorFor(meant.scene, meant.element) : null;
  const aim = meant?.moved ? centreOf(meant.element) : { x: point.x, y: point.y };
  const call: ToolCall = { name: tool, args: { x: aim.x, y: aim.y } };
  if (!locator) return { call, step: { tool, args: {}, point: `${point.x},${point.y}` }, note: 'point' };
  const checked = meant!.element.checked;
  const step: ActionStep = { tool, args: {}, target: locator, ...(tool === 'tap' && checked !== undefined && { before: { checked } }) };
  return { call, step, ...(meant!.moved && { note: 'moved' as const }) };
}

export function recordedInput(seen: Scene | null, now: Scene | null, input: MirrorInput): RecordedInput {
  switch (input.kind) {
    case 'tap':
      return touched('tap', seen, now, input);
    case 'longPress':
      return touched('long_press', seen, now, input);
    case 'swipe': {
      const { fromX, fromY, toX, toY, durationMs } = input;
      const call: ToolCall = { name: 'swipe', args: { from_x: fromX, from_y: fromY, to_x: toX, to_y: toY, ...(durationMs !== undefined && { duration_ms: durationMs }) } };
      return { call, step: { tool: 'swipe', args: { direction: directionOf(input) } } };
    }
    case 'key':
      return { call: { name: 'press_key', args: { key: input.key } }, step: { tool: 'press_key', args: { key: input.key } } };
    case 'text':
      return { call: { name: 'type_text', args: { text: input.text } }, step: { tool: 'type_text', args: { text: input.text } } };
  }
}

/** A home screen's package: a tap there that brings an app to the front is only the way into that app. */
const LAUNCHER = /launcher/i;

/**
 * The step once the screen after it was read: a tap on the home screen that opened an app becomes opening that app
 * (an icon's place is no way to find it again), and a tap that flipped a switch says the state it left.
 */
export function settledStep(step: ActionStep, before: Scene | null, after: Scene | null): { step: ActionStep; note?: RecordedNote } {
  if (!after || step.tool !== 'tap') return { step };
  const opened = after.screen.package;
  if (before && LAUNCHER.test(before.screen.package) && opened && opened !== before.screen.package && !LAUNCHER.test(opened)) {
    return { step: { tool: 'launch_app', args: { app: opened }, expect: { app: opened } }, note: 'launched' };
  }
  if (step.target && step.before?.checked !== undefined) {
    const found = resolveLocator(after, { ...step.target, distinguishedBy: undefined });
    if (found.kind === 'found' && found.element.checked !== undefined && found.element.checked !== step.before.checked) return { step: { ...step, expect: { checked: found.element.checked } } };
  }
  return { step };
}

/** Typing that goes on where the last step (as written) typed, keystroke by keystroke, is one step; `next` is as typed. */
export function joinedTyping(last: FlowStep | undefined, next: ActionStep): ActionStep | null {
  if (!last || !('tool' in last) || last.tool !== 'type_text' || next.tool !== 'type_text' || last.target || next.target) return null;
  return { ...last, args: { ...last.args, text: joinedWritten(String(last.args.text), String(next.args.text)) } };
}

/**
 * "Add check" on the element at `point`: an `assert` that its words show, or that it is checked as it is now; or,
 * for `text`, a copy_text step keeping its words in a variable not in `taken`. The reason when the element gives
 * nothing to check.
 */
export function checkAt(
  scene: Scene,
  point: MirrorPoint,
  kind: CheckKind,
  taken: ReadonlySet<string> = new Set(),
): { step: FlowStep } | { problem: 'nothing-here' | 'no-words' | 'not-checkable' | 'no-locator' } {
  const element = elementAtPoint(scene, point);
  if (!element) return { problem: 'nothing-here' };
  if (kind === 'text') return keptText(scene, element, taken);
  if (kind === 'visible') {
    const name = element.editable ? undefined : (element.text ? labelParts(element.text)[0] : undefined) ?? elementName(element);
    return name?.trim() ? { step: { assert: { visible: name.trim() } } } : { problem: 'no-words' };
  }
  if (element.checked === undefined) return { problem: 'not-checkable' };
  const locator: Locator | null = locatorFor(scene, element);
  if (!locator) return { problem: 'no-locator' };
  // The state it has now, without the state itself among the facts that name it (a check must not assume its answer).
  const { distinguishedBy, ...named } = locator;
  const facts = distinguishedBy && Object.fromEntries(Object.entries(distinguishedBy).filter(([fact]) => fact !== 'checked'));
  const target: Locator = { ...named, ...(facts && Object.keys(facts).length > 0 && { distinguishedBy: facts }) };
  return { step: { assert: element.checked ? { checked: target } : { unchecked: target } } };
}

/**
 * A copy_text of `element`: named by what does not change with its words where that names it alone (its id; the
 * words kept are what varies), else by its locator; kept in a variable named after it.
 */
function keptText(scene: Scene, element: SceneElement, taken: ReadonlySet<string>): { step: FlowStep } | { problem: 'no-words' | 'no-locator' } {
  const words = element.text ?? element.desc;
  if (!words?.trim()) return { problem: 'no-words' };
  const locator = locatorFor(scene, element);
  if (!locator) return { problem: 'no-locator' };
  const byId: Locator | null = element.resourceId ? { resourceId: locator.resourceId ?? element.resourceId, ...(locator.type && { type: locator.type }), ...(locator.app && { app: locator.app }) } : null;
  const found = byId && resolveLocator(scene, byId);
  const from = found?.kind === 'found' && found.element === element ? byId! : locator;
  return { step: { copy_text: { from, into: variableFor(from, taken) } } };
}

/** A variable's name from what names the element (`total_price` from its id, else its words), not in `taken`. */
function variableFor(locator: Locator, taken: ReadonlySet<string>): string {
  const source = locator.resourceId ?? locator.desc ?? locator.text ?? locator.label ?? locator.hint ?? locator.row ?? '';
  let base = source.replace(/^.*:id\//, '').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40);
  if (!/^[a-z]/.test(base)) base = `text${base ? `_${base}` : ''}`;
  if (objectNameProblem(base)) base = `${base}_text`;
  let name = base;
  for (let count = 2; taken.has(name); count++) name = `${base}_${count}`;
  return name;
}
