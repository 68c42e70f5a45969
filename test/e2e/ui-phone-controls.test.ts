// The person's own controls of the phone in the browser: typing on the mirror, the hardware keys, rotate and
// "save screenshot"; and the device panel when the selected phone goes away or several demo phones run.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { centreOf, clickMirrorAt, dumpUi, openApp, saveScreenshot, selectPhone, waitForFrameAfter } from './ui-support';
import { useUiFixture } from '../support/ui-fixture';

const SCREEN = { width: 1080, height: 2400 };

const ui = useUiFixture();

// ADBKeyBoard installed: the mirror's non-ASCII typing goes through it.
beforeEach(() => ui.host.harness.reset({ adbKeyboard: true }));

/** Taps what the phone shows as `text` (or the field with that resource id) by clicking the mirror. */
async function tapOnMirror(page: Page, target: string, by: 'text' | 'id' = 'text') {
  await clickMirrorAt(page, centreOf(await dumpUi(ui.host.harness, ui.host.harness.serial), target, by), SCREEN);
}

/** The text of the field with this resource id, as the phone's own UI dump has it. */
async function fieldText(resourceId: string): Promise<string | undefined> {
  const xml = await dumpUi(ui.host.harness, ui.host.harness.serial);
  const node = new RegExp(`<node[^>]*?text="([^"]*)"[^>]*?resource-id="[^"]*${resourceId}"`).exec(xml);
  return node?.[1]?.replace(/&#10;/g, '\n').replace(/&amp;/g, '&');
}

const keyEvents = async () => (await ui.host.harness.adb(['-s', ui.host.harness.serial, 'logcat', '-d', '-s', 'InputDispatcher'])).stdout;

describe('the phone controls in the browser', { timeout: 90_000 }, () => {
  it("Scenario: Typing on the focused mirror reaches the phone's focused field", async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await selectPhone(page, ui.host.harness.serial);
    await waitForFrameAfter(page, -1);
    await tapOnMirror(page, 'Notes');
    await expect.poll(async () => (await ui.host.harness.state()).foreground, { timeout: 15_000 }).toBe('com.amc.notes');
    await tapOnMirror(page, 'add_note', 'id');
    await expect.poll(async () => /note_body/.test(await dumpUi(ui.host.harness, ui.host.harness.serial)), { timeout: 15_000 }).toBe(true);
    await tapOnMirror(page, 'note_body', 'id');
    await expect.poll(async () => (await ui.host.harness.state()).focusedField, { timeout: 15_000 }).toMatch(/note_body$/);
    const imeBefore = (await ui.host.harness.state()).ime.current;

    // The click gave the mirror the keyboard: ASCII goes by `input text`, Enter and Backspace as keys, the
    // rest through the IME.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Type on the phone');
    await page.keyboard.type("Hi, it's 5 o'clock");
    await page.keyboard.press('Enter');
    await page.keyboard.type('Zoë 李雷');
    await page.keyboard.press('Backspace');
    await expect.poll(() => fieldText('note_body'), { timeout: 20_000 }).toBe("Hi, it's 5 o'clock\nZoë 李");
    expect((await ui.host.harness.state()).focusedField).toMatch(/note_body$/);
    await expect.poll(async () => (await ui.host.harness.state()).ime.current, { timeout: 10_000 }).toBe(imeBefore);
    await saveScreenshot(page, 'mirror-typing');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: Volume, power and rotate buttons reach the phone', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await selectPhone(page, ui.host.harness.serial);
    await waitForFrameAfter(page, -1);
    const keys = page.getByRole('group', { name: 'Phone keys' });
    await keys.getByRole('button', { name: 'Volume up' }).click();
    await keys.getByRole('button', { name: 'Volume down' }).click();
    await expect.poll(keyEvents, { timeout: 15_000 }).toMatch(/Injected key 24 [\s\S]*Injected key 25 /);

    expect((await ui.host.harness.state()).screenOn).toBe(true);
    await keys.getByRole('button', { name: 'Power' }).click();
    await expect.poll(async () => (await ui.host.harness.state()).screenOn, { timeout: 15_000 }).toBe(false);
    await keys.getByRole('button', { name: 'Power' }).click();
    await expect.poll(async () => (await ui.host.harness.state()).screenOn, { timeout: 15_000 }).toBe(true);

    const rotation = async () => (await ui.host.harness.shell('settings get system user_rotation')).stdout.trim();
    const before = Number.parseInt(await rotation(), 10) || 0;
    await keys.getByRole('button', { name: 'Rotate' }).click();
    await expect.poll(rotation, { timeout: 15_000 }).toBe(String((before + 1) % 4));
    expect((await ui.host.harness.shell('settings get system accelerometer_rotation')).stdout.trim()).toBe('0');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: Save screenshot writes a PNG into the folder the person picked', async () => {
    // Headless Chromium cannot show the folder picker; the page's private folder stands in for the one picked.
    const { page, errors } = await openApp(ui.browser, ui.host, {
      beforeLoad: () => {
        (window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker = () => navigator.storage.getDirectory();
      },
    });
    await selectPhone(page, ui.host.harness.serial);
    await waitForFrameAfter(page, -1);
    await page.getByRole('button', { name: 'Save screenshot' }).click();
    const result = page.getByTestId('screenshot-result');
    await result.waitFor({ timeout: 20_000 });
    expect(await result.textContent()).toMatch(/^Saved screenshot-127_0_0_1_\d+-\d{8}-\d{6}\.png in the folder/);
    const saved = await page.evaluate(async () => {
      const folder = await navigator.storage.getDirectory();
      const files: Array<{ name: string; signature: number[]; width: number; height: number }> = [];
      for await (const handle of (folder as unknown as { values(): AsyncIterable<FileSystemFileHandle> }).values()) {
        if (!handle.name.endsWith('.png')) continue;
        const bytes = new DataView(await (await handle.getFile()).arrayBuffer());
        files.push({
          name: handle.name,
          signature: [0, 1, 2, 3].map((index) => bytes.getUint8(index)),
          width: bytes.getUint32(16),
          height: bytes.getUint32(20),
        });
      }
      return files;
    });
    expect(saved).toHaveLength(1);
    expect(saved[0]!.signature).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect([saved[0]!.width, saved[0]!.height]).toEqual([SCREEN.width, SCREEN.height]);
    expect(await result.textContent()).toContain(saved[0]!.name);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: Start another demo phone says what it started and selects it', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    const rows = page.getByTestId('device-row');
    const before = await rows.count();
    await page.getByRole('button', { name: 'Start demo phone', exact: true }).click();
    await page.getByTestId('demo-result').filter({ hasText: 'Demo phone started.' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Start another demo phone' }).click();
    await page.getByTestId('demo-result').filter({ hasText: 'Demo phone 2 started.' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(before + 2);
    const names = await page.locator('[data-testid="device-row"] .device-model').allTextContents();
    expect(names).toEqual(expect.arrayContaining(['Demo phone', 'Demo phone 2']));
    // The one just started is the one selected.
    expect(await page.locator('[data-testid="device-row"]:has(button[aria-pressed="true"]) .device-model').textContent()).toBe('Demo phone 2');
    await saveScreenshot(page, 'demo-phones');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: The selected phone vanishing is reported and Run waits for a new choice', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    const serial = ui.host.harness.serial;
    await page.getByRole('list', { name: 'Phones' }).waitFor();
    await selectPhone(page, serial);
    await page.getByLabel('What should the phone do?').fill('Look at the screen');
    expect(await page.getByRole('button', { name: 'Run' }).isEnabled()).toBe(true);

    await ui.host.harness.adb(['disconnect', serial]);
    const gone = page.getByTestId('selected-phone-gone');
    await gone.waitFor({ timeout: 20_000 });
    expect(await gone.textContent()).toContain('AMC_Virtual_Phone');
    // Nothing else was selected in its place, and Run waits for the person.
    expect(await page.locator('[data-testid="device-row"] button[aria-pressed="true"]').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Run' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Run' }).getAttribute('title')).toBe('Choose a phone first');
    await page.getByLabel('What should the phone do?').press('Enter');
    expect(await page.getByTestId('task-timeline').count()).toBe(0);
    // The phone's outline keeps the size the phone had: most of the panel's height, not a small box.
    const outline = (await page.getByLabel('Phone mirror').boundingBox())!;
    const panel = (await page.locator('.device-panel-inner').boundingBox())!;
    expect(outline.height).toBeGreaterThan(panel.height * 0.9);
    expect(outline.width).toBeGreaterThan(outline.height * 0.4);
    await saveScreenshot(page, 'selected-phone-gone');

    // The person picks another phone: the notice goes and Run comes back.
    const other = page.locator('[data-testid="device-row"]').first();
    const otherSerial = (await other.getAttribute('data-serial'))!;
    await selectPhone(page, otherSerial);
    await gone.waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Run' }).isEnabled()).toBe(true);
    await ui.host.harness.connect();
    // The phone coming back does not take the selection from the one the person picked.
    await page.locator(`[data-testid="device-row"][data-serial="${serial}"]`).waitFor({ timeout: 20_000 });
    expect(await page.locator('[data-testid="device-row"]:has(button[aria-pressed="true"])').getAttribute('data-serial')).toBe(otherSerial);
    expect(errors).toEqual([]);
    await page.close();
  });
});
