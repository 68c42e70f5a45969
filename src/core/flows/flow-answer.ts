import type { FlowAnswer } from '../../shared/flow';
import { isQuestionGoal } from '../../shared/verdict';
import { labelParts, type Scene } from '../../shared/scene';
import type { TaskRecord } from '../../shared/task';
import { isFinish } from '../../shared/tool-vocabulary';
import { locatorFor, resolveLocator } from './locator';
import { locatorSaidValue } from './locator-said';
import { say, type Saying } from '../../shared/said';
import { sayAbout } from './flow-step-said';

/**
 * A question task's answer in a flow: where on the last screen the task read it, so that a replay answers with what
 * that place shows on its own phone. Pure.
 */

const letterOrDigit = /[\p{L}\p{N}]/u;
/** Lower case letter by letter, keeping every index (a letter whose lower case is longer, such as "İ", stays). */
const caseless = (text: string) => text.replace(/[\s\S]/gu, (char) => (char.toLowerCase().length === char.length ? char.toLowerCase() : char));
/**
 * `part` standing whole in a text: "14" in "Android 14", not in "140". Searched for, not compiled into a pattern: a
 * label can be a pasted log of thousands of characters.
 */
function wholeAt(part: string, text: string): number {
  const haystack = caseless(text);
  const needle = caseless(part);
  if (!needle) return -1;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    if ((before === undefined || !letterOrDigit.test(before)) && (after === undefined || !letterOrDigit.test(after))) return at;
  }
  return -1;
}
const standsIn = (part: string, text: string) => wholeAt(part, text) >= 0;
/** A label's parts; a field's text is its content, one part (nothing folds into a field). */
const partsOf = (text: string, editable: boolean | undefined) => (editable ? [text] : labelParts(text));

/**
 * Where the answer of a successful question task was read: the longest label part on the screen it finished on that stands
 * whole in its answer, on an element a locator can find again. Undefined when nothing on that screen is in the answer.
 */
export function answerOf(record: TaskRecord): FlowAnswer | undefined {
  const answer = record.status === 'completed' && isQuestionGoal(record.goal) ? record.result?.trim() : undefined;
  const scene = record.steps.findLast((turn) => turn.planned && isFinish(turn.planned.tool))?.scene;
  if (!answer || !scene) return undefined;
  let best: { element: Scene['elements'][number]; part: number; read: string } | undefined;
  for (const element of scene.elements) {
    if (!element.text) continue;
    partsOf(element.text, element.editable).forEach((raw, part) => {
      const read = raw.trim();
      if (read && standsIn(read, answer) && read.length > (best?.read.length ?? 0)) best = { element, part, read };
    });
  }
  const from = best && locatorFor(scene, best.element);
  return best && from ? { text: answer, from, part: best.part, read: best.read } : undefined;
}

/** The answer as this screen gives it (the recorded words with the part read now in place of the part read then), or why not. */
export function answerNow(answer: FlowAnswer, scene: Scene): { text: string } | { problem: Saying } {
  const found = resolveLocator(scene, answer.from);
  if (found.kind !== 'found') return { problem: sayAbout('flowRun.answerNotFound', { whereSaid: locatorSaidValue(answer.from) }, { reasonSaid: { text: found.reason, said: found.said } }) };
  const now = found.element.text === undefined ? undefined : partsOf(found.element.text, found.element.editable)[answer.part]?.trim();
  if (!now) return { problem: say('flowRun.answerPartGone', { whereSaid: locatorSaidValue(answer.from) }) };
  const at = wholeAt(answer.read, answer.text);
  if (at < 0) return { text: now };
  return { text: `${answer.text.slice(0, at)}${now}${answer.text.slice(at + answer.read.length)}` };
}
