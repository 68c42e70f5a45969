import { elementName, type Bounds, type Scene, type SceneElement } from './scene';

/**
 * A Scene's elements as a tree, for Inspect. A Scene keeps no parent links (it is the flat list the model reads), so
 * an element's parent is the smallest element whose bounds hold its own: what a person sees as "inside". Pure.
 */

export interface SceneTreeNode {
  element: SceneElement;
  children: SceneTreeNode[];
}

const area = ([left, top, right, bottom]: Bounds) => Math.max(0, right - left) * Math.max(0, bottom - top);

const holds = (outer: Bounds, inner: Bounds) => outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3];

/**
 * The tree of `scene`'s elements in reading order. Two elements with the same bounds nest in reading order (the first
 * holds the second), so no element is its own ancestor and every element appears exactly once.
 */
export function sceneTree(scene: Scene): SceneTreeNode[] {
  const nodes = scene.elements.map((element) => ({ element, children: [] as SceneTreeNode[] }));
  const roots: SceneTreeNode[] = [];
  nodes.forEach((node, index) => {
    let parent: SceneTreeNode | undefined;
    nodes.forEach((candidate, at) => {
      if (at === index) return;
      const bounds = candidate.element.bounds;
      const same = bounds.every((edge, side) => edge === node.element.bounds[side]);
      // Equal bounds: only an earlier element may hold a later one.
      if (!holds(bounds, node.element.bounds) || (same && at > index)) return;
      if (!parent || area(bounds) < area(parent.element.bounds) || (area(bounds) === area(parent.element.bounds) && at > nodes.indexOf(parent))) parent = candidate;
    });
    (parent ? parent.children : roots).push(node);
  });
  return roots;
}

/** The ids of `id`'s ancestors in the tree, outermost first (to open the branches that lead to it). */
export function ancestorIds(tree: readonly SceneTreeNode[], id: string): string[] {
  for (const node of tree) {
    if (node.element.id === id) return [];
    const below = ancestorIds(node.children, id);
    if (below.length > 0 || node.children.some((child) => child.element.id === id)) return [node.element.id, ...below];
  }
  return [];
}

/** What a person can act on: a touch lands on the innermost such element under the finger. */
const acts = (element: SceneElement) => Boolean(element.clickable || element.longClickable || element.editable || element.checked !== undefined);

/**
 * The element a touch at `point` (device pixels) reaches, which Inspect outlines and a recorded tap names: the
 * smallest one under it that can be acted on (a switch inside its row, the row around its plain text), else the
 * smallest one under it at all; never one a dialog covers while the dialog's own elements lie there too; the first
 * in reading order on a tie. Undefined where the point lies on no element.
 */
export function elementAt(scene: Scene, point: { x: number; y: number }): SceneElement | undefined {
  const under = scene.elements.filter(({ bounds: [left, top, right, bottom] }) => point.x >= left && point.x < right && point.y >= top && point.y < bottom);
  const reachable = under.some((element) => !element.covered) ? under.filter((element) => !element.covered) : under;
  const smallest = (elements: SceneElement[]) => elements.reduce<SceneElement | undefined>((best, element) => (best && area(best.bounds) <= area(element.bounds) ? best : element), undefined);
  return smallest(reachable.filter(acts)) ?? smallest(reachable);
}

/** What a search in the tree looks at: the element's id, class and every word it carries. */
const searchable = (element: SceneElement) =>
  [element.id, element.type, element.text, element.desc, element.hint, element.resourceId, element.row, element.unlabeled].filter(Boolean).join('\n').toLowerCase();

/** The elements whose id, class, text, description, hint, resource id or row contains `query` (any case), in reading order. */
export function findElements(scene: Scene, query: string): SceneElement[] {
  const wanted = query.trim().toLowerCase();
  if (!wanted) return [];
  return scene.elements.filter((element) => searchable(element).includes(wanted));
}

/** A tree row's caption: the element's name where it has one, else its class. */
export const treeCaption = (element: SceneElement): string => elementName(element) ?? element.type;
