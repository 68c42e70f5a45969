// The running app behind the web host for the UI's browser tests: an isolated adb server with a virtual device
// (test/support/adb-harness), the app's data folder in a temporary directory, and helpers to drive the page.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startWebApp, type RunningWebApp } from '../../src/app/start-web-app';
import { ENGLISH, type Words } from '../../src/shared/i18n/translate';
import { FAKE_ANTHROPIC_KEY } from '../fakes/index';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import type { TestBrowser } from '../support/browser';
import { requireBuiltRenderer } from '../support/build';
import { writeHelperStandIn } from '../support/helper-stand-in';
import { MODEL_PLANS_EVERY_STEP } from '../support/planner-env';

export const ARTIFACTS = path.resolve('test-artifacts');

export interface UiHost {
  harness: AdbHarness;
  app: RunningWebApp;
  /** The app's data folder (settings, secrets, history); it survives restart(). */
  home: string;
  /**
   * Stops the app and starts it again on the same data folder and adb server; `sameAddress` keeps its port and
   * access token, so an open page can reconnect (as after a dropped connection).
   */
  restart(options?: { sameAddress?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** Starts the app with only the environment the test gives it (never the developer's keys or adb server). */
export async function startUiHost(extraEnv: NodeJS.ProcessEnv = {}): Promise<UiHost> {
  const harness = await startAdbHarness();
  const home = await mkdtemp(path.join(os.tmpdir(), 'amc-ui-home-'));
  // No helpers unless the test gives them (neither the shipped copies nor downloads): the mirror would switch to
  // video where a test expects screenshots.
  const env = { PATH: process.env.PATH, HOME: harness.env.HOME, ANDROID_ADB_SERVER_PORT: harness.env.ANDROID_ADB_SERVER_PORT, AMC_HELPER_DOWNLOAD: 'off', AMC_PHONE_HELPERS_DIR: '', ...extraEnv };
  const start = (address?: { port: number; token: string }) =>
    startWebApp({ rendererDir: requireBuiltRenderer(), env, home, heartbeatMs: 1000, ...address });
  const host: UiHost = {
    harness,
    home,
    app: await start(),
    async restart(options) {
      const address = options?.sameAddress ? { port: Number(new URL(host.app.origin).port), token: host.app.token } : undefined;
      await host.app.close();
      host.app = await start(address);
    },
    async close() {
      await host.app.close();
      await harness.stop();
      await rm(home, { recursive: true, force: true });
    },
  };
  return host;
}

/** A host whose scrcpy-server is a local file (the demo phone runs whatever is pushed), so the video path runs offline. */
export async function startVideoUiHost(): Promise<UiHost> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'amc-ui-scrcpy-'));
  const server = path.join(dir, 'scrcpy-server');
  await writeHelperStandIn('scrcpy-server', server);
  const host = await startUiHost({ SCRCPY_SERVER_PATH: server }).catch(async (error: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  const closeHost = host.close;
  host.close = async () => {
    await closeHost();
    await rm(dir, { recursive: true, force: true });
  };
  return host;
}

/** How many scrcpy servers (app_process) run on the phone. */
export async function scrcpyServersOn(harness: AdbHarness): Promise<number> {
  const ps = await harness.shell('ps -A');
  return ps.stdout.split('\n').filter((line) => line.trim().endsWith(' app_process')).length;
}

/** The AI planner straight to a fake Anthropic API, set through the environment so the settings on disk stay untouched. */
export function anthropicFakeEnv(baseUrl: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    AI_PLANNER_ENABLED: 'true',
    AI_PLANNER_PROVIDER: 'anthropic',
    AI_PLANNER_TRANSPORT: 'direct',
    AI_PLANNER_MODEL: 'claude-test',
    ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: baseUrl,
    ...MODEL_PLANS_EVERY_STEP,
    ...extra,
  };
}

export interface AppPage {
  page: Page;
  /** Uncaught errors of the page; a test expects none. */
  errors: string[];
}

/** Opens the app and waits until it is connected and has loaded the device list. */
export async function openApp(browser: TestBrowser, host: UiHost, options: { beforeLoad?: () => void } = {}): Promise<AppPage> {
  const page = await browser.context.newPage();
  if (options.beforeLoad) await page.addInitScript(options.beforeLoad);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(host.app.url);
  await page.getByText('Connected via web').waitFor();
  await page.getByRole('list', { name: 'Phones' }).or(page.getByTestId('devices-empty')).first().waitFor();
  return { page, errors };
}

export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `ui-${name}.png`) });
}

