import { FlowSchema, isActionStep, objectNameProblem, type ActionStep, type Assertion, type Flow, type FlowStep, type Locator } from '../../shared/flow';
import { labelParts, type Scene } from '../../shared/scene';
import type { TaskRecord } from '../../shared/task';
import { finishedVerdict } from '../../shared/verdict';
import { targetElement } from '../../shared/action-words';
import { isFinish } from '../../shared/tool-vocabulary';
import { flowFromRecord, appWorkedIn } from './flow-from-record';
import { referencedVariables, resolveVariables, writtenLiteral } from './flow-variables';

/**
 * A finished task as the flow a person keeps in a file (`amc flow export`, "Save as flow"), ready for CI: it opens the
 * recorded app first (never a launcher's icon), its one-off dialogs are optional (flow-from-record), each value it
 * typed is a variable declared at the top (`--var`/`-e` give another), the model's reasons are left out unless asked
 * for, and a run that was verified ends with an assert of what its last step achieved. Pure.
 */

export interface RecordedFlowFileOptions {
  /** Keep each step's recorded reason (`why:`), the model's words. */
  why?: boolean;
  /** The closing assert only as a text on the screen (a Maestro file checks texts, not apps or switches). */
  outcomeAsText?: boolean;
}

export function recordedFlowFile(record: TaskRecord, options: RecordedFlowFileOptions = {}): Flow {
  const flow = flowFromRecord(record);
  const app = appWorkedIn(record);
  const first = flow.steps[0];
  const opensApp = first !== undefined && isActionStep(first) && first.tool === 'launch_app';
  let steps: FlowStep[] = app && !opensApp ? [{ tool: 'launch_app', args: { app }, expect: { app } }, ...flow.steps] : flow.steps;
  if (!options.why) steps = steps.map((step) => (isActionStep(step) ? withoutWhy(step) : step));
  const outcome = finishedVerdict(record) === 'done' ? lastOutcome(record, steps, options.outcomeAsText ?? false) : null;
  if (outcome) steps = [...steps, { assert: outcome }];
  const { vars, goal, steps: named } = typedValuesAsVars(record, steps);
  return FlowSchema.parse({ ...flow, goal, ...(app && { app }), vars, steps: named });
}

function withoutWhy(step: ActionStep): ActionStep {
  const { why: _why, ...rest } = step;
  return rest;
}

/** What a person reads on a screen, outside fields (a field's text is what was typed, not what the app shows). */
function shownTexts(scene: Scene | null): string[] {
  if (!scene) return [];
  return scene.elements
    .filter((element) => !element.covered && element.window !== 'system' && !element.editable)
    .flatMap((element) => [...(element.text === undefined ? [] : labelParts(element.text)), ...(element.desc === undefined ? [] : [element.desc])])
    .map((text) => text.trim())
    .filter((text) => text.length > 0 && text.length <= 200);
}

/**
 * What the last action achieved, as an assert: the outcome the runtime verified after it (the app in front, a switch's
 * state, a field's text; only the text with `asText`), else a text its screen showed that the screen before it did not (a value typed earlier
 * first: the contact's name on its new page), else the app in front. Null when the run has no screen after it.
 */
function lastOutcome(record: TaskRecord, steps: readonly FlowStep[], asText: boolean): Assertion | null {
  const last = steps.findLast(isActionStep);
  if (last?.expect?.fieldText) return { visible: last.expect.fieldText };
  if (!asText && last?.expect?.app !== undefined) return { app: last.expect.app };
  if (!asText && last?.expect?.checked !== undefined && last.target) return last.expect.checked ? { checked: last.target } : { unchecked: last.target };
  const acted = record.steps.findLast((turn) => turn.outcome?.ok && turn.planned && !isFinish(turn.planned.tool) && turn.scene);
  const after = acted && record.steps.find((turn) => turn.step === acted.step + 1)?.scene;
  if (!acted || !after) return null;
  const before = new Set(shownTexts(acted.scene));
  const appeared = shownTexts(after).filter((text) => !before.has(text));
  const typed = typedValues(record);
  const shown = appeared.find((text) => typed.includes(text)) ?? appeared[0];
  return shown !== undefined ? { visible: writtenLiteral(shown) } : after.screen.package && !asText ? { app: after.screen.package } : null;
}

/** The texts the run typed, in order. */
function typedValues(record: TaskRecord): string[] {
  return record.steps.flatMap((turn) => (turn.outcome?.ok && turn.planned?.tool === 'type_text' && typeof turn.planned.args.text === 'string' ? [turn.planned.args.text] : []));
}

/** A variable's name from the field a value was typed into (`editor_name`, `hint: Phone` → `phone`), unique in `taken`. */
function variableName(target: Locator | undefined, taken: ReadonlySet<string>): string {
  const source = target?.hint ?? target?.resourceId ?? target?.desc ?? target?.row ?? target?.label ?? '';
  let base = source.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 60);
  if (!base) base = 'text';
  else if (/^\d/.test(base)) base = `field_${base}`;
  if (objectNameProblem(base)) base = `${base}_value`;
  let name = base;
  for (let count = 2; taken.has(name); count++) name = `${base}_${count}`;
  return name;
}

const escapedForPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Fields that name the step's kind or the phone's own names (a tool, a widget class, a package, an id): never a value typed. */
const NOT_VALUES = new Set(['tool', 'type', 'app', 'resourceId']);
/** Every string in a step that is exactly `typed`, as `reference` (`${name}`). */
function referring<T>(value: T, typed: string, reference: string): T {
  if (typeof value === 'string') return (value === typed ? reference : value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => referring(item, typed, reference)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, NOT_VALUES.has(key) ? item : referring(item, typed, reference)])) as T;
  }
  return value;
}

/**
 * Each value typed (a field's text) as a variable: declared with the recorded value, and referred to wherever a step
 * says exactly that value (the typing, the field's expected text, a later tap or assert on it) and where the goal
 * says it as a word of its own. A password field's value is never written: its variable is declared empty.
 */
function typedValuesAsVars(record: TaskRecord, steps: FlowStep[]): { vars: Record<string, string>; goal: string; steps: FlowStep[] } {
  const secret = new Set(record.steps.filter((turn) => turn.planned?.tool === 'type_text' && targetElement(turn)?.password).map((turn) => String(turn.planned!.args.text)));
  const vars: Record<string, string> = {};
  const named = new Map<string, string>();
  let goal = writtenLiteral(record.goal);
  let result = steps;
  for (const step of steps) {
    if (!isActionStep(step) || step.tool !== 'type_text' || typeof step.args.text !== 'string' || !step.args.text || named.has(step.args.text)) continue;
    // Typing a person rewrote to use a variable already says where its words come from.
    if (referencedVariables(step.args.text).length) continue;
    // The step says the value as a flow writes it; the variable holds it as typed.
    const typed = step.args.text;
    const asTyped = resolveVariables(typed, {});
    const name = variableName(step.target, new Set(Object.keys(vars)));
    named.set(typed, name);
    vars[name] = secret.has(asTyped) ? '' : asTyped;
    const reference = `\${${name}}`;
    result = result.map((each) => referring(each, typed, reference));
    goal = goal.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapedForPattern(typed)}(?![\\p{L}\\p{N}])`, 'gu'), reference);
  }
  return { vars, goal, steps: result };
}
