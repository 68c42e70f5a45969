// A long press on the mirror in the browser (issue 44): a press held still for half a second is sent as the
// long_press tool while the mouse is still down, through the same path as a click, and a recording keeps it as a
// long_press step named by its locator, which replays with no model (GET /state and the phone's own dump).
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { centreOf, dumpUi, openApp, selectPhone, waitForFrameAfter } from './ui-support';
import { useUiFixture } from '../support/ui-fixture';
import { createTaskStore } from '../../src/core/storage/task-store';
import { flowFromRecord } from '../../src/core/flows/flow-from-record';
import { isActionStep } from '../../src/shared/flow';

const SCREEN = { width: 1080, height: 2400 };
const ui = useUiFixture();
// Notes open on its list: two rows, each of which opens "Delete note?" when held.
const SEED = { foreground: 'com.amc.notes' as const };

beforeEach(() => ui.host.harness.reset(SEED));

const steps = (page: Page) => page.getByRole('list', { name: 'Recorded steps' }).getByTestId('recorded-step');
const dialogOnPhone = async () => (await ui.host.harness.state()).dialog;

/** Presses the mirror over the element showing `text` and keeps the mouse down until `held` says so. */
async function holdOnMirror(page: Page, text: string, held: () => Promise<void>) {
  const point = centreOf(await dumpUi(ui.host.harness, ui.host.harness.serial), text);
  const box = (await page.getByTestId('mirror-canvas').boundingBox())!;
  await page.mouse.move(box.x + (point.x / SCREEN.width) * box.width, box.y + (point.y / SCREEN.height) * box.height);
  await page.mouse.down();
  try {
    await held();
  } finally {
    await page.mouse.up();
  }
}

describe('a long press on the mirror', { timeout: 180_000 }, () => {
  it('Scenario: A press held still on the mirror is a long press, recorded with its locator and replayed', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await selectPhone(page, ui.host.harness.serial);
    await waitForFrameAfter(page, -1);
    if (await page.getByTestId('record-status').isVisible()) await page.getByRole('button', { name: 'Discard' }).click();
    await page.getByRole('button', { name: 'Record a flow from what you do on the mirror' }).click();
    await page.getByTestId('record-status').waitFor();

    // The phone answers while the mouse is still down: the hold was sent as it happened, not on release.
    await holdOnMirror(page, 'Ideas', () => expect.poll(dialogOnPhone, { timeout: 15_000 }).toBe('Delete note?'));
    expect(await dumpUi(ui.host.harness, ui.host.harness.serial)).toContain('&quot;Ideas&quot; will be deleted.');
    // Release after the hold adds no tap: one step, a long press on the row by its words.
    await expect.poll(() => steps(page).count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => steps(page).first().textContent()).toMatch(/long_press: \{[^}]*Ideas/);
    expect(await page.locator('[data-testid="recorded-step"][data-note="point"]').count()).toBe(0);
    expect((await ui.host.harness.state()).notes.map((note) => note.title)).toEqual(['Shopping list', 'Ideas']);

    await page.getByRole('button', { name: 'Stop and save' }).click();
    await page.getByLabel('What the recording does').fill('Ask to delete Ideas');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('record-saved').waitFor({ timeout: 15_000 });
    const store = createTaskStore(ui.host.home);
    const summary = (await store.list()).tasks.find((task) => task.goal === 'Ask to delete Ideas');
    const record = (await store.get(summary!.id))!;
    await store.close();
    const held = flowFromRecord(record).steps.filter(isActionStep).find((step) => step.tool === 'long_press');
    expect(held?.target).toMatchObject({ text: 'Ideas' });

    // Replayed on a reset phone with no model: the same row is held.
    await ui.host.harness.reset(SEED);
    expect(await dialogOnPhone()).toBeNull();
    await page.getByRole('tab', { name: 'History' }).click();
    const row = page.getByTestId('history-row').filter({ hasText: 'Ask to delete Ideas' });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    await row.getByRole('button', { name: 'Open "Ask to delete Ideas"' }).click();
    await page.getByTestId('replay-task').first().click();
    await expect.poll(dialogOnPhone, { timeout: 60_000 }).toBe('Delete note?');
    expect(await dumpUi(ui.host.harness, ui.host.harness.serial)).toContain('&quot;Ideas&quot; will be deleted.');
    expect(errors).toEqual([]);
    await page.close();
  });
});
