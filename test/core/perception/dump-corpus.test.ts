// The fixture corpus (test/fixtures/dumps): dumps written for this project in the shapes real apps emit, each with
// the adb answers the Observer would have had and its expected Scene (`*.scene.json`, reviewed by hand; after an
// intended change, rerun with `-u` and review the diff).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseWmSize } from '../../../src/core/device/android/wm';
import { buildScene, type SceneBuildOptions } from '../../../src/core/perception/scene-builder';
import { estimateTokens } from '../../../src/core/perception/scene-budget';
import { screenFacts } from '../../../src/core/perception/screen-facts';
import { parseDisplayInfo } from '../../../src/core/device/android/dumpsys';
import { parseUiHierarchy } from '../../../src/core/perception/ui-hierarchy';
import { DEFAULT_SCENE_TOKEN_BUDGET, joinLabelParts, labelParts, SceneSchema, sceneFingerprint, sceneToJson, type Scene, type SceneElement } from '../../../src/shared/scene';
import { expectActionableNodesRepresented, expectLabelsKept, partsOf } from '../../support/scene-coverage';

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

const withText = (scene: Scene, part: string) => scene.elements.filter((element) => partsOf(element).includes(part));


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
        expectActionableNodesRepresented(hierarchy, full);
      });

      it('keeps every text and description that says something', () => {
        expectLabelsKept(hierarchy, full);
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


describe('Scenes of real shapes', () => {
  it('Scenario: Child descriptions that add information stay with their row', () => {
    const chat = sceneNamed('whatsapp-group-chat');
    const oks = chat.elements.filter((element) => partsOf(element).includes('OK'));
    expect(oks.map((element) => partsOf(element))).toEqual([['Bob', 'OK', '20:12'], ['Carla', 'OK', '20:13'], ['OK', '20:16', 'Delivered']]);
    const feed = sceneNamed('bilibili-feed');
    // text="1095.7万" content-desc="1095.7万观看": the description says what the number counts, and replaces it.
    expect(partsOf(feed.elements.find((element) => element.text?.includes('成都'))!).slice(0, 3)).toEqual(['1095.7万观看', '3.2万弹幕', '视频时长10:01']);
    const list = sceneNamed('whatsapp-chats');
    expect(withText(list, 'Bob Smith')[0]!.text).toBe('Bob Smith | 19:02 | Read | OK');
    // A row whose own description already says everything its children say keeps only the description.
    const mail = sceneNamed('gmail-chat-head').elements.find((element) => element.desc?.startsWith('Unread, Amazon'))!;
    expect(mail.text).toBeUndefined();
    // An image's name that the title begins with is said once.
    expect(withText(sceneNamed('android-tv-home'), 'Stranger Things · S4 E7')).toHaveLength(1);
  });

  it('Scenario: Merged labels stay separable whatever they contain', () => {
    const feed = sceneNamed('bilibili-feed');
    const tile = feed.elements.find((element) => element.text?.includes('街头篮球'))!;
    expect(labelParts(tile.text!)).toEqual(['356.1万观看', '8421弹幕', '视频时长0:58', '114万点赞 | 竖屏 这才是真正的街头篮球', '竖屏', '篮球日记']);
    const row = withText(sceneNamed('whatsapp-chats'), 'Eve | Design')[0]!;
    expect(labelParts(row.text!)).toEqual(['Eve | Design', '29/11/2026', 'Sent', 'Mockups v2 | final.pdf']);
    for (const parts of [['a \\ b', 'c | d'], ['\\|', ' | '], ['plain']]) expect(labelParts(joinLabelParts(parts))).toEqual(parts);
  });

  it('Scenario: A clickable wrapper and its same-bounds clickable child are one element', () => {
    const page = sceneNamed('play-store-app');
    expect(page.elements.filter((element) => element.bounds.join() === '40,680,1040,800')).toEqual([
      expect.objectContaining({ type: 'Button', text: 'Install', clickable: true }),
    ]);
    // The wrapper's description names its unlabeled child.
    expect(page.elements.filter((element) => element.bounds.join() === '40,820,1040,900')).toEqual([
      expect.objectContaining({ desc: 'Add to wishlist', clickable: true }),
    ]);
  });

  it('Scenario: The status bar becomes screen facts and the navigation bar stays', () => {
    const scene = sceneNamed('whatsapp-chats');
    expect(scene.screen.status).toEqual({ time: '21:47', battery: 62, network: ['Wifi signal full', 'Phone four bars'], notifications: 2 });
    expect(scene.elements.filter((element) => element.bounds[3] <= 110)).toEqual([]);
    expect(scene.elements.filter((element) => element.window === 'system').map((element) => element.desc)).toEqual(['Back', 'Home', 'Overview']);
    expect(sceneNamed('whatsapp-group-chat').screen.status).toMatchObject({ battery: 63, charging: true });
    expect(sceneNamed('pixel-launcher').screen.status).toMatchObject({ notifications: 4, indicators: ['Alarm set for Wed 7:00 AM', 'Vibrate'] });
    expect(sceneNamed('bilibili-feed').screen.status).toMatchObject({ time: '14:05', battery: 47, network: ['WLAN 信号满格', '中国移动，信号强度为四格'] });
    expect(sceneNamed('nubank-home-pt').screen.status).toMatchObject({ battery: 54, notifications: 1 });
    // The shade's clock is not a status bar: System UI there is a window of elements.
    const shade = sceneNamed('notification-shade');
    expect(shade.screen.status).toBeUndefined();
    expect(shade.elements.every((element) => element.window === 'system')).toBe(true);
    expect(shade.elements.find((element) => element.desc === 'Internet, HomeNet')).toMatchObject({ checked: true, clickable: true });
  });

  it('Scenario: The change detector ignores the clock and battery', () => {
    const scene = sceneNamed('whatsapp-chats');
    const later: Scene = { ...scene, screen: { ...scene.screen, status: { ...scene.screen.status, time: '21:48', battery: 61, charging: true } } };
    expect(sceneFingerprint(later)).toBe(sceneFingerprint(scene));
    const moreMail: Scene = { ...scene, screen: { ...scene.screen, status: { ...scene.screen.status, notifications: 3 } } };
    expect(sceneFingerprint(moreMail)).not.toBe(sceneFingerprint(scene));
    const scrolled: Scene = { ...scene, elements: scene.elements.slice(1) };
    expect(sceneFingerprint(scrolled)).not.toBe(sceneFingerprint(scene));
  });

  it("Scenario: Dialogs, popups and other apps' windows are marked", () => {
    const permission = sceneNamed('permission-over-app');
    expect(permission.elements.find((element) => element.text === 'Allow all')).toMatchObject({ window: 'dialog' });
    expect(permission.elements.find((element) => element.text === 'Next')).toMatchObject({ window: 'other-app' });
    const menu = sceneNamed('chrome-popup-menu');
    expect(menu.elements.find((element) => element.text === 'History')).toMatchObject({ window: 'popup' });
    expect(menu.elements.find((element) => element.text === 'More information...')?.window).toBeUndefined();
    const mail = sceneNamed('gmail-chat-head');
    expect(mail.elements.find((element) => element.desc === 'Chat head: Lucas')).toMatchObject({ window: 'other-app' });
    expect(mail.elements.find((element) => element.text === 'Compose')?.window).toBeUndefined();
    expect(sceneNamed('dialog-only').elements.every((element) => element.window === 'dialog')).toBe(true);
    const keyboard = sceneNamed('gboard-open');
    expect(keyboard.screen.keyboardShown).toBe(true);
    expect(keyboard.elements.some((element) => element.desc === 'q' || element.text === 'coffees')).toBe(false);
  });

  it('Scenario: Unlabeled actionable elements get a derived hint', () => {
    const hints = Object.fromEntries(
      sceneNamed('naf-icon-buttons').elements.filter((element) => element.unlabeled).map((element) => [element.resourceId ?? element.type, element.unlabeled]),
    );
    expect(hints).toEqual({
      ngl: 'icon button',
      iv_search: 'search',
      btnShareNote: 'share note',
      awa: 'icon button',
      a1b: 'more vert',
      CheckBox: 'checkbox',
      Button: 'button',
      View: 'unlabeled control',
      EditText: 'text field',
    });
    // A labelled element is never marked.
    for (const corpusCase of cases) {
      for (const element of sceneOf(corpusCase).elements) {
        if (element.unlabeled) expect(element.text ?? element.desc ?? element.hint).toBeUndefined();
      }
    }
  });

  it('Scenario: Screen facts are right on every shape', () => {
    const facts = (name: string) => {
      const { width, height, orientation, rotation } = sceneNamed(name).screen;
      return { width, height, orientation, rotation };
    };
    expect(facts('tablet-settings-rot3')).toEqual({ width: 2560, height: 1600, orientation: 'landscape', rotation: 3 });
    expect(facts('youtube-landscape-player')).toEqual({ width: 2400, height: 1080, orientation: 'landscape', rotation: 1 });
    expect(facts('android-tv-home')).toEqual({ width: 1920, height: 1080, orientation: 'landscape', rotation: undefined });
    // wm size failed: dumpsys display says 1920x1080, though the launcher window ends at 1898x965.
    expect(facts('car-head-unit')).toEqual({ width: 1920, height: 1080, orientation: 'landscape', rotation: undefined });
    // Nothing answered and the dump holds a 686x1057 dialog: it is centred on the screen, not the screen.
    expect(facts('dialog-only')).toEqual({ width: 1080, height: 2399, orientation: 'portrait', rotation: undefined });
  });

  it('Scenario: A huge screen is cut to the token budget by priority', () => {
    const page = sceneNamed('webview-article');
    const full = sceneNamed('webview-article', unlimited);
    expect(estimateTokens(sceneToJson(full))).toBeGreaterThan(DEFAULT_SCENE_TOKEN_BUDGET);
    expect(estimateTokens(sceneToJson(page))).toBeLessThanOrEqual(DEFAULT_SCENE_TOKEN_BUDGET);
    expect(page.elementsLeftOut).toBe(full.elements.length - page.elements.length);
    const key = (element: SceneElement) => `${element.bounds.join()} ${element.text ?? element.desc ?? ''}`;
    const kept = new Set(page.elements.map(key));
    // Everything actionable stays; what goes is plain text, and the kept elements stay in reading order.
    for (const element of full.elements) if (element.clickable || element.scrollable) expect(kept.has(key(element))).toBe(true);
    expect(full.elements.filter((element) => !kept.has(key(element))).every((element) => !element.clickable)).toBe(true);
    const order = full.elements.map(key).filter((k) => kept.has(k));
    expect(page.elements.map(key)).toEqual(order);
    // A smaller budget cuts deeper, and a budget for nothing leaves out everything.
    const small = sceneNamed('webview-article', { tokenBudget: 800 });
    expect(small.elements.length).toBeLessThan(page.elements.length);
    expect(estimateTokens(sceneToJson(small))).toBeLessThanOrEqual(800);
    expect(sceneNamed('webview-article', { tokenBudget: 0 })).toMatchObject({ elements: [], elementsLeftOut: full.elements.length });
  });
});
