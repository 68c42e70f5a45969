import { describe, expect, it } from 'vitest';
import { centreOf, clickMirrorAt, dumpUi, mirrorPixels, openApp, paintedSeq, saveScreenshot, selectPhone, waitForFrameAfter } from './ui-support';
import { useUiFixture } from '../support/ui-fixture';

const SCREEN = { width: 1080, height: 2400 };

const ui = useUiFixture();

describe('device panel and live mirror in the browser', { timeout: 90_000 }, () => {
  it('Scenario: Starting the demo phone shows its live screen, updated after an action', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    const rowsBefore = await page.getByTestId('device-row').count();
    await page.getByRole('button', { name: 'Start demo phone' }).click();
    await expect.poll(() => page.getByTestId('device-row').count(), { timeout: 20_000 }).toBe(rowsBefore + 1);
    const selected = page.locator('[data-testid="device-row"]:has(button[aria-pressed="true"])');
    // The list can show the new phone a moment before the app selects it.
    await expect.poll(() => selected.getAttribute('data-serial'), { timeout: 20_000 }).not.toBe(ui.host.harness.serial);
    const serial = (await selected.getAttribute('data-serial'))!;
    expect(await selected.textContent()).toMatch(/TCP.*ready/);

    const first = await waitForFrameAfter(page, -1);
    await expect.poll(() => page.getByTestId('mirror-fps').textContent(), { timeout: 20_000 }).toMatch(/^\d+\.\d fps$/);
    const before = await mirrorPixels(page);
    await saveScreenshot(page, 'demo-phone');

    // The action: open Settings from the home screen by clicking its icon on the mirror.
    await clickMirrorAt(page, centreOf(await dumpUi(ui.host.harness, serial), 'Settings'), SCREEN);
    await expect.poll(async () => /package="com\.android\.settings"/.test(await dumpUi(ui.host.harness, serial)), { timeout: 15_000 }).toBe(true);
    const after = await waitForFrameAfter(page, first);
    await expect.poll(() => mirrorPixels(page), { timeout: 20_000 }).not.toBe(before);
    expect(after).toBeGreaterThan(first);
    await saveScreenshot(page, 'mirror-after-action');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: A click on the mirror taps the phone', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    const serial = ui.host.harness.serial;
    await selectPhone(page, serial);
    await waitForFrameAfter(page, -1);
    const contacts = centreOf(await dumpUi(ui.host.harness, serial), 'Contacts');
    expect((await ui.host.harness.control<{ foreground: string }>('/state')).body.foreground).toBe('com.android.launcher3');
    await clickMirrorAt(page, contacts, SCREEN);
    await expect
      .poll(async () => (await ui.host.harness.control<{ foreground: string }>('/state')).body.foreground, { timeout: 15_000 })
      .toMatch(/contacts/);
    // The Home key below the mirror (the keyboard route to the same control) goes back to the launcher.
    const beforeHome = await paintedSeq(page);
    await page.getByRole('group', { name: 'Phone keys' }).getByRole('button', { name: 'Home' }).click();
    await expect
      .poll(async () => (await ui.host.harness.control<{ foreground: string }>('/state')).body.foreground, { timeout: 15_000 })
      .toBe('com.android.launcher3');
    // And the mirror keeps painting: a newer frame than the one on screen when Home was pressed.
    expect(await waitForFrameAfter(page, beforeHome)).toBeGreaterThan(beforeHome);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: A phone is connected by address and a bad pairing code is explained', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    const serial = ui.host.harness.serial;
    const row = page.locator(`[data-testid="device-row"][data-serial="${serial}"]`);
    await page.getByRole('button', { name: `Disconnect ${serial}` }).click();
    await row.waitFor({ state: 'detached', timeout: 15_000 });

    await page.getByText('Connect a phone over the network').click();
    await page.getByLabel('Connect by address').fill(serial);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByText(`Connected to ${serial}.`).waitFor({ timeout: 20_000 });
    await row.getByRole('button', { pressed: true }).waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain('ready');

    await page.getByLabel('Connect by address').fill('not an address');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    expect(await page.getByRole('form', { name: 'Connect over the network' }).getByRole('alert').textContent()).toContain('HOST:PORT');

    await page.getByText('Pair over Wi-Fi (Android 11+)').click();
    await page.getByLabel('Pairing address').fill('127.0.0.1:37099');
    await page.getByLabel('Pairing code').fill('12');
    await page.getByRole('button', { name: 'Pair' }).click();
    expect(await page.getByRole('form', { name: 'Pair over Wi-Fi' }).getByRole('alert').textContent()).toContain('the pairing code is 6 digits');
    await saveScreenshot(page, 'devices-forms');
    expect(errors).toEqual([]);
    await page.close();
  });
});
