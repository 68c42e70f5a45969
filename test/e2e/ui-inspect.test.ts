// Inspect in the browser, on the demo phone: the element under the pointer outlined on the mirror with its fields and
// its tap in both flow syntaxes; the copied step run by `amc flow run` (a child process, no model) acts on that element,
// read back with GET /state; the tree's search outlines what it finds; a step in History is inspected over its box
// layout (no picture is kept); the keyboard reaches everything, every control has a name, and the words are Chinese in
// a Chinese window.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { centreOf, dumpUi, openApp, saveScreenshot, selectPhone, waitForFrameAfter } from './ui-support';
import { useUiFixture } from '../support/ui-fixture';
import { runAmc } from '../support/cli';
import { launchTestBrowser } from '../support/browser';
import { latinSentences } from '../support/latin-sentences';

const SCREEN = { width: 1080, height: 2400 };
const SETTINGS = 'com.android.settings';

const ui = useUiFixture();
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'amc-inspect-flows-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});
beforeEach(() => ui.host.harness.reset({ settings: { wifi: false } }));

/** `amc flow run` on the demo phone, writing its task into the app's own history (the same data folder). */
async function runFlow(name: string, text: string) {
  const file = path.join(dir, name);
  await writeFile(file, text);
  const { harness, home } = ui.host;
  return runAmc(['flow', 'run', file, '-s', harness.serial, '--yes'], { env: { ANDROID_ADB_SERVER_PORT: String(harness.adbPort), HOME: harness.env.HOME, AMC_HOME: home } });
}

/** Opens Settings → Network & internet on the phone itself (adb input), so the mirror shows the Wi-Fi row. */
async function openNetworkPage() {
  const { harness } = ui.host;
  await harness.adb(['-s', harness.serial, 'shell', `monkey -p ${SETTINGS} -c android.intent.category.LAUNCHER 1`]);
  await expect.poll(async () => (await harness.state()).foreground, { timeout: 15_000 }).toBe(SETTINGS);
  const home = await dumpUi(harness, harness.serial);
  const network = centreOf(home, 'Network &amp; internet');
  await harness.adb(['-s', harness.serial, 'shell', `input tap ${network.x} ${network.y}`]);
  await expect.poll(async () => /text="Wi-Fi"/.test(await dumpUi(harness, harness.serial)), { timeout: 15_000 }).toBe(true);
  return dumpUi(harness, harness.serial);
}

/** Moves the pointer over the mirror where the phone's point (device pixels) is drawn. */
async function pointAt(page: Page, point: { x: number; y: number }) {
  const box = await page.getByTestId('mirror-canvas').boundingBox();
  if (!box) throw new Error('the mirror canvas is not visible');
  await page.mouse.move(box.x + (point.x / SCREEN.width) * box.width, box.y + (point.y / SCREEN.height) * box.height);
}

/** The outline's box on the page and where the element's bounds lie on the mirror: they must agree. */
async function outlineAndBounds(page: Page, bounds: readonly number[]) {
  const [outline, canvas] = await Promise.all([page.getByTestId('inspect-outline').boundingBox(), page.getByTestId('mirror-canvas').boundingBox()]);
  if (!outline || !canvas) throw new Error('no outline or no mirror');
  const [left, top, right, bottom] = bounds as [number, number, number, number];
  const expected = { x: canvas.x + (left / SCREEN.width) * canvas.width, y: canvas.y + (top / SCREEN.height) * canvas.height, width: ((right - left) / SCREEN.width) * canvas.width, height: ((bottom - top) / SCREEN.height) * canvas.height };
  return { outline, expected };
}

/** The Scene bounds the panel shows for the selected element (`[l,t][r,b] · w×h`). */
async function shownBounds(page: Page): Promise<number[]> {
  const text = (await page.getByTestId('inspect-field-bounds').textContent()) ?? '';
  const numbers = /\[(\d+),(\d+)\]\[(\d+),(\d+)\]/.exec(text);
  if (!numbers) throw new Error(`no bounds in "${text}"`);
  return numbers.slice(1).map(Number);
}

