import { elementLabel, type Scene, type SceneElement } from '../../shared/scene';
import type { Point } from './gestures';
import { InvalidCall, type ScreenSize } from './tool';

/**
 * The Scene element with this id that an action can reach, or a clear error: naming the ids that exist this turn, or
 * the dialog in front of an element it covers.
 */
export function findElement(id: string, scene: Scene | null): SceneElement {
  if (!scene) {
    throw new InvalidCall(`There is no Scene this turn, so element id ${id} cannot be resolved; use x and y instead.`);
  }
  const element = scene.elements.find((candidate) => candidate.id === id);
  if (!element) {
    const range = scene.elements.length ? `e1 to e${scene.elements.length}` : 'none';
    throw new InvalidCall(`There is no element ${id} in this turn's Scene (ids: ${range}). Ids change every turn.`);
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
    throw new InvalidCall(
      `Point (${point.x}, ${point.y}) is outside the ${screen.width}x${screen.height} screen; coordinates are device pixels.`,
    );
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
