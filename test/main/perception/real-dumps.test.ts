// Real `uiautomator dump` output from public repositories (test/fixtures/real-dumps, each named with its repository,
// path and commit in sources.json), read as the Observer reads a phone whose `dumpsys` says nothing: only the dump.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cleanLabel, saysAlready } from '../../../src/main/perception/labels';
import { buildScene, isKeyboardPackage } from '../../../src/main/perception/scene-builder';
import { estimateTokens } from '../../../src/main/perception/scene-budget';
import { screenFacts } from '../../../src/main/perception/screen-facts';
import { isStatusBarNode, isStatusBarWindow } from '../../../src/main/perception/status-bar';
import { parseUiHierarchy, type UiHierarchy, type UiNode } from '../../../src/main/perception/ui-hierarchy';
import { DEFAULT_SCENE_TOKEN_BUDGET, joinLabelParts, labelParts, SceneSchema, sceneToJson, type Scene, type SceneElement } from '../../../src/shared/scene';

interface RealDump {
  name: string;
  repository: string;
  path: string;
  commit: string;
  /** The app in front, as the dump shows it. */
  foreground: string;
  about: string;
}

const folder = new URL('../../fixtures/real-dumps/', import.meta.url);
const dumps: RealDump[] = JSON.parse(readFileSync(new URL('sources.json', folder), 'utf8'));
const hierarchyOf = (name: string) => parseUiHierarchy(readFileSync(new URL(`${name}.xml`, folder), 'utf8'));
const sceneOf = (name: string, tokenBudget?: number): Scene => {
  const hierarchy = hierarchyOf(name);
  return buildScene(hierarchy, screenFacts(hierarchy, '', null), tokenBudget === undefined ? {} : { tokenBudget });
};

const isActionable = (node: UiNode) =>
  node.clickable || node.longClickable || node.scrollable || node.checkable || /EditText$/.test(node.className);
const partsOf = (element: SceneElement) => (element.text ? labelParts(element.text) : []);
const contains = (outer: readonly number[], inner: readonly number[]) =>
  outer[0]! <= inner[0]! && outer[1]! <= inner[1]! && outer[2]! >= inner[2]! && outer[3]! >= inner[3]!;

/** Every node a person could see, with whether it is part of the status bar (keyboards left out). */
function visibleNodes(hierarchy: UiHierarchy, scene: Scene): Array<{ node: UiNode; statusBar: boolean; bounds: number[] }> {
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

describe('real dumps from public repositories', () => {
  it('holds at least 35 dumps of different apps and shapes, each with where it came from', () => {
    expect(dumps.length).toBeGreaterThanOrEqual(35);
    expect(new Set(dumps.map((dump) => dump.name)).size).toBe(dumps.length);
    for (const dump of dumps) {
      expect(dump.repository).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(dump.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(dump.path.length).toBeGreaterThan(0);
    }
  });

  for (const dump of dumps) {
    describe(dump.name, () => {
      const hierarchy = hierarchyOf(dump.name);
      const scene = sceneOf(dump.name);
      const full = sceneOf(dump.name, Infinity);

      it('finds the app in front from the dump alone', () => {
        expect(scene.screen.package).toBe(dump.foreground);
      });

      it('represents every visible actionable node', () => {
        for (const { node, statusBar, bounds } of visibleNodes(hierarchy, full)) {
          if (!isActionable(node) || (statusBar && !node.clickable)) continue;
          const same = full.elements.some((element) => element.bounds.join() === bounds.join());
          const folded = node.checkable && full.elements.some((element) => element.checked === node.checked && contains(element.bounds, bounds));
          expect(same || folded, `${node.className} ${node.resourceId} at ${bounds.join()}`).toBe(true);
        }
      });

      it('keeps every text and description that says something', () => {
        const said = [
          ...full.elements.flatMap((element) => [...partsOf(element), element.desc, element.hint]),
          ...Object.values(full.screen.status ?? {}).flat().map(String),
        ].filter((label): label is string => !!label);
        for (const { node, statusBar } of visibleNodes(hierarchy, full)) {
          if (statusBar) continue;
          for (const label of [node.text, node.contentDesc].map(cleanLabel).filter(Boolean)) {
            expect(said.some((line) => saysAlready(line, label)), `"${label}"`).toBe(true);
          }
        }
      });

      it('keeps bounds inside the screen and the Scene within budget, counting all it folds or leaves out', () => {
        const { width, height } = scene.screen;
        for (const [left, top, right, bottom] of scene.elements.map((element) => element.bounds)) {
          expect(0 <= left && left < right && right <= width && 0 <= top && top < bottom && bottom <= height).toBe(true);
        }
        expect(SceneSchema.parse(JSON.parse(sceneToJson(scene)))).toEqual(scene);
        for (const element of scene.elements) if (element.text && !element.text.includes('more characters)')) expect(joinLabelParts(labelParts(element.text))).toBe(element.text);
        expect(estimateTokens(sceneToJson(scene))).toBeLessThanOrEqual(DEFAULT_SCENE_TOKEN_BUDGET);
        const folded = (scene.foldedRepeats ?? []).reduce((sum, repeat) => sum + repeat.count, 0);
        expect(scene.elements.length + folded + (scene.elementsLeftOut ?? 0)).toBe(full.elements.length);
      });
    });
  }
});
