import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildScene } from '../../../src/core/perception/scene-builder';
import { parseUiHierarchy, UiDumpError } from '../../../src/core/perception/ui-hierarchy';
import { labelParts, SceneSchema, sceneToJson, type Scene, type ScreenFacts } from '../../../src/shared/scene';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}.xml`, import.meta.url), 'utf8');
const portrait: ScreenFacts = { width: 1080, height: 2400, orientation: 'portrait', package: 'com.example', keyboardShown: false };
const sceneOf = (name: string, screen: ScreenFacts = portrait): Scene => buildScene(parseUiHierarchy(fixture(name)), screen);
const byText = (scene: Scene, text: string) => scene.elements.find((element) => element.text === text);

describe('uiautomator XML parsing', () => {
  it('reads the dump printed to /dev/tty, ignoring the trailing "dumped to" line', () => {
    const hierarchy = parseUiHierarchy(fixture('launcher'));
    expect(hierarchy.rotation).toBe(0);
    expect(hierarchy.roots.map((root) => root.packageName)).toEqual(['com.android.systemui', 'com.android.launcher3']);
    expect(hierarchy.roots[1]!.children[0]!.resourceId).toBe('com.android.launcher3:id/workspace');
  });

  it('decodes XML entities in attribute values', () => {
    const hierarchy = parseUiHierarchy(fixture('form-keyboard'));
    const form = hierarchy.roots[1]!.children[0]!;
    expect(form.children[2]!.text).toBe('Li "Lei" <3');
    const settings = parseUiHierarchy(fixture('settings-scrolled'));
    const summaries = JSON.stringify(settings);
    expect(summaries).toContain('Connected to Home & Office');
    expect(summaries).toContain('Pixel 8 \u2022 Android 14');
  });

  it('rejects output without a complete hierarchy, quoting what uiautomator said', () => {
    expect(() => parseUiHierarchy('ERROR: could not get idle state.\n')).toThrow(UiDumpError);
    expect(() => parseUiHierarchy('ERROR: could not get idle state.\n')).toThrow(/could not get idle state/);
    expect(() => parseUiHierarchy("<?xml version='1.0' ?><hierarchy rotation=\"0\"><node text=\"cut")).toThrow(UiDumpError);
  });
});

describe('Scene building', () => {
  it('Scenario: Layout wrappers are dropped and row labels merged', () => {
    const scene = sceneOf('settings-scrolled');
    expect(scene.elements.some((element) => element.type === 'RelativeLayout' || element.type === 'FrameLayout')).toBe(false);
    const wifi = byText(scene, 'Wi-Fi | Connected to Home & Office');
    expect(wifi).toMatchObject({ type: 'LinearLayout', clickable: true, checked: true, bounds: [0, 300, 1080, 470] });
    expect(byText(scene, 'Bluetooth | Off')).toMatchObject({ checked: false });
    // The merged titles do not appear a second time as separate elements.
    expect(scene.elements.filter((element) => element.text?.includes('Wi-Fi'))).toHaveLength(1);
    expect(scene.elements.find((element) => element.type === 'RecyclerView')).toMatchObject({ scrollable: true, resourceId: 'recycler_view' });
  });

  it('numbers elements e1, e2, ... in reading (dump) order', () => {
    const scene = sceneOf('launcher');
    expect(scene.elements.map((element) => element.id)).toEqual(scene.elements.map((_, index) => `e${index + 1}`));
    const labels = scene.elements.filter((element) => element.clickable).map((element) => element.text);
    expect(labels).toEqual(['Settings', 'Contacts', 'Clock', 'Notes']);
  });

  it('Scenario: Keyboard keys are not elements and the editable fields keep their flags', () => {
    const scene = sceneOf('form-keyboard');
    expect(scene.elements.some((element) => element.desc === 'q')).toBe(false);
    expect(byText(scene, 'Li "Lei" <3')).toMatchObject({ type: 'EditText', editable: true, focused: true, resourceId: 'name' });
    expect(scene.elements.find((element) => element.resourceId === 'pin')).toMatchObject({ editable: true, password: true });
    expect(byText(scene, 'Save')).toMatchObject({ type: 'Button', disabled: true });
  });

  it('omits false flags and empty strings from the JSON the planner reads', () => {
    const scene = sceneOf('dialog');
    const json = sceneToJson(scene);
    expect(json.slice(json.indexOf('"elements"'))).not.toMatch(/:false|:""/);
    const allow = byText(scene, 'Allow')!;
    expect(Object.keys(allow)).toEqual(['id', 'type', 'text', 'resourceId', 'bounds', 'clickable', 'window']);
    expect(allow.window).toBe('dialog');
    expect(SceneSchema.parse(JSON.parse(json))).toEqual(scene);
  });

  it('still reads a Scene stored before status, rotation, window, unlabeled and elementsLeftOut existed', () => {
    const stored = {
      screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.android.settings', activity: '.Settings', keyboardShown: false },
      elements: [{ id: 'e1', type: 'LinearLayout', text: 'Wi-Fi | Connected', bounds: [0, 300, 1080, 470], clickable: true, checked: true }],
    };
    expect(SceneSchema.parse(stored)).toEqual(stored);
    expect(labelParts(stored.elements[0]!.text)).toEqual(['Wi-Fi', 'Connected']);
  });

  it('keeps the buttons and message of a dialog', () => {
    const scene = sceneOf('dialog');
    expect(byText(scene, 'Allow Contacts to access your contacts?')).toBeDefined();
    expect(byText(scene, "Don't allow")).toMatchObject({ clickable: true, resourceId: 'permission_deny_button' });
  });

  it('clips bounds to the screen and drops elements entirely off it', () => {
    const landscape: ScreenFacts = { ...portrait, width: 2400, height: 1080, orientation: 'landscape' };
    const scene = sceneOf('landscape', landscape);
    expect(scene.elements).toHaveLength(1);
    expect(scene.elements[0]).toMatchObject({ text: 'Edge', bounds: [2300, 1000, 2400, 1080] });
  });
});
