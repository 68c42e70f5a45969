import type { Assertion, FlowCondition, Locator } from '../../shared/flow';
import { evaluate } from './flow-condition';
import { elementLabel, labelParts, type Scene, type SceneElement } from '../../shared/scene';
import type { CheckResult } from './flow-checks-port';
import { describeLocator, resolveLocator } from './locator';

/**
 * An `assert` step judged in code on the turn's Scene: no model, and a fact in plain words either way, so a failed
 * check in a CI log says what the screen showed instead.
 */

/** How many of the screen's texts a failed `visible` names, so the reason stays one line. */
const TEXTS_SHOWN = 6;

/** What an element shows a person: each part of a merged row, its description and its placeholder. */
function shownTexts(element: SceneElement): string[] {
  const texts = element.text === undefined ? [] : element.editable ? [element.text] : labelParts(element.text);
  return [...texts, element.desc, element.hint].filter((text): text is string => Boolean(text?.trim()));
}

const showing = (scene: Scene, wanted: string) => scene.elements.filter((element) => shownTexts(element).some((text) => text.toLowerCase().includes(wanted.toLowerCase())));

function visible(scene: Scene, wanted: string): CheckResult {
  const found = showing(scene, wanted);
  if (found.length) return { holds: true, fact: `"${wanted}" is on screen (${elementLabel(found[0]!)})` };
  const seen = [...new Set(scene.elements.flatMap(shownTexts))].slice(0, TEXTS_SHOWN).map((text) => `"${text}"`);
  return { holds: false, reason: `no "${wanted}" on screen; ${seen.length ? `it shows ${seen.join(', ')}${scene.elements.length > TEXTS_SHOWN ? ' …' : ''}` : 'the screen shows no text'}` };
}

function absent(scene: Scene, unwanted: string): CheckResult {
  const found = showing(scene, unwanted);
  return found.length ? { holds: false, reason: `"${unwanted}" is on screen (${elementLabel(found[0]!)})` } : { holds: true, fact: `no "${unwanted}" on screen` };
}

/** The element the locator finds (the replay's matcher: it never picks among several) is in the wanted state. */
function inState(scene: Scene, locator: Locator, wanted: boolean): CheckResult {
  const found = resolveLocator(scene, locator);
  if (found.kind !== 'found') return { holds: false, reason: found.reason };
  const label = elementLabel(found.element);
  const state = found.element.checked;
  if (state === undefined) return { holds: false, reason: `${label} cannot be checked or unchecked (it is not a switch, checkbox or radio button)` };
  const words = (checked: boolean) => (checked ? 'on' : 'off');
  return state === wanted ? { holds: true, fact: `${label} is ${words(state)}` } : { holds: false, reason: `${label} is ${words(state)}, not ${words(wanted)}` };
}

/** Whether an element the locator matches is on screen (`present`), or none is. */
function located(scene: Scene, locator: Locator, present: boolean): CheckResult {
  const found = resolveLocator(scene, locator);
  const what = describeLocator(locator);
  const shown = found.kind === 'found' ? elementLabel(found.element) : found.kind === 'ambiguous' ? `${found.candidates.length} of them` : undefined;
  if (present) return shown ? { holds: true, fact: `${what} is on screen (${shown})` } : { holds: false, reason: found.kind === 'missing' ? found.reason : `no ${what} on screen` };
  return shown ? { holds: false, reason: `${what} is on screen (${shown})` } : { holds: true, fact: `no ${what} on screen` };
}

function conditionHolds(condition: FlowCondition): CheckResult {
  const value = evaluate(condition);
  if (typeof value !== 'boolean') return { holds: false, reason: value.message };
  const shown = condition.values.map((item) => JSON.stringify(item)).join(', ');
  return value ? { holds: true, fact: `${condition.written} holds (${shown})` } : { holds: false, reason: `${condition.written} is false (${shown || 'no values'})` };
}

function inFront(scene: Scene, app: string): CheckResult {
  const front = scene.screen.package;
  return front === app ? { holds: true, fact: `${app} is in front` } : { holds: false, reason: `${front || 'no app'} is in front, not ${app}` };
}

/** Every condition of the assertion, in the order it lists them; it holds when all of them do. */
export function checkAssertion(scene: Scene, assertion: Assertion): CheckResult {
  const results: CheckResult[] = [];
  if (assertion.visible !== undefined) results.push(visible(scene, assertion.visible));
  if (assertion.absent !== undefined) results.push(absent(scene, assertion.absent));
  if (assertion.checked) results.push(inState(scene, assertion.checked, true));
  if (assertion.unchecked) results.push(inState(scene, assertion.unchecked, false));
  if (assertion.element) results.push(located(scene, assertion.element, true));
  if (assertion.no_element) results.push(located(scene, assertion.no_element, false));
  if (assertion.app !== undefined) results.push(inFront(scene, assertion.app));
  if (assertion.condition) results.push(conditionHolds(assertion.condition));
  const failed = results.flatMap((result) => (result.holds ? [] : [result.reason]));
  if (failed.length) return { holds: false, reason: failed.join('; ') };
  return { holds: true, fact: results.map((result) => (result.holds ? result.fact : '')).join('; ') };
}
