// Shapes the real dumps taught us about, built small: a to-do list over budget, a lock screen whose System UI
// window holds the status bar, icon-font glyphs, a 16,000-character message and a popup over the app.
import { describe, expect, it } from 'vitest';
import { buildScene } from '../../../src/core/perception/scene-builder';
import { estimateTokens, MAX_LABEL_CHARS } from '../../../src/core/perception/scene-budget';
import { parseUiHierarchy } from '../../../src/core/perception/ui-hierarchy';
import { sceneToJson, type Scene, type ScreenFacts } from '../../../src/shared/scene';

interface Spec {
  cls?: string;
  pkg?: string;
  text?: string;
  desc?: string;
  id?: string;
  bounds: [number, number, number, number];
  clickable?: boolean;
  scrollable?: boolean;
  children?: Spec[];
}

const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
function nodeXml(spec: Spec, pkg: string): string {
  const own = spec.pkg ?? pkg;
  const [left, top, right, bottom] = spec.bounds;
  const attributes =
    `class="${spec.cls ?? 'android.widget.FrameLayout'}" package="${own}" text="${escape(spec.text ?? '')}" content-desc="${escape(spec.desc ?? '')}"` +
    ` resource-id="${spec.id ? `${own}:id/${spec.id}` : ''}" clickable="${!!spec.clickable}" scrollable="${!!spec.scrollable}" bounds="[${left},${top}][${right},${bottom}]"`;
  return `<node ${attributes}>${(spec.children ?? []).map((child) => nodeXml(child, own)).join('')}</node>`;
}
const hierarchy = (...roots: Spec[]) => parseUiHierarchy(`<hierarchy rotation="0">${roots.map((root) => nodeXml(root, root.pkg ?? 'com.example')).join('')}</hierarchy>`);
const screen = (pkg = 'com.example'): ScreenFacts => ({ width: 1080, height: 2400, orientation: 'portrait', package: pkg, keyboardShown: false });
const textView = (text: string, bounds: Spec['bounds']): Spec => ({ cls: 'android.widget.TextView', text, bounds });
const button = (desc: string, id: string, bounds: Spec['bounds']): Spec => ({ cls: 'android.widget.ImageButton', desc, id, bounds, clickable: true });

/** A to-do list: 17 rows, each with its task's name and two buttons of its own. */
function todoList(): Spec {
  const rows: Spec[] = Array.from({ length: 17 }, (_, index) => {
    const top = 300 + index * 110;
    return {
      bounds: [0, top, 1080, top + 100],
      children: [
        button('Mark as complete', 'complete', [0, top, 100, top + 100]),
        textView(`Task number ${index + 1}: buy milk and bread`, [100, top, 880, top + 100]),
        button('Add star', 'star', [880, top, 1080, top + 100]),
      ],
    };
  });
  return {
    bounds: [0, 0, 1080, 2400],
    children: [
      textView('My Tasks', [0, 100, 1080, 200]),
      { cls: 'androidx.recyclerview.widget.RecyclerView', id: 'tasks', bounds: [0, 300, 1080, 2200], scrollable: true, children: rows },
      { cls: 'android.widget.Button', text: 'Create new task', id: 'fab', bounds: [700, 2200, 1080, 2300], clickable: true },
      { cls: 'android.widget.LinearLayout', desc: 'Tasks', bounds: [0, 2300, 540, 2400], clickable: true },
      { cls: 'android.widget.LinearLayout', desc: 'Calendar', bounds: [540, 2300, 1080, 2400], clickable: true },
    ],
  };
}

const withDesc = (scene: Scene, desc: string) => scene.elements.filter((element) => element.desc === desc);

