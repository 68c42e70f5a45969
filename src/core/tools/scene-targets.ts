import { elementLabel, type Scene, type SceneElement } from '../../shared/scene';
import type { Point } from './gestures';
import { InvalidCall, invalidCall, type ScreenSize } from './tool';
import { say } from '../../shared/said';

/**
 * The Scene element with this id that an action can reach, or a clear error: naming the ids that exist this turn, or
 * the dialog in front of an element it covers.
 */
export function findElement(id: string, scene: Scene | null): SceneElement {
  if (!scene) throw invalidCall(say('step.noSceneForId', { id }));
  const element = scene.elements.find((candidate) => candidate.id === id);
  if (!element) {
    const last = scene.elements.length;
    throw invalidCall(last ? say('step.noSuchElement', { id, last }) : say('step.noSuchElementEmpty', { id }));
  }
  if (element.covered) throw new InvalidCall(coveredWords(element, scene));
  return element;
}

/** Why an element under a dialog is not acted on: a tap there lands on the dialog (or closes it), never on the element. */
function coveredWords(element: SceneElement, scene: Scene): string {
  const inFront = scene.screen.dialog === undefined ? 'a dialog or pop-up' : `the dialog '${scene.screen.dialog}'`;
  return `${element.id} (${elementLabel(element)}) is behind ${inFront}: a tap there would land on it, not on ${element.id}. Answer or close it first.`;
}

export function checkOnScreen(point: Point, screen: ScreenSize): void {
  if (point.x < 0 || point.y < 0 || point.x >= screen.width || point.y >= screen.height) {
    throw invalidCall(say('step.offScreen', { x: point.x, y: point.y, width: screen.width, height: screen.height }));
  }
}

/** The smallest element containing the point (for labelling coordinate taps). */
export function elementAt(scene: Scene, point: Point): SceneElement | undefined {
  let best: SceneElement | undefined;
  let bestArea = Infinity;
  for (const element of scene.elements) {
    const [left, top, right, bottom] = element.bounds;
    if (point.x < left || point.x >= right || point.y < top || point.y >= bottom) continue;
    const area = (right - left) * (bottom - top);
    if (area < bestArea) [best, bestArea] = [element, area];
  }
  return best;
}