async function openInspectOnPhone(page: Page) {
  await selectPhone(page, ui.host.harness.serial);
  await waitForFrameAfter(page, -1);
  // The keyboard path: the Inspect key anywhere outside a text field.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('i');
  await expect(page.getByRole('button', { name: 'Inspect elements' }).getAttribute('aria-pressed')).resolves.toBe('true');
  await page.getByTestId('inspect-source').waitFor({ timeout: 20_000 });
}

describe('Inspect in the browser', { timeout: 120_000 }, () => {
  it('Scenario: Inspect shows the locator of the element under the pointer, and its copy runs in a flow', async () => {
    await ui.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(ui.host.app.url).origin });
    const { page, errors } = await openApp(ui.browser, ui.host);
    const xml = await openNetworkPage();
    await openInspectOnPhone(page);
    expect(await page.getByTestId('inspect-source').getAttribute('data-source')).toBe('phone');

    // The pointer over the Wi-Fi row: it is outlined where the phone draws it, and described.
    await pointAt(page, centreOf(xml, 'Wi-Fi'));
    const details = page.getByTestId('inspect-details');
    await expect.poll(() => page.getByTestId('inspect-field-text').textContent()).toMatch(/^Wi-Fi \| Off$/);
    const { outline, expected } = await outlineAndBounds(page, await shownBounds(page));
    // Within the outline's stroke (3 px).
    for (const side of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(outline[side] - expected[side])).toBeLessThanOrEqual(4);
    const id = await details.getAttribute('data-element-id');
    expect(await page.getByTestId('inspect-field-id').textContent()).toBe(id);
    // The tree follows the pointer.
    expect(await page.getByRole('treeitem', { selected: true }).getAttribute('data-element-id')).toBe(id);
    expect(await page.getByTestId('inspect-field-state').textContent()).toContain('clickable');
    await saveScreenshot(page, 'inspect-element');

    // A click holds the selection; the pointer moving on (to the panel) leaves it.
    await pointAt(page, centreOf(xml, 'Wi-Fi'));
    await page.mouse.down();
    await page.mouse.up();
    await pointAt(page, centreOf(xml, 'Airplane mode'));
    expect(await details.getAttribute('data-element-id')).toBe(id);
    expect(await page.getByTestId('inspect-pointed').getAttribute('data-element-id')).not.toBe(id);
    // Nothing reached the phone while inspecting.
    expect((await ui.host.harness.state()).settings.wifi).toBe(false);

    const ours = (await page.getByTestId('inspect-locator-ours').textContent())!.trim();
    const maestro = (await page.getByTestId('inspect-locator-maestro').textContent())!.trim();
    expect(ours).toMatch(/^- tap: \{.*text: Wi-Fi/);
    expect(ours).not.toContain('point');
    expect(maestro).toMatch(/^- tapOn: \{.*text: Wi-Fi/);
    await page.getByRole('button', { name: 'Copy the step in Our flow syntax' }).click();
    await page.getByText('Copied.').waitFor();
    const copiedOurs = await page.evaluate(() => navigator.clipboard.readText());
    expect(copiedOurs).toBe(ours);
    await page.getByRole('button', { name: 'Copy the step in Maestro' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(maestro);
    const copiedMaestro = await page.evaluate(() => navigator.clipboard.readText());
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('inspect-panel').count()).toBe(0);

    // Our syntax: the copied step, pasted into a flow, turns Wi-Fi on.
    await ui.host.harness.reset({ settings: { wifi: false } });
    const oursRun = await runFlow('wifi.yaml', `goal: Turn Wi-Fi on\nsteps:\n  - launch_app: ${SETTINGS}\n  - tap: {text: "Network & internet"}\n  ${copiedOurs}\n`);
    expect(oursRun.stdout + oursRun.stderr).toMatch(/passed/);
    expect(oursRun.code).toBe(0);
    expect((await ui.host.harness.state()).settings.wifi).toBe(true);

    // Maestro's syntax: the same.
    await ui.host.harness.reset({ settings: { wifi: false } });
    const maestroRun = await runFlow('wifi-maestro.yaml', `appId: ${SETTINGS}\nname: Turn Wi-Fi on\n---\n- launchApp\n- tapOn: "Network & internet"\n${copiedMaestro}\n`);
    expect(maestroRun.code).toBe(0);
    expect((await ui.host.harness.state()).settings.wifi).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: A search in the tree finds an element and outlines it', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    const xml = await openNetworkPage();
    await openInspectOnPhone(page);
    await page.getByRole('searchbox', { name: 'Find an element' }).fill('airplane');
    await expect.poll(() => page.getByTestId('inspect-found').textContent()).toMatch(/^\d+ elements? found$/);
    await expect.poll(() => page.getByTestId('inspect-field-text').textContent()).toMatch(/^Airplane mode/);
    const found = await page.getByTestId('inspect-details').getAttribute('data-element-id');
    expect(await page.getByTestId('inspect-outline').getAttribute('data-element-id')).toBe(found);
    expect(await page.getByRole('treeitem', { selected: true }).getAttribute('data-element-id')).toBe(found);
    const { outline, expected } = await outlineAndBounds(page, await shownBounds(page));
    expect(Math.abs(outline.y - expected.y)).toBeLessThanOrEqual(4);
    // Outlined where the phone draws Airplane mode.
    const airplane = centreOf(xml, 'Airplane mode');
    const canvas = (await page.getByTestId('mirror-canvas').boundingBox())!;
    const middle = canvas.y + (airplane.y / SCREEN.height) * canvas.height;
    expect(middle).toBeGreaterThan(outline.y);
    expect(middle).toBeLessThan(outline.y + outline.height);
    await saveScreenshot(page, 'inspect-search');

    // Down from the search goes into the tree; the arrows move the selection and the outline with it.
    await page.getByRole('searchbox', { name: 'Find an element' }).fill('');
    await page.getByRole('searchbox', { name: 'Find an element' }).press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('treeitem');
    const first = await page.evaluate(() => document.activeElement?.getAttribute('data-element-id'));
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-element-id'))).not.toBe(first);
    const next = await page.evaluate(() => document.activeElement?.getAttribute('data-element-id'));
    expect(next).not.toBe(found);
    await expect.poll(() => page.getByTestId('inspect-outline').getAttribute('data-element-id')).toBe(next);
    // A word on no element says so.
    await page.getByRole('searchbox', { name: 'Find an element' }).fill('no such element here');
    await expect.poll(() => page.getByTestId('inspect-found').textContent()).toBe('Nothing on this screen matches “no such element here”.');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: Inspect works on the screen of a step in History, over a box layout', async () => {
    const run = await runFlow('bluetooth.yaml', `goal: Turn Bluetooth on\nsteps:\n  - launch_app: ${SETTINGS}\n  - tap: {text: "Connected devices"}\n  - tap: {text: Bluetooth}\n`);
    expect(run.code).toBe(0);
    const { page, errors } = await openApp(ui.browser, ui.host);
    await selectPhone(page, ui.host.harness.serial);
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('button', { name: 'Open "Turn Bluetooth on"' }).click();
    const third = page.locator('[data-testid="step-card"][data-step="3"]');
    await third.getByRole('button', { name: 'Step 3', exact: true }).click();
    await third.getByRole('button', { name: 'Inspect the screen of step 3' }).click();
    const panel = page.getByTestId('inspect-panel');
    await panel.getByTestId('inspect-source').waitFor();
    expect(await panel.getByTestId('inspect-source').getAttribute('data-source')).toBe('history');
    // No picture was kept: the boxes are drawn from the bounds, and nothing is outlined on the live mirror.
    const boxes = panel.getByRole('img', { name: /drawn from its elements' bounds/ });
    await boxes.waitFor();
    expect(await page.locator('.mirror .inspect-outline').count()).toBe(0);
    await panel.getByRole('searchbox', { name: 'Find an element' }).fill('Bluetooth');
    await expect.poll(() => panel.getByTestId('inspect-field-text').textContent()).toMatch(/^Bluetooth/);
    expect(await panel.getByTestId('inspect-locator-ours').textContent()).toMatch(/- tap: \{.*text: Bluetooth/);
    // Pointing at a box selects it too.
    const box = await boxes.boundingBox();
    await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height * 0.05);
    await expect.poll(() => panel.getByTestId('inspect-details').getAttribute('data-element-id')).not.toBe(null);
    await saveScreenshot(page, 'inspect-history');
    // Esc closes Inspect and History is as it was.
    await page.getByRole('searchbox', { name: 'Find an element' }).press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
    await expect.poll(() => third.isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: Inspect is reached by keyboard, names every control and speaks Chinese in a Chinese window', async () => {
    const chinese = await launchTestBrowser({ width: 1280, height: 800 }, 'zh-CN');
    try {
      await openNetworkPage();
      const page = await chinese.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(ui.host.app.url);
      await page.getByText('已连接（web）').waitFor();
      await selectPhone(page, ui.host.harness.serial);
      await waitForFrameAfter(page, -1);
      const toggle = page.getByRole('button', { name: '检查元素' });
      expect(await toggle.getAttribute('aria-keyshortcuts')).toBe('I');
      expect(await toggle.getAttribute('aria-pressed')).toBe('false');
      // The keyboard path: I opens Inspect and puts the focus on its heading; Tab goes on to its controls in order.
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('i');
      await page.getByTestId('inspect-source').waitFor({ timeout: 20_000 });
      expect(await toggle.getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('检查');
      const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent?.trim());
      await page.keyboard.press('Tab');
      expect(await focusedName()).toBe('重新读取屏幕');
      await page.keyboard.press('Tab');
      expect(await focusedName()).toBe('关闭');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search');
      await page.keyboard.type('Wi-Fi');
      await expect.poll(() => page.getByTestId('inspect-found').textContent()).toBe('找到 1 个元素');
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('treeitem');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      expect(await focusedName()).toBe('复制我们的流程语法中的这一步');
      await page.keyboard.press('Enter');
      await page.getByText('已复制。').waitFor();
      await page.keyboard.press('Tab');
      expect(await focusedName()).toBe('复制Maestro中的这一步');
      // Every control of Inspect has a name; the tree and the search field too.
      const panel = page.getByTestId('inspect-panel');
      expect(await panel.getByRole('tree', { name: '屏幕上的元素' }).count()).toBe(1);
      expect(await panel.getByRole('searchbox', { name: '查找元素' }).count()).toBe(1);
      const unnamed = await panel.evaluate((root) =>
        [...root.querySelectorAll('button, input, [role="treeitem"], [role="tree"], [role="img"]')].filter((element) => {
          const labelled = element.getAttribute('aria-label') || element.getAttribute('aria-labelledby') || element.closest('label') || element.textContent?.trim();
          return !labelled;
        }).length,
      );
      expect(unnamed).toBe(0);
      // What Inspect itself says is Chinese: the phone's own words (the tree, the fields' values, the flow steps) are not its.
      const chrome = await panel.evaluate((root) => {
        const copy = root.cloneNode(true) as HTMLElement;
        copy.querySelectorAll('[role="tree"], dd, pre').forEach((element) => element.remove());
        const attributes = [...root.querySelectorAll('[aria-label], [title], [placeholder]')].filter((element) => !element.closest('[role="tree"]')).flatMap((element) => ['aria-label', 'title', 'placeholder'].map((name) => element.getAttribute(name) ?? ''));
        return [copy.innerText, ...attributes].join('\n');
      });
      expect(chrome).toContain('元素');
      expect(latinSentences(chrome, ['AMC_Virtual_Phone', 'Maestro', 'Scene'])).toEqual([]);
      expect(latinSentences(`${await toggle.getAttribute('title')}\n${await page.getByTestId('mirror-canvas').getAttribute('aria-label')}`, ['AMC_Virtual_Phone'])).toEqual([]);
      await saveScreenshot(page, 'zh-CN-inspect-1280x800');
      // Esc closes it and gives the focus back to the toggle.
      await page.keyboard.press('Escape');
      await expect.poll(() => panel.count()).toBe(0);
      expect(await focusedName()).toBe('检查元素');
      expect(errors).toEqual([]);
    } finally {
      await chinese.close();
    }
  });
});
