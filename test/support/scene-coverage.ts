// What a Scene must keep of the dump it was built from, checked the same way on every dump set (the reviewed corpus
// and the real dumps from public repositories): every visible actionable node, and every label that says something.
import { expect } from 'vitest';
import { cleanLabel, saysAlready } from '../../src/main/perception/labels';
import { isKeyboardPackage } from '../../src/main/perception/scene-builder';
import { isStatusBarNode, isStatusBarWindow } from '../../src/main/perception/status-bar';
import type { UiHierarchy, UiNode } from '../../src/main/perception/ui-hierarchy';
import { labelParts, type Scene, type SceneElement } from '../../src/shared/scene';

export const isActionable = (node: UiNode) =>
  node.clickable || node.longClickable || node.scrollable || node.checkable || /EditText$/.test(node.className);
export const partsOf = (element: SceneElement) => (element.text ? labelParts(element.text) : []);
const contains = (outer: readonly number[], inner: readonly number[]) =>
  outer[0]! <= inner[0]! && outer[1]! <= inner[1]! && outer[2]! >= inner[2]! && outer[3]! >= inner[3]!;

/** Every node a person could see, with whether it is part of the status bar (keyboards left out). */
export function visibleNodes(hierarchy: UiHierarchy, scene: Scene): Array<{ node: UiNode; statusBar: boolean; bounds: number[] }> {
  const { width, height } = scene.screen;
  const found: Array<{ node: UiNode; statusBar: boolean; bounds: number[] }> = [];
  const walk = (node: UiNode, inStatusBar: boolean, systemWindow: boolean) => {
    if (!node.visible) return;
    const [left, top, right, bottom] = node.bounds;
    const bounds = [Math.max(0, left), Math.max(0, top), Math.min(width, right), Math.min(height, bottom)];
    if (bounds[2]! <= bounds[0]! || bounds[3]! <= bounds[1]!) return;
    const statusBar = inStatusBar || (systemWindow && isStatusBarNode(node, height));
    found.push({ node, statusBar, bounds });
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

/** Every visible text and description that says something is said by an element, or by the status bar's facts. */
export function expectLabelsKept(hierarchy: UiHierarchy, full: Scene): void {
  const said = [...full.elements.flatMap((element) => [...partsOf(element), element.desc, element.hint]), ...Object.values(full.screen.status ?? {}).flat().map(String)].filter(
    (label): label is string => !!label,
  );
  for (const { node, statusBar } of visibleNodes(hierarchy, full)) {
    if (statusBar) continue;
    for (const label of [node.text, node.contentDesc].map(cleanLabel).filter(Boolean)) {
      expect(said.some((line) => saysAlready(line, label)), `"${label}"`).toBe(true);
    }
  }
}
