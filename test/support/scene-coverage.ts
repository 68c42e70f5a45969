// What a Scene must keep of the dump it was built from, checked the same way on every dump set (the reviewed corpus
// and the real dumps from public repositories): every visible actionable node, and every label that says something.
import { expect } from 'vitest';
import { cleanLabel, saysAlready } from '../../src/core/perception/labels';
import { isKeyboardPackage } from '../../src/core/perception/scene-builder';
import { isStatusBarNode, isStatusBarWindow } from '../../src/core/perception/status-bar';
import type { UiHierarchy, UiNode } from '../../src/core/perception/ui-hierarchy';
import { labelParts, type Scene, type SceneElement } from '../../src/shared/scene';

export const isActionable = (node: UiNode) =>
  node.clickable || node.longClickable || node.scrollable || node.checkable || /EditText$/.test(node.className);
export const partsOf = (element: SceneElement) => (element.text ? labelParts(element.text) : []);
const contains = (outer: readonly number[], inner: readonly number[]) =>
  outer[0]! <= inner[0]! && outer[1]! <= inner[1]! && outer[2]! >= inner[2]! && outer[3]! >= inner[3]!;

/**
 * Every node a person could see, with whether it is part of the status bar (keyboards left out). Each node is judged
 * by its own bounds: the children of a zero-size or off-screen container (as WebViews report them) can be on screen.
 */
export function visibleNodes(hierarchy: UiHierarchy, scene: Scene): Array<{ node: UiNode; statusBar: boolean; bounds: number[] }> {
  const { width, height } = scene.screen;
  const found: Array<{ node: UiNode; statusBar: boolean; bounds: number[] }> = [];
  const walk = (node: UiNode, inStatusBar: boolean, systemWindow: boolean) => {
    if (!node.visible) return;
    const [left, top, right, bottom] = node.bounds;
    const bounds = [Math.max(0, left), Math.max(0, top), Math.min(width, right), Math.min(height, bottom)];
    const onScreen = bounds[2]! > bounds[0]! && bounds[3]! > bounds[1]!;
    const statusBar = inStatusBar || (onScreen && systemWindow && isStatusBarNode(node, height));
    if (onScreen) found.push({ node, statusBar, bounds });
    for (const child of node.children) walk(child, statusBar, systemWindow);
  };
  for (const root of hierarchy.roots) {
    if (!isKeyboardPackage(root.packageName)) walk(root, isStatusBarWindow(root, height), root.packageName === 'com.android.systemui');
  }
  return found;
}

/** Every visible actionable node is an element of the (unbudgeted) Scene, or a switch folded into its row's state. */
export function expectActionableNodesRepresented(hierarchy: UiHierarchy, full: Scene): void {
  for (const { node, statusBar, bounds } of visibleNodes(hierarchy, full)) {
    if (!isActionable(node) || (statusBar && !node.clickable)) continue;
    const same = full.elements.some((element) => element.bounds.join() === bounds.join());
    // A switch or checkbox that is not clickable itself gives its row the `checked` state.
    const folded = node.checkable && full.elements.some((element) => element.checked === node.checked && contains(element.bounds, bounds));
    expect(same || folded, `${node.className} ${node.resourceId} at ${bounds.join()}`).toBe(true);
  }
}

const overlaps = (a: readonly number[], b: readonly number[]) => a[0]! < b[2]! && b[0]! < a[2]! && a[1]! < b[3]! && b[1]! < a[3]!;
const labelsOf = (element: SceneElement) => [...partsOf(element), element.desc, element.hint].filter((label): label is string => !!label);

/**
 * Every visible text and description that says something is said where a person reads it: by an element whose
 * bounds overlap the node's, or by the status bar's facts.
 */
export function expectLabelsKept(hierarchy: UiHierarchy, full: Scene): void {
  const status = Object.values(full.screen.status ?? {}).flat().map(String);
  for (const { node, statusBar, bounds } of visibleNodes(hierarchy, full)) {
    if (statusBar) continue;
    const said = [...full.elements.filter((element) => overlaps(element.bounds, bounds)).flatMap(labelsOf), ...status];
    for (const label of [node.text, node.contentDesc].map(cleanLabel).filter(Boolean)) {
      expect(said.some((line) => saysAlready(line, label)), `"${label}" at ${bounds.join()}`).toBe(true);
    }
  }
}
