// The element under a point of the mirror and its locator in both flow syntaxes, on the real uiautomator dumps
// (../shared/real-dumps): what a recorded step keeps and what Inspect copies must name, read back, the element that
// was under the point, or say that only the point can.
import { describe, expect, it } from 'vitest';
import { readRealDump, realDumps } from '../../support/real-dumps';
import { buildScene } from '../../../src/core/perception/scene-builder';
import { screenFacts } from '../../../src/core/perception/screen-facts';
import { parseUiHierarchy } from '../../../src/core/perception/ui-hierarchy';
import { resolveLocator } from '../../../src/core/flows/locator';
import { parseFlowFile } from '../../../src/core/flows/flow-file';
import { parseMaestroFlow } from '../../../src/core/flows/maestro-file';
import { centreOf, elementAtPoint, locatorAtPoint, locatorForElement } from '../../../src/core/flows/element-locator';
import { isActionStep, type Flow } from '../../../src/shared/flow';
import { joinLabelParts, type Scene, type SceneElement } from '../../../src/shared/scene';

const sceneOf = (xml: string): Scene => {
  const hierarchy = parseUiHierarchy(xml);
  return buildScene(hierarchy, screenFacts(hierarchy, '', null), { tokenBudget: Infinity });
};
const scenes = realDumps().map((dump) => ({ name: `${dump.set}/${dump.name}`, scene: sceneOf(readRealDump(dump)) }));

const screen = { width: 1080, height: 2400, orientation: 'portrait' as const, package: 'com.android.settings', keyboardShown: false };
const row = (id: number, fields: Partial<SceneElement>): SceneElement => ({ id: `e${id}`, type: 'LinearLayout', bounds: [0, id * 200, 1080, id * 200 + 200], clickable: true, ...fields });

/** A copied step pasted as an item of a step list (a long label runs over several lines). */
const indented = (step: string) => step.replace(/\n/g, '\n    ');

const onlyStep = (flow: Flow) => {
  const step = flow.steps[0]!;
  if (!isActionStep(step)) throw new Error(`not an action: ${JSON.stringify(step)}`);
  return step;
};

describe('the element under a mirror point', () => {
  it('Scenario: A locator taken at a point names the element under it in both flow syntaxes', () => {
    let named = 0;
    let inMaestro = 0;
    for (const { name, scene } of scenes) {
      for (const target of scene.elements.filter((element) => !element.covered && element.clickable)) {
        const taken = locatorForElement(scene, target);
        if (!taken.locator) {
          // Said so: the step keeps the point, and Maestro's words are refused with a reason.
          expect(taken.flowStep, `${name} ${target.id}`).toContain(`point: "${taken.point.x},${taken.point.y}"`);
          expect(taken.maestroProblem).toBeTruthy();
          continue;
        }
        named += 1;
        const ours = parseFlowFile(`goal: inspect\nsteps:\n  - ${indented(taken.flowStep)}\n`);
        expect(ours.ok, `${name} ${target.id}: ${taken.flowStep}`).toBe(true);
        if (!ours.ok) continue;
        const resolved = resolveLocator(scene, onlyStep(ours.flow).target!);
        expect(resolved.kind === 'found' && resolved.element.id, `${name} ${target.id}: ${taken.flowStep}`).toBe(target.id);
        if (taken.maestroStep) {
          inMaestro += 1;
          const maestro = parseMaestroFlow(`appId: ${scene.screen.package || 'com.example'}\n---\n- ${indented(taken.maestroStep)}\n`, {}, false);
          expect(maestro.ok, `${name} ${target.id}: ${taken.maestroStep}`).toBe(true);
        } else expect(taken.maestroProblem).toMatch(/row|neighbours|text or id/);
      }
    }
    expect(named).toBeGreaterThan(300);
    expect(inMaestro).toBeGreaterThan(200);
  });

  it('picks the control under the finger: the switch inside its row, the row beside the switch', () => {
    const wifiRow = row(2, { text: joinLabelParts(['Wi-Fi', 'Off']) });
    const wifiSwitch: SceneElement = { id: 'e3', type: 'Switch', bounds: [900, 450, 1040, 550], clickable: true, checked: false, row: 'Wi-Fi' };
    const title: SceneElement = { id: 'e1', type: 'TextView', text: 'Network & internet', bounds: [0, 0, 1080, 200] };
    const scene: Scene = { screen, elements: [title, wifiRow, wifiSwitch] };
    expect(elementAtPoint(scene, { x: 950, y: 500 })).toBe(wifiSwitch);
    expect(elementAtPoint(scene, { x: 200, y: 500 })).toBe(wifiRow);
    expect(elementAtPoint(scene, { x: 200, y: 100 })).toBe(title);
    expect(elementAtPoint(scene, { x: 200, y: 2300 })).toBeUndefined();
    expect(locatorAtPoint(scene, { x: 950, y: 500 })?.locator).toEqual({ app: 'com.android.settings', type: 'Switch', row: 'Wi-Fi' });
    expect(locatorAtPoint(scene, { x: 200, y: 500 })?.flowStep).toBe('tap: { app: com.android.settings, type: LinearLayout, text: Wi-Fi }');
    expect(locatorAtPoint(scene, { x: 200, y: 500 })?.maestroStep).toBe('tapOn: { text: Wi-Fi }');
  });

  it('never names what a dialog covers while the dialog lies under the point', () => {
    const behind = row(2, { text: 'Wi-Fi', clickable: undefined, covered: true });
    const ok: SceneElement = { id: 'e3', type: 'Button', text: 'OK', bounds: [0, 400, 1080, 600], clickable: true, window: 'dialog' };
    const scene: Scene = { screen: { ...screen, dialog: 'Turn off?' }, elements: [behind, ok] };
    expect(elementAtPoint(scene, centreOf(ok))).toBe(ok);
  });

  it('says so when two elements are alike in everything: only the point names it', () => {
    const twins = [row(2, { desc: 'More options' }), row(3, { desc: 'More options' })];
    const scene: Scene = { screen, elements: twins };
    const taken = locatorForElement(scene, twins[1]!);
    expect(taken.locator).toBeNull();
    expect(taken.flowStep).toBe('tap: { point: "540,700" }');
    expect(taken.maestroStep).toBeNull();
  });
});
