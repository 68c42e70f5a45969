// The phone's default size in the browser: at 1280x800 and 1920x1080 the mirror uses the window's height, beside the
// device list, and leaves the timeline its room; the splitter still sets another size, which is kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchTestBrowser, type TestBrowser } from '../support/browser';
import { fullyInViewport, openApp, saveScreenshot, startUiHost, type UiHost } from './ui-support';

let host: UiHost;
const browsers: TestBrowser[] = [];

beforeAll(async () => {
  host = await startUiHost();
}, 90_000);

afterAll(async () => {
  for (const browser of browsers) await browser.close();
  await host?.close();
});

/** A fresh profile (no size remembered) at `viewport`, with the demo phone's first frame painted. */
async function freshPage(viewport: { width: number; height: number }): Promise<Page> {
  const browser = await launchTestBrowser(viewport);
  browsers.push(browser);
  const { page } = await openApp(browser, host);
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="mirror-canvas"]')?.getAttribute('data-seq') || -1) >= 0, undefined, { timeout: 30_000 });
  return page;
}

const widthOf = async (page: Page, testId: string) => (await page.getByTestId(testId).boundingBox())!.width;
/** The column of the goal box and the timeline. */
const workWidth = async (page: Page) => (await page.locator('main .work').boundingBox())!.width;

describe('the mirror by default', { timeout: 120_000 }, () => {
  it("Scenario: By default the phone uses the window's height beside the device list at 1280x800 and 1920x1080", async () => {
    const small = await freshPage({ width: 1280, height: 800 });
    // Before: 219 px wide under the list. Now the whole height of the panel, beside it.
    await expect.poll(() => widthOf(small, 'mirror-canvas')).toBeGreaterThanOrEqual(265);
    expect(await fullyInViewport(small, '[data-testid="mirror-canvas"]')).toBe(true);
    const list = (await small.getByRole('list', { name: 'Phones' }).boundingBox())!;
    const mirror = (await small.getByTestId('mirror-canvas').boundingBox())!;
    expect(list.x).toBeGreaterThan(mirror.x + mirror.width);
    expect(mirror.height).toBeGreaterThan(0.7 * 800);
    expect(await workWidth(small)).toBeGreaterThanOrEqual(560);
    expect(await small.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeLessThanOrEqual(0);
    await saveScreenshot(small, 'mirror-default-1280x800');

    // The splitter still sets another size: smaller here, and kept after a reload.
    const splitter = small.getByRole('separator', { name: /Phone size/ });
    const initial = Number(await splitter.getAttribute('aria-valuenow'));
    await splitter.press('Home');
    await expect.poll(() => widthOf(small, 'mirror-canvas')).toBeLessThan(mirror.width);
    await small.reload();
    await small.getByText('Connected via web').waitFor();
    expect(Number(await small.getByRole('separator', { name: /Phone size/ }).getAttribute('aria-valuenow'))).toBe(300);
    await small.getByRole('separator', { name: /Phone size/ }).dblclick();
    expect(Number(await small.getByRole('separator', { name: /Phone size/ }).getAttribute('aria-valuenow'))).toBe(initial);

    const large = await freshPage({ width: 1920, height: 1080 });
    await expect.poll(() => widthOf(large, 'mirror-canvas')).toBeGreaterThanOrEqual(370);
    expect(await fullyInViewport(large, '[data-testid="mirror-canvas"]')).toBe(true);
    expect(await workWidth(large)).toBeGreaterThanOrEqual(900);
    await saveScreenshot(large, 'mirror-default-1920x1080');
  });
});
