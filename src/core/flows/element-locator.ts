import { stringify } from 'yaml';
import type { ActionStep, Locator } from '../../shared/flow';
import type { Scene, SceneElement } from '../../shared/scene';
import { elementAt } from '../../shared/scene-tree';
import { locatorFor } from './locator';
import { writtenLiterals } from './flow-variables';
import { stepLabel } from './flow-to-yaml';
import { maestroSelector, NotExpressibleInMaestro } from './maestro-export';

/**
 * The element under a point of the mirror and the locator a flow names it by, in both flow syntaxes: what a
 * recorded step keeps (recording) and what Inspect shows and copies. One rule for both, so a copied locator and a
 * recorded step never disagree. Pure.
 */

export interface MirrorPoint {
  x: number;
  y: number;
}

export interface ElementLocator {
  element: SceneElement;
  /** The smallest locator that names the element alone on its Scene; null when none does (then only its point can). */
  locator: Locator | null;
  /** The centre of the element's bounds, in device pixels. */
  point: MirrorPoint;
  /** A tap on it in our flow syntax: `tap: { text: Wi-Fi, type: Switch }`, or `tap: { point: "540,1200" }` without a locator. */
  flowStep: string;
  /** A tap on it as a Maestro command (`tapOn: { text: Wi-Fi }`), or null when Maestro cannot name it (see maestroProblem). */
  maestroStep: string | null;
  /** Why Maestro's words cannot name it (its locator needs a row or neighbours, or there is none). */
  maestroProblem?: string;
}

/**
 * The element a touch at `point` reaches (the smallest one under it that can be acted on, else the smallest): the
 * rule lives in src/shared/scene-tree.ts, so Inspect's outline in the window and a recorded tap pick the same element.
 */
export const elementAtPoint: (scene: Scene, point: MirrorPoint) => SceneElement | undefined = elementAt;

export const centreOf = ({ bounds: [left, top, right, bottom] }: SceneElement): MirrorPoint => ({ x: Math.round((left + right) / 2), y: Math.round((top + bottom) / 2) });

/** The element's locator on `scene` and a tap on it in both syntaxes. */
export function locatorForElement(scene: Scene, element: SceneElement): ElementLocator {
  const locator = locatorFor(scene, element);
  const point = centreOf(element);
  const step: ActionStep = locator ? { tool: 'tap', args: {}, target: locator } : { tool: 'tap', args: {}, point: `${point.x},${point.y}` };
  const maestro = maestroTap(locator);
  return { element, locator, point, flowStep: stepLabel(writtenLiterals(step)), ...maestro };
}

/** The element at `point` and its locator, or null where the point lies on no element. */
export function locatorAtPoint(scene: Scene, point: MirrorPoint): ElementLocator | null {
  const element = elementAtPoint(scene, point);
  return element ? locatorForElement(scene, element) : null;
}

function maestroTap(locator: Locator | null): Pick<ElementLocator, 'maestroStep' | 'maestroProblem'> {
  if (!locator) return { maestroStep: null, maestroProblem: 'no locator names this element alone, so only its point could' };
  try {
    return { maestroStep: `tapOn: ${stringify(maestroSelector(locator, undefined), { collectionStyle: 'flow', lineWidth: 0 }).trim()}` };
  } catch (error) {
    if (error instanceof NotExpressibleInMaestro) return { maestroStep: null, maestroProblem: error.message };
    throw error;
  }
}