describe('Scene priorities on shapes from real phones', () => {
  it('Scenario: A repeated control carries its row label', () => {
    const scene = buildScene(hierarchy(todoList()), screen(), { tokenBudget: Infinity });
    expect(withDesc(scene, 'Add star').map((element) => element.row).slice(0, 2)).toEqual([
      'Task number 1: buy milk and bread',
      'Task number 2: buy milk and bread',
    ]);
    // A control that appears once is not a repeat and names no row.
    expect(scene.elements.find((element) => element.text === 'Create new task')?.row).toBeUndefined();
  });

  it('Scenario: The budget folds repeated row controls before it cuts unique actions, tabs or text', () => {
    const full = buildScene(hierarchy(todoList()), screen(), { tokenBudget: Infinity });
    const budget = estimateTokens(sceneToJson(full)) - 300;
    const scene = buildScene(hierarchy(todoList()), screen(), { tokenBudget: budget });
    expect(estimateTokens(sceneToJson(scene))).toBeLessThanOrEqual(budget);
    expect(scene.elements.find((element) => element.text === 'Create new task')).toBeDefined();
    expect(withDesc(scene, 'Tasks')).toHaveLength(1);
    expect(withDesc(scene, 'Calendar')).toHaveLength(1);
    // Each row keeps one control, with its row's label; the other is folded and counted.
    expect(withDesc(scene, 'Mark as complete')).toHaveLength(17);
    expect(withDesc(scene, 'Add star')).toHaveLength(0);
    expect(scene.foldedRepeats).toEqual([{ label: 'Add star', count: 17 }]);
    expect(scene.elements.some((element) => element.text === 'Task number 17: buy milk and bread')).toBe(true);
    expect(scene.elementsLeftOut).toBeUndefined();
    // Tighter still: text goes before the unique actions and tabs.
    const tight = buildScene(hierarchy(todoList()), screen(), { tokenBudget: 900 });
    expect(tight.elements.find((element) => element.text === 'Create new task')).toBeDefined();
    expect(withDesc(tight, 'Calendar')).toHaveLength(1);
    expect(tight.elements.length + tight.elementsLeftOut! + tight.foldedRepeats![0]!.count).toBe(full.elements.length);
  });

  it('Scenario: A giant label is shortened with a mark, never dropped whole', () => {
    const message = 'All work and no play makes Jack a dull boy. '.repeat(364);
    const chat: Spec = { bounds: [0, 0, 1080, 2400], children: [textView(message, [0, 300, 1080, 2000]), button('Send', 'send', [900, 2200, 1080, 2300])] };
    const scene = buildScene(hierarchy(chat), screen());
    const shortened = scene.elements.find((element) => element.text?.startsWith('All work'));
    expect(shortened?.text).toHaveLength(MAX_LABEL_CHARS + ` (${message.length - MAX_LABEL_CHARS} more characters)`.length + 1);
    expect(shortened?.text).toMatch(/… \(\d+ more characters\)$/);
    expect(scene.elementsLeftOut).toBeUndefined();
  });

  it('Scenario: A full-screen System UI window keeps its labels and reads only its status bar strip as status', () => {
    const lockScreen: Spec = {
      pkg: 'com.android.systemui',
      id: 'status_bar_container',
      bounds: [0, 0, 1080, 2400],
      children: [
        {
          id: 'status_bar',
          bounds: [0, 0, 1080, 110],
          children: [
            { cls: 'android.widget.TextView', id: 'clock', text: '9:41', bounds: [40, 20, 160, 90] },
            { cls: 'android.widget.ImageView', id: 'battery', desc: 'Battery 80 percent.', bounds: [950, 20, 1040, 90] },
          ],
        },
        textView('Swipe up to unlock', [200, 2100, 880, 2200]),
        { id: 'keyguard_notification', bounds: [40, 800, 1040, 1000], children: [textView('Mum', [80, 820, 400, 880]), textView('Dinner at 8?', [80, 900, 800, 960])] },
        button('Camera', 'camera_button', [900, 2200, 1040, 2340]),
      ],
    };
    const scene = buildScene(hierarchy(lockScreen), screen('com.android.systemui'));
    expect(scene.screen.status).toMatchObject({ time: '9:41', battery: 80 });
    const said = scene.elements.map((element) => element.text ?? element.desc);
    expect(said).toEqual(expect.arrayContaining(['Swipe up to unlock', 'Mum', 'Dinner at 8?', 'Camera']));
    expect(said).not.toContain('9:41');
    expect(scene.elements.every((element) => element.window === 'system')).toBe(true);
  });

  it('Scenario: Icon-font glyphs are not labels', () => {
    const app: Spec = {
      bounds: [0, 0, 1080, 2400],
      children: [
        { cls: 'android.widget.TextView', text: '\uf103', id: 'btn_back', bounds: [0, 100, 150, 250], clickable: true },
        { cls: 'android.widget.Button', text: '\ue8b6 Search', bounds: [200, 100, 700, 250], clickable: true },
      ],
    };
    const scene = buildScene(hierarchy(app), screen());
    expect(scene.elements[0]).toMatchObject({ unlabeled: 'back', resourceId: 'btn_back' });
    expect(scene.elements[0]!.text).toBeUndefined();
    expect(scene.elements[1]!.text).toBe('Search');
  });

  it('Scenario: Elements under a popup are marked covered and offered as nothing to act on', () => {
    const app: Spec = {
      bounds: [0, 0, 1080, 2400],
      children: [button('Menu', 'menu', [950, 100, 1080, 230]), { cls: 'android.widget.Button', text: 'Pay now', bounds: [540, 400, 1040, 520], clickable: true }],
    };
    const menu: Spec = {
      cls: 'android.widget.ListView',
      bounds: [500, 250, 1070, 700],
      children: [{ cls: 'android.widget.TextView', text: 'Settings', bounds: [500, 250, 1070, 370], clickable: true }],
    };
    const scene = buildScene(hierarchy(app, menu), screen());
    expect(scene.elements.find((element) => element.text === 'Pay now')).toEqual({ id: 'e2', type: 'Button', text: 'Pay now', bounds: [540, 400, 1040, 520], covered: true });
    expect(scene.elements.find((element) => element.text === 'Settings')).toMatchObject({ clickable: true, window: 'popup' });
    // The menu button the popup leaves uncovered is still there to tap.
    expect(withDesc(scene, 'Menu')[0]).toMatchObject({ clickable: true });
  });
});