/** A page of the app in the fixture's (Chinese) browser at 1280x800, once it is connected, and the page errors it meets. */
export async function openConnectedPage(ui: { browser: TestBrowser; host: UiHost }, connected = '已连接（web）'): Promise<{ page: Page; errors: string[] }> {
  const page = await ui.browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(ui.host.app.url);
  await page.getByText(connected).waitFor();
  return { page, errors };
}

/** Picks a phone in the device list. */
export async function selectPhone(page: Page, serial: string): Promise<void> {
  const row = page.locator(`[data-testid="device-row"][data-serial="${serial}"]`);
  await row.getByRole('button', { pressed: false }).or(row.getByRole('button', { pressed: true })).first().click();
  await expect.poll(() => row.getByRole('button', { pressed: true }).count()).toBe(1);
}

/** The sequence number of the frame the mirror painted last (-1 before the first). */
export async function paintedSeq(page: Page): Promise<number> {
  const seq = await page.getByTestId('mirror-canvas').getAttribute('data-seq');
  return seq ? Number(seq) : -1;
}

/** Waits until the mirror has painted a frame newer than `after`. */
export async function waitForFrameAfter(page: Page, after: number): Promise<number> {
  await page.waitForFunction(
    (seen) => Number(document.querySelector('[data-testid="mirror-canvas"]')?.getAttribute('data-seq') || -1) > seen,
    after,
    { timeout: 20_000 },
  );
  return paintedSeq(page);
}

/** The mirror's pixels as a data URL (frames come from blob: URLs, so the canvas is readable). */
export function mirrorPixels(page: Page): Promise<string> {
  return page.getByTestId('mirror-canvas').evaluate((canvas) => (canvas as HTMLCanvasElement).toDataURL('image/png'));
}

/** Clicks the mirror where the phone's point (device pixels) is drawn. */
export async function clickMirrorAt(page: Page, point: { x: number; y: number }, screen: { width: number; height: number }): Promise<void> {
  const canvas = page.getByTestId('mirror-canvas');
  const box = await canvas.boundingBox();
  if (!box) throw new Error('the mirror canvas is not visible');
  await canvas.click({ position: { x: (point.x / screen.width) * box.width, y: (point.y / screen.height) * box.height } });
}

/** Centre of the first node whose text (or, with `by: 'id'`, resource-id ending) is `text` in a `uiautomator dump`. */
export function centreOf(xml: string, text: string, by: 'text' | 'id' = 'text'): { x: number; y: number } {
  const attribute = by === 'text' ? `text="${text}"` : `resource-id="[^"]*${text}"`;
  const node = new RegExp(`${attribute}[^>]*?bounds="\\[(\\d+),(\\d+)\\]\\[(\\d+),(\\d+)\\]"`).exec(xml);
  if (!node) throw new Error(`no node with text "${text}" on the screen`);
  const [left, top, right, bottom] = node.slice(1).map(Number) as [number, number, number, number];
  return { x: Math.round((left + right) / 2), y: Math.round((top + bottom) / 2) };
}

/** The phone's UI hierarchy through the test's adb server. */
export async function dumpUi(harness: AdbHarness, serial: string): Promise<string> {
  const result = await harness.adb(['-s', serial, 'shell', 'uiautomator dump /dev/tty']);
  if (result.code !== 0) throw new Error(`uiautomator dump failed: ${result.stderr}`);
  return result.stdout;
}

/** A timeline card by step number. */
export const stepCard = (page: Page, step: number) => page.locator(`[data-testid="step-card"][data-step="${step}"]`);

/** Opens a compact timeline card (cards are one line until clicked). */
export async function expandCard(page: Page, step: number): Promise<void> {
  const toggle = stepCard(page, step).getByRole('button', { name: `Step ${step}`, exact: true });
  await toggle.waitFor();
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await stepCard(page, step).locator('.step-body').waitFor();
}

/** The element's box lies wholly inside the viewport (nothing of it scrolled or cut off). */
export async function fullyInViewport(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((css) => {
    const box = document.querySelector(css)?.getBoundingClientRect();
    return !!box && box.width > 0 && box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth;
  }, selector);
}

/**
 * The person can see and click the element as the window stands: it lies inside the viewport and nothing (a
 * scroll area's edge, another panel) hides its centre.
 */
export function reachable(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.top < 0 || box.left < 0 || box.bottom > window.innerHeight || box.right > window.innerWidth) return false;
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return !!hit && element.contains(hit);
  });
}

/** Chooses one of a History row's actions: opens the row's menu (named after its goal) and picks the item. */
export async function chooseRowAction(page: Page, goal: string, item: string, words: Words = ENGLISH): Promise<void> {
  await page.getByRole('button', { name: words.t('app:history.actionsFor', { goal }), exact: true }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}
