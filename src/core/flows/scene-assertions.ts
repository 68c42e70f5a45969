import type { Assertion, FlowCondition, Locator } from '../../shared/flow';
import { evaluate } from './flow-condition';
import { saidOf } from './flow-problem-said';
import { elementLabel, labelParts, type Scene, type SceneElement } from '../../shared/scene';
import type { CheckResult } from './flow-checks-port';
import { resolveLocator } from './locator';
import { locatorSaidValue } from './locator-said';
import { say, saidList, type Said, type SaidCode, type SaidValues } from '../../shared/said';

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

const holds = (code: SaidCode, values: SaidValues): CheckResult => {
  const { text, said } = say(code, values);
  return { holds: true, fact: text, said };
};
const fails = (code: SaidCode, values: SaidValues): CheckResult => {
  const { text, said } = say(code, values);
  return { holds: false, reason: text, said };
};

function visible(scene: Scene, wanted: string): CheckResult {
  const found = showing(scene, wanted);
  if (found.length) return holds('check.visible', { text: wanted, element: elementLabel(found[0]!) });
  const seen = [...new Set(scene.elements.flatMap(shownTexts))].slice(0, TEXTS_SHOWN).map((text) => `"${text}"`);
  if (!seen.length) return fails('check.notVisibleNoText', { text: wanted });
  return fails('check.notVisible', { text: wanted, texts: `${seen.join(', ')}${scene.elements.length > TEXTS_SHOWN ? ' …' : ''}` });
}

function absent(scene: Scene, unwanted: string): CheckResult {
  const found = showing(scene, unwanted);
  return found.length ? fails('check.visible', { text: unwanted, element: elementLabel(found[0]!) }) : holds('check.absent', { text: unwanted });
}

/** The element the locator finds (the replay's matcher: it never picks among several) is in the wanted state. */
function inState(scene: Scene, locator: Locator, wanted: boolean): CheckResult {
  const found = resolveLocator(scene, locator);
  if (found.kind !== 'found') return { holds: false, reason: found.reason, said: found.said };
  const element = elementLabel(found.element);
  const state = found.element.checked;
  if (state === undefined) return fails('check.notSwitch', { element });
  if (state === wanted) return holds(state ? 'flowRun.isOn' : 'flowRun.isOff', { element });
  return fails(state ? 'check.onNotOff' : 'check.offNotOn', { element });
}

/** Whether an element the locator matches is on screen (`present`), or none is. */
function located(scene: Scene, locator: Locator, present: boolean): CheckResult {
  const found = resolveLocator(scene, locator);
  const whatSaid = locatorSaidValue(locator);
  const shown = found.kind === 'found' ? say('check.located', { whatSaid, element: elementLabel(found.element) }) : found.kind === 'ambiguous' ? say('check.locatedSeveral', { whatSaid, count: found.candidates.length }) : undefined;
  if (present) {
    if (shown) return { holds: true, fact: shown.text, said: shown.said };
    return found.kind === 'missing' ? { holds: false, reason: found.reason, said: found.said } : fails('check.notLocated', { whatSaid });
  }
  return shown ? { holds: false, reason: shown.text, said: shown.said } : holds('check.notLocated', { whatSaid });
}

function conditionHolds(condition: FlowCondition): CheckResult {
  const value = evaluate(condition);
  if (typeof value !== 'boolean') return { holds: false, reason: value.message, said: saidOf(value) };
  const shown = condition.values.map((item) => JSON.stringify(item)).join(', ');
  if (value) return holds('check.conditionHolds', { written: condition.written, values: shown });
  return shown ? fails('check.conditionFalse', { written: condition.written, values: shown }) : fails('check.conditionFalseNoValues', { written: condition.written });
}

function inFront(scene: Scene, app: string): CheckResult {
  const front = scene.screen.package;
  if (front === app) return holds('flowRun.appInFront', { app });
  return front ? fails('check.otherAppInFront', { front, app }) : fails('check.noAppInFront', { app });
}

/** The conditions' codes as one message, when each has one. */
function allSaid(results: readonly CheckResult[]): { said?: Said } {
  const said = results.map((result) => result.said);
  if (said.some((one) => one === undefined)) return {};
  return said.length === 1 ? { said: said[0]! } : { said: say('flowRun.all', { factsSaid: saidList(said as Said[]) }).said };
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
  const failed = results.filter((result) => !result.holds);
  if (failed.length) return { holds: false, reason: failed.map((result) => (result.holds ? '' : result.reason)).join('; '), ...allSaid(failed) };
  return { holds: true, fact: results.map((result) => (result.holds ? result.fact : '')).join('; '), ...allSaid(results) };
}
