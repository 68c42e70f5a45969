// Locators against the 105 real uiautomator dumps (../shared/real-dumps) read as the Observer reads them: every
// element a locator can name is found again, alone; what is missing or ambiguous is said, never guessed.
import { describe, expect, it } from 'vitest';
import { readRealDump, realDumps } from '../../support/real-dumps';
import { buildScene } from '../../../src/core/perception/scene-builder';
import { screenFacts } from '../../../src/core/perception/screen-facts';
import { parseUiHierarchy } from '../../../src/core/perception/ui-hierarchy';
import { locatorFor, resolveLocator } from '../../../src/core/flows/locator';
import { describeLocator } from '../../../src/core/flows/locator-said';
import { LocatorSchema } from '../../../src/shared/flow';
import { joinLabelParts, type Scene, type SceneElement } from '../../../src/shared/scene';

const dumps = realDumps().map((dump) => ({ name: `${dump.set}/${dump.name}`, xml: readRealDump(dump) }));
const xmlOf = new Map(dumps.map((dump) => [dump.name, dump.xml]));
const sceneOf = (name: string): Scene => {
  const hierarchy = parseUiHierarchy(xmlOf.get(name)!);
  return buildScene(hierarchy, screenFacts(hierarchy, '', null), { tokenBudget: Infinity });
};

const screen = { width: 1080, height: 2400, orientation: 'portrait' as const, package: 'com.android.settings', keyboardShown: false };
const element = (id: number, fields: Partial<SceneElement>): SceneElement => ({ id: `e${id}`, type: 'LinearLayout', bounds: [0, id * 200, 1080, id * 200 + 200], clickable: true, ...fields });
const network = (wifi: boolean, order: 'usual' | 'swapped' = 'usual'): Scene => {
  const rows = [
    element(2, { text: joinLabelParts(['Wi-Fi', wifi ? 'Connected to AndroidWifi' : 'Off']), checked: wifi }),
    element(3, { text: joinLabelParts(['Airplane mode', 'Off']), checked: false }),
  ];
  const ordered = order === 'usual' ? rows : [...rows].reverse();
  return { screen, elements: [element(1, { type: 'ImageButton', desc: 'Navigate up' }), ...ordered.map((row, index) => ({ ...row, id: `e${index + 2}` }))] };
};

