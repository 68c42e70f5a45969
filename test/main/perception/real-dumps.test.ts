// Real `uiautomator dump` output from public repositories (test/fixtures/real-dumps, each named with its repository,
// path and commit in sources.json), read as the Observer reads a phone whose `dumpsys` says nothing: only the dump.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildScene } from '../../../src/main/perception/scene-builder';
import { estimateTokens } from '../../../src/main/perception/scene-budget';
import { screenFacts } from '../../../src/main/perception/screen-facts';
import { parseUiHierarchy } from '../../../src/main/perception/ui-hierarchy';
import { DEFAULT_SCENE_TOKEN_BUDGET, joinLabelParts, labelParts, SceneSchema, sceneToJson, type Scene } from '../../../src/shared/scene';
import { expectActionableNodesRepresented, expectLabelsKept } from '../../support/scene-coverage';

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
        expectActionableNodesRepresented(hierarchy, full);
      });

      it('keeps every text and description that says something', () => {
        expectLabelsKept(hierarchy, full);
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
