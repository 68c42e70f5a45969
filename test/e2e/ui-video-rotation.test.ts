// A rotation or display change while the video mirror runs: the phone's scrcpy server sends a new configuration,
// the app restarts the stream at the turned size, and the mirror goes on over video (not screenshots).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { centreOf, clickMirrorAt, dumpUi, openApp, selectPhone, scrcpyServersOn, waitForFrameAfter } from './ui-support';
import { useUiFixture } from '../support/ui-fixture';

const PORTRAIT = { width: 1080, height: 2400 };
const LANDSCAPE = { width: 2400, height: 1080 };

const ui = useUiFixture({ video: true });

const source = (page: Page) => page.getByTestId('mirror-source').getAttribute('data-source');
const canvasShape = (page: Page) =>
  page.getByTestId('mirror-canvas').evaluate((canvas) => ((canvas as HTMLCanvasElement).width > (canvas as HTMLCanvasElement).height ? 'landscape' : 'portrait'));

const serversOnPhone = () => scrcpyServersOn(ui.host.harness);

describe('video mirror across rotations', { timeout: 120_000 }, () => {
  it('Scenario: Rotating the phone restarts the video stream at the turned size', async () => {
    await ui.host.harness.reset();
    const { page, errors } = await openApp(ui.browser, ui.host);
    await selectPhone(page, ui.host.harness.serial);
    await expect.poll(() => source(page), { timeout: 20_000 }).toBe('video');
    await waitForFrameAfter(page, -1);
    expect(await canvasShape(page)).toBe('portrait');

    // The mirror's rotate button: auto-rotate off, user_rotation 1.
    await page.getByRole('button', { name: 'Rotate' }).click();
    await expect.poll(() => canvasShape(page), { timeout: 20_000 }).toBe('landscape');
    expect((await ui.host.harness.shell('settings get system user_rotation')).stdout.trim()).toBe('1');
    expect(await source(page)).toBe('video');
    // The old server ended when its stream did; one runs at the new size.
    await expect.poll(serversOnPhone, { timeout: 10_000 }).toBe(1);

    // A click on the turned picture lands on the portrait layout underneath (Contacts, a quarter turn left).
    const contacts = centreOf(await dumpUi(ui.host.harness, ui.host.harness.serial), 'Contacts');
    await clickMirrorAt(page, { x: contacts.y, y: PORTRAIT.width - 1 - contacts.x }, LANDSCAPE);
    await expect.poll(async () => (await ui.host.harness.state()).foreground, { timeout: 15_000 }).toMatch(/contacts/);

    // A display change made on the phone itself (adb shell), not from the mirror.
    await ui.host.harness.shell('settings put system user_rotation 0');
    await expect.poll(() => canvasShape(page), { timeout: 20_000 }).toBe('portrait');
    expect(await source(page)).toBe('video');
    await expect.poll(serversOnPhone, { timeout: 10_000 }).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
    await expect.poll(serversOnPhone, { timeout: 10_000 }).toBe(0);
  });

});