describe('locators on real screens', () => {
  it('Scenario: A locator recorded on a screen finds its element again on that screen', () => {
    let located = 0;
    for (const { name } of dumps) {
      const scene = sceneOf(name);
      for (const target of scene.elements.filter((candidate) => !candidate.covered)) {
        const locator = locatorFor(scene, target);
        if (!locator) continue;
        located += 1;
        expect(LocatorSchema.safeParse(locator).success, `${name} ${target.id}`).toBe(true);
        const resolved = resolveLocator(scene, locator);
        expect(resolved.kind === 'found' && resolved.element, `${name} ${target.id}: ${JSON.stringify(locator)}`).toBe(target);
        // Found among look-alikes only by the facts recorded about it, never by its place among them.
        if (resolved.kind === 'found' && resolved.singledOutAmong) expect(locator.distinguishedBy).toBeDefined();
      }
    }
    // Most elements of 35 real screens can be named (the rest are unlabelled containers and images).
    expect(located).toBeGreaterThan(800);
  });

  it('keeps only the fields that tell the element apart', () => {
    const scene = network(true);
    expect(locatorFor(scene, scene.elements[1]!)).toEqual({ app: 'com.android.settings', type: 'LinearLayout', text: 'Wi-Fi' });
    expect(locatorFor(scene, scene.elements[0]!)).toEqual({ app: 'com.android.settings', type: 'ImageButton', desc: 'Navigate up' });
  });

  it('names a repeated row control by its row (a real WhatsApp chat list)', () => {
    const scene = sceneOf('from-project/whatsapp-pt');
    const photo = scene.elements.find((candidate) => candidate.resourceId === 'contact_photo' && candidate.row === 'Amor Pim💍')!;
    const locator = locatorFor(scene, photo)!;
    expect(locator.distinguishedBy).toBeUndefined();
    expect(resolveLocator(scene, locator)).toEqual({ kind: 'found', element: photo });
  });

  it('never names a text field by what was typed into it', () => {
    const field = element(2, { type: 'EditText', editable: true, text: 'hello', hint: 'Message' });
    const scene: Scene = { screen, elements: [element(1, { text: 'Send' }), field] };
    const locator = locatorFor(scene, field)!;
    expect(locator).toEqual({ app: 'com.android.settings', type: 'text-field', hint: 'Message' });
    expect(resolveLocator({ screen, elements: [{ ...field, text: 'other text' }] }, locator).kind).toBe('found');
  });

  it('Scenario: A locator survives a changed summary line and a changed list order', () => {
    const recorded = network(false);
    const locator = locatorFor(recorded, recorded.elements[1]!)!;
    const later = network(true, 'swapped');
    const resolved = resolveLocator(later, locator);
    expect(resolved.kind === 'found' && resolved.element.text).toBe(joinLabelParts(['Wi-Fi', 'Connected to AndroidWifi']));
  });

  it('Scenario: A missing element is reported with what is on screen', () => {
    const renamed: Scene = { screen, elements: [element(1, { text: 'Network & internet' }), element(2, { text: 'Bluetooth' }), element(3, { text: 'WLAN' })] };
    const resolved = resolveLocator(renamed, { app: 'com.android.settings', text: 'Wi-Fi' });
    expect(resolved).toMatchObject({ kind: 'missing', reason: "no 'Wi-Fi' on this screen; I see: Network & internet, Bluetooth, WLAN" });
    const elsewhere = resolveLocator({ ...renamed, screen: { ...screen, package: 'com.android.launcher3' } }, { app: 'com.android.settings', text: 'Wi-Fi' });
    expect(elsewhere).toMatchObject({ kind: 'missing', reason: "com.android.settings is not in front (com.android.launcher3 is), so there is no 'Wi-Fi' to act on" });
  });

  it('Scenario: Several matching elements are never guessed between', () => {
    const twice: Scene = { screen, elements: [element(1, { text: 'Add star', row: 'Buy milk' }), element(2, { text: 'Add star', row: 'Call mom' })] };
    const resolved = resolveLocator(twice, { text: 'Add star' });
    expect(resolved.kind).toBe('ambiguous');
    expect(resolved.kind === 'ambiguous' && resolved.reason).toBe("2 elements match 'Add star' (Buy milk, Call mom), and the flow does not say which");
    // The row tells them apart, as the recording kept it.
    expect(locatorFor(twice, twice.elements[1]!)).toEqual({ app: 'com.android.settings', type: 'LinearLayout', row: 'Call mom' });
  });

  it('does not resolve to an element under a dialog', () => {
    const covered: Scene = { screen, elements: [element(1, { text: 'Wi-Fi', covered: true, clickable: undefined }), element(2, { text: 'OK', window: 'dialog' })] };
    const resolved = resolveLocator(covered, { text: 'Wi-Fi' });
    expect(resolved).toMatchObject({ kind: 'missing', reason: "'Wi-Fi' is under a dialog or pop-up; I see: OK" });
  });

  it('Scenario: A step whose target is behind a dialog fails naming the dialog', () => {
    const withDialog = (elements: SceneElement[], package_ = screen.package): Scene => ({ screen: { ...screen, package: package_, dialog: 'Allow Contacts to access your location?' }, elements });
    const behind = withDialog([element(1, { text: 'Wi-Fi', covered: true, clickable: undefined }), element(2, { text: 'Allow', window: 'dialog' })]);
    expect(resolveLocator(behind, { text: 'Wi-Fi' })).toMatchObject({
      kind: 'missing',
      reason: "a dialog 'Allow Contacts to access your location?' is in front: 'Wi-Fi' lies behind it and cannot be reached; I see: Allow",
    });
    // A system dialog's own package is in front: the step says which dialog, not only which package.
    const system = withDialog([element(1, { text: 'Allow', window: 'dialog' })], 'com.google.android.permissioncontroller');
    expect(resolveLocator(system, { app: 'com.android.settings', text: 'Wi-Fi' })).toMatchObject({
      kind: 'missing',
      reason: "a dialog 'Allow Contacts to access your location?' is in front (com.google.android.permissioncontroller), so there is no 'Wi-Fi' to act on",
    });
    // A dialog-only dump holds nothing of the app beneath: the step still names the dialog.
    expect(resolveLocator(withDialog([element(1, { text: 'Allow', window: 'dialog' })]), { text: 'Wi-Fi' })).toMatchObject({
      kind: 'missing',
      reason: expect.stringContaining("no 'Wi-Fi' on this screen (a dialog 'Allow Contacts to access your location?' is in front)"),
    });
    // The dialog's own buttons are found as usual.
    expect(resolveLocator(behind, { text: 'Allow' })).toMatchObject({ kind: 'found' });
  });

  it('says a locator in plain words', () => {
    expect(describeLocator({ text: 'Send', type: 'Button' })).toBe("'Send' button");
    expect(describeLocator({ hint: 'To', type: 'text-field' })).toBe("the field 'To'");
    expect(describeLocator({ desc: 'Add star', row: 'Buy milk' })).toBe("'Add star' in the row 'Buy milk'");
    expect(describeLocator({ row: 'Buy milk', type: 'CheckBox' })).toBe("CheckBox in the row 'Buy milk'");
  });

  describe('look-alikes', () => {
    const contacts = (...rows: Array<[string, string]>): Scene => ({
      screen: { ...screen, package: 'com.android.contacts' },
      elements: [element(1, { type: 'TextView', text: 'Contacts', clickable: undefined }), ...rows.map(([name, phone], index) => element(index + 2, { text: joinLabelParts([name, phone]) }))],
    });

    it('Scenario: Look-alike rows are told apart by their other texts, whatever their order', () => {
      const recorded = contacts(['Ann Lee', '+1 555-0111'], ['Ann Lee', '+1 555-0222'], ['Bob Smith', '+1 555-0102']);
      const locator = locatorFor(recorded, recorded.elements[2]!)!;
      expect(locator).toEqual({ app: 'com.android.contacts', type: 'LinearLayout', text: 'Ann Lee', distinguishedBy: { otherTexts: ['+1 555-0222'] } });
      expect(describeLocator(locator)).toBe("'Ann Lee' showing '+1 555-0222'");
      const reordered = contacts(['Ann Lee', '+1 555-0222'], ['Ann Lee', '+1 555-0111'], ['Bob Smith', '+1 555-0102']);
      const resolved = resolveLocator(reordered, locator);
      expect(resolved).toEqual({ kind: 'found', element: reordered.elements[1], singledOutAmong: 2 });
      // Once the 0222 row is gone, the other Ann Lee is never taken for it.
      const without = contacts(['Ann Lee', '+1 555-0111'], ['Bob Smith', '+1 555-0102']);
      expect(resolveLocator(without, locator)).toMatchObject({
        kind: 'missing',
        reason: "no 'Ann Lee' showing '+1 555-0222' on this screen, only 1 other 'Ann Lee'; I see: Ann Lee, Bob Smith, Contacts",
      });
    });

    it('Scenario: Look-alikes that nothing but their place tells apart get no locator', () => {
      const recorded = contacts(['Ann Lee', ''], ['Ann Lee', ''], ['Bob Smith', '']);
      // Each Ann Lee follows "Contacts" and precedes "Bob Smith" once the other look-alike is passed over: no fact but position.
      expect(locatorFor(recorded, recorded.elements[1]!)).toBeNull();
      expect(locatorFor(recorded, recorded.elements[2]!)).toBeNull();
      // A locator without facts never picks one of several.
      expect(resolveLocator(recorded, { text: 'Ann Lee' })).toMatchObject({ kind: 'ambiguous' });
    });

    it('Scenario: Look-alike switches are told apart by their state or the header above them', () => {
      const sync = (work: boolean, personal: boolean, order: 'usual' | 'swapped' = 'usual'): Scene => {
        const sections = [
          [element(2, { type: 'TextView', text: 'Work', clickable: undefined }), element(3, { type: 'Switch', desc: 'Sync', checked: work })],
          [element(4, { type: 'TextView', text: 'Personal', clickable: undefined }), element(5, { type: 'Switch', desc: 'Sync', checked: personal })],
        ];
        const ordered = order === 'usual' ? sections : [...sections].reverse();
        return { screen, elements: ordered.flat().map((item, index) => ({ ...item, id: `e${index + 1}` })) };
      };
      const recorded = sync(true, false);
      const byState = locatorFor(recorded, recorded.elements[3]!)!;
      expect(byState.distinguishedBy).toEqual({ checked: false });
      const bothOff = sync(false, false);
      const bySection = locatorFor(bothOff, bothOff.elements[3]!)!;
      expect(bySection.distinguishedBy).toEqual({ follows: 'Personal' });
      const swapped = sync(false, false, 'swapped');
      const found = resolveLocator(swapped, bySection);
      expect(found.kind === 'found' && found.element.id).toBe('e2');
    });
  });
});


