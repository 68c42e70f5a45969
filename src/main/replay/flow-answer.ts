import type { FlowAnswer } from '../../shared/flow';
import { labelParts, type Scene } from '../../shared/scene';
import type { TaskRecord } from '../../shared/task';
import { FINISH_TASK } from '../runtime/prompt';
import { describeLocator, locatorFor, resolveLocator } from './locator';

/**
 * A question task's answer in a flow: where on the last screen the task read it, so that a replay answers with what
 * that place shows on its own phone. Pure.
 */

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `part` standing whole in a text: "14" in "Android 14", not in "140". */
const whole = (part: string) => new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(part)}($|[^\\p{L}\\p{N}])`, 'iu');
const standsIn = (part: string, text: string) => whole(part).test(text);
/** A label's parts; a field's text is its content, one part (nothing folds into a field). */
const partsOf = (text: string, editable: boolean | undefined) => (editable ? [text] : labelParts(text));

/**
 * Where the answer of a successful task was read: the longest label part on the screen it finished on that stands
 * whole in its answer, on an element a locator can find again. Undefined when nothing on that screen is in the answer.
 */
export function answerOf(record: TaskRecord): FlowAnswer | undefined {
  const answer = record.status === 'completed' ? record.result?.trim() : undefined;
  const scene = record.steps.findLast((turn) => turn.planned?.tool === FINISH_TASK)?.scene;
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
export function answerNow(answer: FlowAnswer, scene: Scene): { text: string } | { problem: string } {
  const found = resolveLocator(scene, answer.from);
  if (found.kind !== 'found') return { problem: `the answer was read from ${describeLocator(answer.from)}: ${found.reason}` };
  const now = found.element.text === undefined ? undefined : partsOf(found.element.text, found.element.editable)[answer.part]?.trim();
  if (!now) return { problem: `${describeLocator(answer.from)} no longer shows the part the answer was read from` };
  if (!standsIn(answer.read, answer.text)) return { text: now };
  return { text: answer.text.replace(whole(answer.read), (_match, before: string, after: string) => `${before}${now}${after}`) };
}
