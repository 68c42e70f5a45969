// Real `uiautomator dump` output from public repositories (../shared/real-dumps beside the checkout: from-project,
// set-a, set-b, 105 screens, each set naming its files' repository, path and commit), read as the Observer reads a
// phone whose `dumpsys` says nothing: only the dump.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildScene } from '../../../src/core/perception/scene-builder';
import { estimateTokens } from '../../../src/core/perception/scene-budget';
import { screenFacts } from '../../../src/core/perception/screen-facts';
import { parseUiHierarchy } from '../../../src/core/perception/ui-hierarchy';
import { DEFAULT_SCENE_TOKEN_BUDGET, joinLabelParts, labelParts, SceneSchema, sceneToJson, type Scene } from '../../../src/shared/scene';
import { readRealDump, realDumps, realDumpSetFolder, REAL_DUMP_SETS } from '../../support/real-dumps';
import { expectActionableNodesRepresented, expectLabelsKept } from '../../support/scene-coverage';

interface ProjectDumpSource {
  name: string;
  repository: string;
  path: string;
  commit: string;
  /** The app in front, as the dump shows it. */
  foreground: string;
}

const dumps = realDumps();
const projectSources: ProjectDumpSource[] = JSON.parse(readFileSync(path.join(realDumpSetFolder('from-project'), 'sources.json'), 'utf8'));
const foregroundOf = new Map(projectSources.map((source) => [source.name, source.foreground]));

describe('real dumps from public repositories', () => {
  it('reads the 105 real dumps of the three shared sets, each set naming its sources', () => {
    expect(dumps.filter((dump) => dump.set === 'from-project')).toHaveLength(35);
    expect(dumps.filter((dump) => dump.set === 'set-a')).toHaveLength(30);
    expect(dumps.filter((dump) => dump.set === 'set-b')).toHaveLength(40);
    for (const source of projectSources) {
      expect(source.repository).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(source.commit).toMatch(/^[0-9a-f]{40}$/);
    }
    for (const set of ['set-a', 'set-b'] as const) {
      const listed = readFileSync(path.join(realDumpSetFolder(set), 'SOURCES.md'), 'utf8');
      for (const dump of dumps.filter((entry) => entry.set === set)) expect(listed).toContain(`${dump.name}.xml`);
    }
  });

  it('Scenario: The real dumps are read from beside the checkout', () => {
    const elsewhere = path.join(mkdtempSync(path.join(tmpdir(), 'amc-no-dumps-')), 'real-dumps');
    expect(() => realDumps(REAL_DUMP_SETS, elsewhere)).toThrow(`The real dumps are missing: there is no folder ${path.join(elsewhere, 'from-project')}`);
    expect(() => realDumps(['set-b'], elsewhere)).toThrow(/put the shared real-dumps folder \(from-project, set-a, set-b\) at \.\.\/shared\/real-dumps beside the checkout/);
  });

  it('keeps every Scene within the default token budget', () => {
    const largest = Math.max(...dumps.map((dump) => estimateTokens(sceneToJson(sceneOf(readRealDump(dump))))));
    expect(largest).toBeLessThanOrEqual(DEFAULT_SCENE_TOKEN_BUDGET);
  });

  for (const dump of dumps) {
    describe(`${dump.set}/${dump.name}`, () => {
      const xml = readRealDump(dump);
      const hierarchy = parseUiHierarchy(xml);
      const scene = sceneOf(xml);
      const full = sceneOf(xml, Infinity);
      const foreground = foregroundOf.get(dump.name);

      if (dump.set === 'from-project') {
        it('finds the app in front from the dump alone', () => {
          expect(scene.screen.package).toBe(foreground);
        });
      }

      it('represents every visible actionable node', () => {
        expectActionableNodesRepresented(hierarchy, full);
      });

      it('keeps every text and description that says something, where it is on screen', () => {
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

function sceneOf(xml: string, tokenBudget?: number): Scene {
  const hierarchy = parseUiHierarchy(xml);
  return buildScene(hierarchy, screenFacts(hierarchy, '', null), tokenBudget === undefined ? {} : { tokenBudget });
}
