// Inspect's tree and pointer on the real uiautomator dumps (../shared/real-dumps) and on hand-made screens: every
// element sits once in the tree, inside its parent's bounds; the pointer picks what a touch there reaches; a search
// finds an element by any of its words.
import { describe, expect, it } from 'vitest';
import { readRealDump, realDumps } from '../support/real-dumps';
import { buildScene } from '../../src/core/perception/scene-builder';
import { screenFacts } from '../../src/core/perception/screen-facts';
import { parseUiHierarchy } from '../../src/core/perception/ui-hierarchy';
import { ancestorIds, elementAt, findElements, sceneTree, type SceneTreeNode } from '../../src/shared/scene-tree';
import type { Scene, SceneElement } from '../../src/shared/scene';

const sceneOf = (xml: string): Scene => {
  const hierarchy = parseUiHierarchy(xml);
  return buildScene(hierarchy, screenFacts(hierarchy, '', null), { tokenBudget: Infinity });
};
const scenes = realDumps().map((dump) => ({ name: `${dump.set}/${dump.name}`, scene: sceneOf(readRealDump(dump)) }));

const screen = { width: 1080, height: 2400, orientation: 'portrait' as const, package: 'com.android.settings', keyboardShown: false };
const element = (id: number, bounds: SceneElement['bounds'], fields: Partial<SceneElement> = {}): SceneElement => ({ id: `e${id}`, type: 'TextView', bounds, ...fields });

const holds = (outer: SceneElement, inner: SceneElement) =>
  outer.bounds[0] <= inner.bounds[0] && outer.bounds[1] <= inner.bounds[1] && outer.bounds[2] >= inner.bounds[2] && outer.bounds[3] >= inner.bounds[3];

describe('the tree of a screen', () => {
  it('Scenario: The tree holds every element once, each inside its parent', () => {
    expect(scenes.length).toBeGreaterThan(30);
    let nested = 0;
    for (const { name, scene } of scenes) {
      const seen: string[] = [];
      const walk = (nodes: readonly SceneTreeNode[], parent: SceneElement | null) => {
        for (const node of nodes) {
          seen.push(node.element.id);
          if (parent) {
            nested += 1;
            expect(holds(parent, node.element), `${name}: ${node.element.id} in ${parent.id}`).toBe(true);
          }
          walk(node.children, node.element);
        }
      };
      walk(sceneTree(scene), null);
      expect(seen.toSorted(), name).toEqual(scene.elements.map((candidate) => candidate.id).toSorted());
      // The branch to any element leads to it: each ancestor holds it.
      for (const target of scene.elements) {
        for (const id of ancestorIds(sceneTree(scene), target.id)) expect(holds(scene.elements.find((candidate) => candidate.id === id)!, target), `${name}: ${target.id}`).toBe(true);
      }
    }
    // Real screens nest: a tree that stayed flat would prove nothing.
    expect(nested).toBeGreaterThan(100);
  });

  it('Scenario: Elements with the same bounds nest in reading order', () => {
    const scene: Scene = { screen, elements: [element(1, [0, 0, 100, 100]), element(2, [0, 0, 100, 100]), element(3, [0, 0, 100, 100])] };
    const tree = sceneTree(scene);
    expect(tree.map((node) => node.element.id)).toEqual(['e1']);
    expect(tree[0]!.children[0]!.element.id).toBe('e2');
    expect(tree[0]!.children[0]!.children[0]!.element.id).toBe('e3');
    expect(ancestorIds(tree, 'e3')).toEqual(['e1', 'e2']);
  });
});

describe('the element under the pointer', () => {
  const row = element(1, [0, 200, 1080, 400], { type: 'LinearLayout', text: 'Wi-Fi | Off', clickable: true });
  const label = element(2, [40, 220, 400, 300], { text: 'Wi-Fi' });
  const toggle = element(3, [900, 260, 1040, 340], { type: 'Switch', checked: false });
  const covered = element(4, [0, 1000, 1080, 1200], { text: 'Behind', covered: true });
  const dialogButton = element(5, [300, 1050, 700, 1150], { type: 'Button', text: 'OK', clickable: true, window: 'dialog' });
  const scene: Scene = { screen: { ...screen, dialog: 'Allow?' }, elements: [row, label, toggle, covered, dialogButton] };

  it('Scenario: The pointer picks what a touch there reaches', () => {
    // On the label: the row it belongs to (a touch acts on the row), not the plain text.
    expect(elementAt(scene, { x: 100, y: 250 })?.id).toBe('e1');
    // On the switch: the switch, the smallest thing there that acts.
    expect(elementAt(scene, { x: 950, y: 300 })?.id).toBe('e3');
    // Under a dialog: its own button, never what it covers.
    expect(elementAt(scene, { x: 500, y: 1100 })?.id).toBe('e5');
    // Only covered things there: still shown (Inspect describes it, and says it is covered).
    expect(elementAt(scene, { x: 50, y: 1100 })?.id).toBe('e4');
    expect(elementAt(scene, { x: 500, y: 2000 })).toBeUndefined();
    // A right or bottom edge belongs to the next element, as a touch's pixel does.
    expect(elementAt(scene, { x: 1080, y: 300 })).toBeUndefined();
  });

  it('Scenario: A search finds elements by any of their words, in any case', () => {
    const withId = { ...scene, elements: [...scene.elements, element(6, [0, 0, 10, 10], { type: 'ImageButton', resourceId: 'nav_up', desc: 'Navigate up' })] };
    expect(findElements(withId, 'wi-fi').map((found) => found.id)).toEqual(['e1', 'e2']);
    expect(findElements(withId, 'NAV_UP').map((found) => found.id)).toEqual(['e6']);
    expect(findElements(withId, 'navigate').map((found) => found.id)).toEqual(['e6']);
    expect(findElements(withId, 'switch').map((found) => found.id)).toEqual(['e3']);
    expect(findElements(withId, 'e5').map((found) => found.id)).toEqual(['e5']);
    expect(findElements(withId, '   ')).toEqual([]);
    expect(findElements(withId, 'nothing like it')).toEqual([]);
  });
});