describe('Maestro selectors as locators', () => {
  const rows = (): Scene => ({
    screen,
    elements: [
      element(1, { type: 'TextView', text: 'Mobile network', clickable: undefined }),
      element(2, { text: joinLabelParts(['Wi-Fi', 'Connected']), checked: true }),
      element(3, { text: joinLabelParts(['Wi-Fi', 'Saved']), checked: false }),
      element(4, { type: 'Button', text: 'Off', resourceId: 'summary', disabled: true }),
      element(5, { type: 'Button', text: 'Off', resourceId: 'summary' }),
    ],
  });

  it('an element placed against one that matches twice is not found: the anchor must be one, never a guess', () => {
    const found = resolveLocator(rows(), { label: 'Off', relative: { below: { label: 'Wi-Fi' } } });
    expect(found).toMatchObject({ kind: 'missing' });
    expect(found.kind === 'missing' && found.reason).toContain("the element it is below is not one to go by: 2 elements match 'Wi-Fi'");
  });

  it('state, index, folded children and a pattern that is no regular expression each narrow the match', () => {
    expect(resolveLocator(rows(), { label: 'Off', state: { enabled: true } })).toMatchObject({ kind: 'found', element: { id: 'e5' } });
    expect(resolveLocator(rows(), { idPattern: 'summ.*', index: 0 })).toMatchObject({ kind: 'found', element: { id: 'e4' } });
    const beyond = resolveLocator(rows(), { idPattern: 'summ.*', index: 2 });
    expect(beyond.kind === 'missing' && beyond.reason).toContain("only 2 elements match 'summ.*', so there is no index 2");
    expect(resolveLocator(rows(), { relative: { containsChild: { label: 'Saved' } } })).toMatchObject({ kind: 'found', element: { id: 'e3' } });
    // "Wi-Fi (" is no valid regular expression: matched as written, so nothing here.
    expect(resolveLocator(rows(), { labelPattern: 'Wi-Fi (' })).toMatchObject({ kind: 'missing' });
    expect(resolveLocator(rows(), { labelPattern: 'wi-fi', state: { checked: false } })).toMatchObject({ kind: 'found', element: { id: 'e3' } });
    expect(describeLocator({ labelPattern: 'Off', relative: { above: { label: 'Saved' } }, state: { enabled: false }, index: 1 })).toBe("'Off' above 'Saved' (not enabled) at index 1");
  });
});
