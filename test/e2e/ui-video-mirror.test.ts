// The video mirror in headless Chromium: the page decodes scrcpy's H.264 with WebCodecs onto the canvas, clicks go
// over the control socket, and the fallbacks show screenshots with the reason in one line.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { centreOf, clickMirrorAt, dumpUi, mirrorPixels, openApp, paintedSeq, saveScreenshot, selectPhone, scrcpyServersOn, waitForFrameAfter } from './ui-support';
import { useUiFixture } from '../support/ui-fixture';

const SCREEN = { width: 1080, height: 2400 };

const ui = useUiFixture({ video: true });

const source = (page: Page) => page.getByTestId('mirror-source');
const foreground = async () => (await ui.host.harness.state()).foreground;

const serversOnPhone = () => scrcpyServersOn(ui.host.harness);

describe('video mirror in the browser', { timeout: 90_000 }, () => {
  it('Scenario: The demo phone is mirrored over the video path, a change shows on the canvas, and closing the window leaves no server', async () => {
    await ui.host.harness.reset();
    const { page, errors } = await openApp(ui.browser, ui.host);
    await selectPhone(page, ui.host.harness.serial);
    await expect.poll(() => source(page).getAttribute('data-source'), { timeout: 20_000 }).toBe('video');
    expect(await source(page).textContent()).toBe('Video (scrcpy)');
    const first = await waitForFrameAfter(page, -1);
    const before = await mirrorPixels(page);
    await saveScreenshot(page, 'video-mirror');

    // A change made on the phone (not through the mirror) reaches the canvas.
    await ui.host.harness.shell('am start -n com.android.settings/.Settings');
    await expect.poll(() => mirrorPixels(page), { timeout: 20_000 }).not.toBe(before);
    expect(await waitForFrameAfter(page, first)).toBeGreaterThan(first);
    expect(errors).toEqual([]);
    // The window closes: the server on the phone is stopped, none is left behind.
    expect(await serversOnPhone()).toBe(1);
    await page.close();
    await expect.poll(serversOnPhone, { timeout: 10_000 }).toBe(0);
  });

  it('Scenario: A click on the video mirror reaches the phone over the control socket', async () => {
    await ui.host.harness.reset();
    const { page, errors } = await openApp(ui.browser, ui.host);
    await selectPhone(page, ui.host.harness.serial);
    await expect.poll(() => source(page).getAttribute('data-source'), { timeout: 20_000 }).toBe('video');
    await waitForFrameAfter(page, -1);
    const contacts = centreOf(await dumpUi(ui.host.harness, ui.host.harness.serial), 'Contacts');
    // From now on every adb shell command hangs: only the control socket can carry the click.
    await ui.host.harness.control('/faults', { body: { kind: 'hang' } });
    await clickMirrorAt(page, contacts, SCREEN);
    await expect.poll(foreground, { timeout: 15_000 }).toMatch(/contacts/);
    expect((await ui.host.harness.control<{ faults: { kind: string }[] }>('/faults')).body.faults).toEqual([{ kind: 'hang' }]);
    await ui.host.harness.reset();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: When the server cannot be pushed the mirror shows screenshots and says why', async () => {
    await ui.host.harness.reset();
    await ui.host.harness.control('/faults', { body: { kind: 'push-refused' } });
    const { page, errors } = await openApp(ui.browser, ui.host);
    await selectPhone(page, ui.host.harness.serial);
    await expect.poll(() => source(page).textContent(), { timeout: 20_000 }).toMatch(/^Screenshots, not video: .*Permission denied/);
    const first = await waitForFrameAfter(page, -1);
    await ui.host.harness.shell('am start -n com.android.settings/.Settings');
    expect(await waitForFrameAfter(page, first)).toBeGreaterThan(first);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: When the stream dies mid-way the mirror goes on with screenshots', async () => {
    await ui.host.harness.reset();
    const { page, errors } = await openApp(ui.browser, ui.host);
    await selectPhone(page, ui.host.harness.serial);
    await expect.poll(() => source(page).getAttribute('data-source'), { timeout: 20_000 }).toBe('video');
    await ui.host.harness.control('/faults', { body: { kind: 'scrcpy-crash' } });
    await ui.host.harness.shell('am start -n com.android.settings/.Settings');
    await expect.poll(() => source(page).textContent(), { timeout: 20_000 }).toMatch(/^Screenshots, not video: /);
    // The canvas may still hold the last video frame, from before Settings opened: wait for a screenshot first (its
    // numbering is its own, so any other number is a new frame), which shows Settings.
    const lastVideoFrame = await paintedSeq(page);
    await expect.poll(() => paintedSeq(page), { timeout: 20_000 }).not.toBe(lastVideoFrame);
    const before = await mirrorPixels(page);
    await ui.host.harness.shell('input keyevent 3');
    await expect.poll(() => mirrorPixels(page), { timeout: 20_000 }).not.toBe(before);
    expect(errors).toEqual([]);
    await page.close();
  });
});
