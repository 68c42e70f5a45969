// The fixture corpus (test/fixtures/dumps): dumps written for this project in the shapes real apps emit, each with
// the adb answers the Observer would have had and its expected Scene (`*.scene.json`, reviewed by hand; after an
// intended change, rerun with `-u` and review the diff).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseWmSize } from '../../../src/main/device/device-info';
import { saysAlready } from '../../../src/main/perception/labels';
import { buildScene, isKeyboardPackage, type SceneBuildOptions } from '../../../src/main/perception/scene-builder';
import { DEFAULT_SCENE_TOKEN_BUDGET, estimateTokens } from '../../../src/main/perception/scene-budget';
import { parseDisplayInfo, screenFacts } from '../../../src/main/perception/screen-facts';
import { isStatusBarWindow } from '../../../src/main/perception/status-bar';
import { parseUiHierarchy, type UiHierarchy, type UiNode } from '../../../src/main/perception/ui-hierarchy';
import { joinLabelParts, labelParts, SceneSchema, sceneFingerprint, sceneToJson, type Scene, type SceneElement } from '../../../src/shared/scene';

interface CorpusCase {
  name: string;
  about: string;
  /** `wm size` output ('' when it failed). */
  wmSize: string;
  /** `dumpsys display` output, asked only when `wm size` failed. */
  display?: string;
  /** `dumpsys window` + `dumpsys input_method` lines. */
  window: string;
}

const dumps = new URL('../../fixtures/dumps/', import.meta.url);
const cases: CorpusCase[] = JSON.parse(readFileSync(new URL('cases.json', dumps), 'utf8'));
const hierarchyOf = (name: string) => parseUiHierarchy(readFileSync(new URL(`${name}.xml`, dumps), 'utf8'));

function sceneOf(corpusCase: CorpusCase, options: SceneBuildOptions = {}): Scene {
  const hierarchy = hierarchyOf(corpusCase.name);
  const natural = parseWmSize(corpusCase.wmSize);
  const source = natural ? { natural } : parseDisplayInfo(corpusCase.display ?? '');
  return buildScene(hierarchy, screenFacts(hierarchy, corpusCase.window, source), options);
}
const sceneNamed = (name: string, options?: SceneBuildOptions) => sceneOf(cases.find((c) => c.name === name)!, options);
const unlimited: SceneBuildOptions = { tokenBudget: Infinity };

const partsOf = (element: SceneElement) => (element.text ? labelParts(element.text) : []);
const withText = (scene: Scene, part: string) => scene.elements.filter((element) => partsOf(element).includes(part));
const isActionable = (node: UiNode) =>
  node.clickable || node.longClickable || node.scrollable || node.checkable || /EditText$/.test(node.className);

/** Every node a person could see on the screen, with the window it is in (keyboard windows excluded). */
function visibleNodes(hierarchy: UiHierarchy, scene: Scene): Array<{ node: UiNode; statusBar: boolean; bounds: number[] }> {
  const { width, height } = scene.screen;
  const found: Array<{ node: UiNode; statusBar: boolean; bounds: number[] }> = [];
  const walk = (node: UiNode, statusBar: boolean) => {
    if (!node.visible) return;
    const [left, top, right, bottom] = node.bounds;
    const bounds = [Math.max(0, left), Math.max(0, top), Math.min(width, right), Math.min(height, bottom)];
    if (bounds[2]! <= bounds[0]! || bounds[3]! <= bounds[1]!) return;
    found.push({ node, statusBar, bounds });
    for (const child of node.children) walk(child, statusBar);
  };
  for (const root of hierarchy.roots) {
    if (!isKeyboardPackage(root.packageName)) walk(root, isStatusBarWindow(root, scene.screen.height));
  }
  return found;
}

describe('the dump corpus', () => {
  it('holds at least 20 dumps of different shapes', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  for (const corpusCase of cases) {
    describe(corpusCase.name, () => {
      const scene = sceneOf(corpusCase);
      const full = sceneOf(corpusCase, unlimited);
      const hierarchy = hierarchyOf(corpusCase.name);

      it('builds the reviewed Scene', async () => {
        await expect(`${sceneToJson(scene)}\n`).toMatchFileSnapshot(`../../fixtures/dumps/${corpusCase.name}.scene.json`);
      });

      it('represents every visible actionable node', () => {
        for (const { node, statusBar, bounds } of visibleNodes(hierarchy, full)) {
          if (!isActionable(node) || (statusBar && !node.clickable)) continue;
          const same = full.elements.some((element) => element.bounds.join() === bounds.join());
          // A switch or checkbox that is not clickable itself gives its row the `checked` state.
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
          for (const label of [node.text, node.contentDesc].map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean)) {
            expect(said.some((line) => saysAlready(line, label)), `"${label}"`).toBe(true);
          }
        }
      });

      it('keeps bounds inside the screen, numbers ids e1..eN and parses back with the schema', () => {
        const { width, height } = scene.screen;
        for (const [left, top, right, bottom] of scene.elements.map((element) => element.bounds)) {
          expect(0 <= left && left < right && right <= width && 0 <= top && top < bottom && bottom <= height).toBe(true);
        }
        expect(scene.elements.map((element) => element.id)).toEqual(scene.elements.map((_, index) => `e${index + 1}`));
        expect(SceneSchema.parse(JSON.parse(sceneToJson(scene)))).toEqual(scene);
        for (const element of scene.elements) if (element.text) expect(joinLabelParts(labelParts(element.text))).toBe(element.text);
      });

      it('stays within the token budget and counts what it leaves out', () => {
        expect(estimateTokens(sceneToJson(scene))).toBeLessThanOrEqual(DEFAULT_SCENE_TOKEN_BUDGET);
        expect(scene.elements.length + (scene.elementsLeftOut ?? 0)).toBe(full.elements.length);
      });
    });
  }
});

function contains(outer: readonly number[], inner: readonly number[]): boolean {
  return outer[0]! <= inner[0]! && outer[1]! <= inner[1]! && outer[2]! >= inner[2]! && outer[3]! >= inner[3]!;
}

export { sceneNamed, withText, sceneFingerprint };
