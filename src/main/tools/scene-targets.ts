import type { Scene, SceneElement } from '../../shared/scene';
import type { Point } from './gestures';
import { InvalidCall, type ScreenSize } from './tool';

/** The Scene element with this id, or a clear error naming the ids that exist this turn. */
export function findElement(id: string, scene: Scene | null): SceneElement {
  if (!scene) {
    throw new InvalidCall(`There is no Scene this turn, so element id ${id} cannot be resolved; use x and y instead.`);
  }
  const element = scene.elements.find((candidate) => candidate.id === id);
  if (!element) {
    const range = scene.elements.length ? `e1 to e${scene.elements.length}` : 'none';
    throw new InvalidCall(`There is no element ${id} in this turn's Scene (ids: ${range}). Ids change every turn.`);
  }
  return element;
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
