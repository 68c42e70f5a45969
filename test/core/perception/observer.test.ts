import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdbClient } from '../../../src/core/device/adb-client';
import { HelperProvider } from '../../../src/core/device/helpers/helper-provider';
import { PhoneHelpers } from '../../../src/core/device/helpers/phone-helpers';
import { Observer } from '../../../src/core/perception/observer';
import { estimateTokens } from '../../../src/core/perception/scene-budget';
import { ConfigError, resolveRuntimeConfig } from '../../../src/core/runtime/config';
import { taskPoliciesFrom } from '../../../src/core/runtime/task-policies';
import { boundsCenter, sceneToJson, type Scene, type SceneElement } from '../../../src/shared/scene';
import { defaultSettings } from '../../../src/shared/settings';
import { resolveLocator } from '../../../src/core/flows/locator';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';
import { writeHelperStandIn } from '../../support/helper-stand-in';

let harness: AdbHarness;
let adb: AdbClient;
let observer: Observer;

beforeAll(async () => {
  harness = await startAdbHarness();
  adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
  observer = new Observer(adb);
});
afterAll(async () => {
  await harness?.stop();
});
beforeEach(async () => {
  await harness.control('/reset', { method: 'POST' });
});

async function sceneNow(): Promise<Scene> {
  const observation = await observer.observe(harness.serial);
  if (!observation.scene) throw new Error(observation.sceneError);
  return observation.scene;
}

function find(scene: Scene, label: string): SceneElement {
  const element = scene.elements.find((e) => e.text === label || e.desc === label || e.text?.startsWith(`${label} | `));
  if (!element) throw new Error(`no "${label}" in ${JSON.stringify(scene.elements.map((e) => e.text ?? e.desc))}`);
  return element;
}

async function tapOn(element: SceneElement): Promise<void> {
  const { x, y } = boundsCenter(element.bounds);
  await adb.shell(harness.serial, `input tap ${x} ${y}`);
}

describe('Observer against the virtual device', () => {
  it('Scenario: Observing the launcher lists the app icons', async () => {
    const observation = await observer.observe(harness.serial);
    const scene = observation.scene!;
    expect(scene.screen).toMatchObject({ width: 1080, height: 2400, orientation: 'portrait', package: 'com.android.launcher3', keyboardShown: false });
    // The status bar is screen facts, not elements; the navigation bar's buttons stay.
    expect(scene.screen.status).toMatchObject({ time: expect.stringMatching(/^\d{1,2}:\d{2}/), battery: 100 });
    expect(scene.elements.filter((e) => e.bounds[3] <= 84)).toEqual([]);
    expect(scene.elements.filter((e) => e.window === 'system').map((e) => e.desc)).toEqual(['Back', 'Home', 'Overview']);
    for (const label of ['Settings', 'Contacts', 'Clock', 'Notes', 'Messages']) {
      expect(find(scene, label)).toMatchObject({ clickable: true });
    }
    expect(scene.elements.map((e) => e.id)).toEqual(scene.elements.map((_, i) => `e${i + 1}`));
    const shot = observation.screenshot!;
    expect([shot.mediaType, shot.width, shot.height]).toEqual(['image/jpeg', 655, 1456]);
    expect(shot.scale).toBeCloseTo(2400 / 1456, 2);
    expect((await sharp(shot.bytes).metadata()).width).toBe(655);
    expect(observation.timings.dumpMs).toBeGreaterThan(0);
    expect(observation.timings.screenshotMs).toBeGreaterThan(0);
    expect(observation.timings.totalMs).toBeGreaterThanOrEqual(observation.timings.dumpMs!);
  });

  it('Scenario: Observing a dialog shows its message and buttons', async () => {
    await adb.shell(harness.serial, 'monkey -p com.android.contacts -c android.intent.category.LAUNCHER 1');
    const scene = await sceneNow();
    expect(scene.screen.package).toBe('com.android.contacts');
    expect(find(scene, 'Allow Contacts to access your contacts?')).toBeDefined();
    expect(find(scene, 'Allow')).toMatchObject({ type: 'Button', clickable: true });
    expect(find(scene, "Don't allow")).toMatchObject({ type: 'Button', clickable: true });
  });

  it('Scenario: Observing a form with the keyboard up', async () => {
    await adb.shell(harness.serial, 'monkey -p com.android.contacts -c android.intent.category.LAUNCHER 1');
    await tapOn(find(await sceneNow(), 'Allow'));
    await tapOn(find(await sceneNow(), 'Create contact'));
    const form = await sceneNow();
    expect(form.screen.keyboardShown).toBe(false);
    await tapOn(form.elements.find((e) => e.resourceId === 'editor_name')!);
    const scene = await sceneNow();
    expect(scene.screen.keyboardShown).toBe(true);
    expect(scene.elements.find((e) => e.resourceId === 'editor_name')).toMatchObject({ type: 'EditText', editable: true, focused: true });
    expect(scene.elements.find((e) => e.resourceId === 'editor_phone')).toMatchObject({ editable: true });
    expect(scene.elements.find((e) => e.resourceId === 'editor_phone')?.focused).toBeUndefined();
    // The keyboard's keys are not elements: the planner types with type_text.
    expect(scene.elements.filter((e) => /^[a-z]$/i.test(e.text ?? e.desc ?? ''))).toEqual([]);
  });

  it('Scenario: Observing a scrolled list', async () => {
    await adb.shell(harness.serial, 'monkey -p com.android.settings -c android.intent.category.LAUNCHER 1');
    const top = await sceneNow();
    expect(() => find(top, 'About phone')).toThrow();
    const list = top.elements.find((e) => e.scrollable)!;
    expect(list).toMatchObject({ type: 'RecyclerView' });
    for (let i = 0; i < 2; i++) await adb.shell(harness.serial, 'input swipe 540 1900 540 600 300');
    const scrolled = await sceneNow();
    expect(find(scrolled, 'About phone')).toMatchObject({ clickable: true });
    expect(() => find(scrolled, 'Network & internet')).toThrow();
  });

  it('Scenario: A dump that fails once is retried', async () => {
    await harness.control('/faults', { body: { kind: 'idle-state-error' } });
    const observation = await observer.observe(harness.serial);
    expect(observation.sceneError).toBeUndefined();
    expect(find(observation.scene!, 'Settings')).toBeDefined();
    expect((await harness.control<{ faults: unknown[] }>('/faults')).body.faults).toEqual([]);
  });

  it('Scenario: A dump that fails for good is reported in the observation', async () => {
    await harness.control('/faults', { body: { kind: 'idle-state-error' } });
    await harness.control('/faults', { body: { kind: 'idle-state-error' } });
    const observation = await observer.observe(harness.serial);
    expect(observation.scene).toBeNull();
    expect(observation.sceneError).toMatch(/UI could not be read.*could not get idle state/);
    expect(observation.screenshot).toBeDefined();
  });

  it('Scenario: A screen that never goes idle is read with the yadb layout dump', async () => {
    expect((await observer.observe(harness.serial)).scene?.dump).toBe('uiautomator');
    await harness.control('/loading-bar', { body: { running: true } });
    // As on a real phone: uiautomator waits for an idle state the redrawing screen never reaches.
    expect((await harness.shell('uiautomator dump /dev/tty')).stdout + (await harness.shell('uiautomator dump /dev/tty')).stderr).toMatch(/could not get idle state/);
    const ownObserver = new Observer(adb, { screenshot: false });
    const withoutYadb = await ownObserver.observe(harness.serial);
    expect(withoutYadb.scene).toBeNull();
    expect(withoutYadb.sceneError).toMatch(/could not get idle state/);

    const jar = join(harness.tmpDir, 'yadb');
    writeFileSync(jar, 'dex\n');
    expect((await harness.adb(['-s', harness.serial, 'push', jar, '/data/local/tmp/yadb'])).code).toBe(0);
    const observation = await ownObserver.observe(harness.serial);
    expect(observation.sceneError).toBeUndefined();
    expect(observation.scene).toMatchObject({ dump: 'yadb', screen: { package: 'com.android.launcher3' } });
    expect(find(observation.scene!, 'Settings')).toMatchObject({ clickable: true });
    // The next turns go to yadb first instead of waiting out uiautomator again: an armed dump failure stays unused.
    await harness.control('/loading-bar', { body: { running: false } });
    await harness.control('/faults', { body: { kind: 'idle-state-error' } });
    expect((await ownObserver.observe(harness.serial)).scene?.dump).toBe('yadb');
    expect((await harness.control<{ faults: unknown[] }>('/faults')).body.faults).toHaveLength(1);
  });

  it('Scenario: The first read of an animated screen on a fresh phone pushes yadb and gives a Scene', async () => {
    // A fresh phone: the reset emptied /data/local/tmp, nothing was ever pushed to it, and its loading bar runs.
    expect((await harness.shell('ls /data/local/tmp/yadb')).stderr + (await harness.shell('ls /data/local/tmp/yadb')).stdout).toMatch(/No such file/);
    await harness.control('/loading-bar', { body: { running: true } });
    const home = mkdtempSync(join(tmpdir(), 'amc-yadb-'));
    const yadbFile = await writeHelperStandIn('yadb', join(home, 'yadb-v1.1.1'));
    const helpersWith = (yadbPath: string) =>
      new PhoneHelpers(async () => adb, new HelperProvider({ settings: async () => ({ scrcpyServerPath: '', yadbPath, download: false }), dataDir: home, shippedDir: null }));

    const observation = await new Observer(adb, { screenshot: false, helpers: helpersWith(yadbFile) }).observe(harness.serial);
    expect(observation.sceneError).toBeUndefined();
    expect(observation.scene).toMatchObject({ dump: 'yadb', screen: { package: 'com.android.launcher3' } });
    expect(find(observation.scene!, 'Settings')).toMatchObject({ clickable: true });
    expect((await harness.shell('ls -l /data/local/tmp/yadb')).stdout).toContain('14431');

    // Neither can read it: no yadb on this machine and downloads off. The person reads both reasons.
    await harness.control('/reset', { method: 'POST' });
    await harness.control('/loading-bar', { body: { running: true } });
    const blind = await new Observer(adb, { screenshot: false, helpers: helpersWith(''), retrySettleMs: 10 }).observe(harness.serial);
    expect(blind.scene).toBeNull();
    expect(blind.sceneError).toMatch(/^The screen's UI could not be read \(uiautomator dump failed twice, and yadb could not read it either\): .*could not get idle state.*; yadb 1\.1\.1 .*download/s);
  });

  it("Scenario: The demo phone's bank page shows collapsed offers under a modal site prompt", async () => {
    await adb.shell(harness.serial, 'am start -a android.intent.action.VIEW -d https://bank.example/offers');
    const prompted = await sceneNow();
    expect(prompted.screen).toMatchObject({ package: 'com.android.chrome', dialog: 'bank.example wants to use your location' });
    // The offers' section is dumped with zero height; its buttons are still read, the unlabeled one named by its link.
    for (const offer of ['Open a savings account', 'Apply for the travel card', 'Get a loan quote']) {
      expect(prompted.elements.find((element) => element.text === offer || element.desc === offer), offer).toMatchObject({ covered: true });
    }
    // A flow step aiming at an offer names the prompt instead of tapping behind it; a tap there changes nothing.
    const step = resolveLocator(prompted, { app: 'com.android.chrome', text: 'Get a loan quote' });
    expect(step).toEqual({
      kind: 'missing',
      reason: expect.stringMatching(/^a dialog 'bank\.example wants to use your location' is in front: 'Get a loan quote' lies behind it/),
      said: expect.objectContaining({ code: 'locate.behindDialog', values: expect.objectContaining({ dialog: 'bank.example wants to use your location' }) }),
    });
    await tapOn(prompted.elements.find((element) => element.text === 'Get a loan quote')!);
    expect((await harness.control<{ browser: { url: string } }>('/state')).body.browser.url).toBe('https://bank.example/offers');

    await tapOn(find(prompted, 'Allow'));
    const page = await sceneNow();
    expect(page.screen.dialog).toBeUndefined();
    expect(page.elements.find((element) => element.desc === 'Apply for the travel card')).toMatchObject({ type: 'Button', clickable: true });
    const loan = resolveLocator(page, { app: 'com.android.chrome', text: 'Get a loan quote' });
    expect(loan.kind).toBe('found');
    await tapOn(loan.kind === 'found' ? loan.element : find(page, 'Get a loan quote'));
    expect((await harness.control<{ browser: { url: string; title: string } }>('/state')).body.browser).toEqual({ url: 'https://bank.example/offers/loan', title: 'A loan quote: application started' });
  });

  it('Scenario: An unreachable phone fails the observation', async () => {
    await expect(observer.observe('127.0.0.1:1')).rejects.toMatchObject({ name: 'AdbError', kind: 'device-not-found' });
    await expect(observer.observe('127.0.0.1:1')).rejects.toThrow(/No device "127\.0\.0\.1:1" is connected/);
  });

  it('Scenario: A failed screenshot leaves the Scene', async () => {
    await harness.control('/faults', { body: { kind: 'corrupt-screencap' } });
    const observation = await observer.observe(harness.serial);
    expect(observation.screenshot).toBeUndefined();
    expect(observation.screenshotError).toMatch(/^No screenshot/);
    expect(find(observation.scene!, 'Clock')).toBeDefined();
  });

  it('Scenario: Screenshots can be turned off, sent as PNG, or taken raw', async () => {
    const sceneOnly = await new Observer(adb, { screenshot: false }).observe(harness.serial);
    expect(sceneOnly.screenshot).toBeUndefined();
    expect(sceneOnly.screenshotError).toBeUndefined();
    expect(sceneOnly.timings.screenshotMs).toBeUndefined();
    const png = await new Observer(adb, { screencap: 'png', screenshot: { format: 'png', longEdge: 800 } }).observe(harness.serial);
    expect([png.screenshot!.mediaType, png.screenshot!.width, png.screenshot!.height]).toEqual(['image/png', 360, 800]);
    expect((await sharp(png.screenshot!.bytes).metadata()).format).toBe('png');
    const raw = await new Observer(adb, { screencap: 'raw', screenshot: { format: 'webp' } }).observe(harness.serial);
    expect([raw.screenshot!.mediaType, raw.screenshot!.width, raw.screenshot!.height]).toEqual(['image/webp', 655, 1456]);
  });

  it('Scenario: The Scene token budget comes from Settings', async () => {
    await adb.shell(harness.serial, 'monkey -p com.android.settings -c android.intent.category.LAUNCHER 1');
    const stored = { settings: defaultSettings(), secrets: {} };
    const whole = await observer.observe(harness.serial, { sceneTokenBudget: taskPoliciesFrom(resolveRuntimeConfig(stored, {}).settings, undefined).sceneTokenBudget });
    expect(whole.scene!.elementsLeftOut).toBeUndefined();
    const tight = resolveRuntimeConfig(stored, { AMC_SCENE_TOKEN_BUDGET: '500' });
    const cut = await observer.observe(harness.serial, { sceneTokenBudget: taskPoliciesFrom(tight.settings, undefined).sceneTokenBudget });
    expect(estimateTokens(sceneToJson(whole.scene!))).toBeGreaterThan(500);
    expect(estimateTokens(sceneToJson(cut.scene!))).toBeLessThanOrEqual(500);
    expect(cut.scene!.elementsLeftOut).toBe(whole.scene!.elements.length - cut.scene!.elements.length);
    // Cut by priority: a plain text is left out before any control is.
    const plain = (e: SceneElement) => !(e.clickable || e.scrollable || e.editable || e.checked !== undefined);
    expect(cut.scene!.elements.filter(plain)).toEqual([]);
    expect(cut.scene!.elements.length).toBeGreaterThan(5);
    for (const value of ['100', '20001', 'lots']) {
      expect(() => resolveRuntimeConfig(stored, { AMC_SCENE_TOKEN_BUDGET: value })).toThrow(ConfigError);
      expect(() => resolveRuntimeConfig(stored, { AMC_SCENE_TOKEN_BUDGET: value })).toThrow(`AMC_SCENE_TOKEN_BUDGET must be a whole number from 500 to 20000 (got "${value}")`);
    }
  });

  it('stops an observation stuck on a hanging command when aborted', async () => {
    await harness.control('/faults', { body: { kind: 'hang' } });
    const controller = new AbortController();
    const pending = observer.observe(harness.serial, { signal: controller.signal });
    await harness.waitForHang();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => harness.device.adb.stats().streams, { timeout: 5000 }).toBe(0);
  });
});
