// The built-in planner (the AI planner off, the default) in the browser: the task ends in a neutral "Looked at the
// screen only" card whose "Open Settings" opens Settings, and History and the exported report word it the same way.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { chooseRowAction, openApp, saveScreenshot, selectPhone } from './ui-support';
import { useUiFixture } from '../support/ui-fixture';

const ui = useUiFixture();

describe('the built-in planner in the browser', { timeout: 90_000 }, () => {
  it('Scenario: A built-in planner run ends with "Looked at the screen only" in the timeline, History and the report', async () => {
    const goal = 'Turn off Wi-Fi';
    const { page, errors } = await openApp(ui.browser, ui.host);
    await selectPhone(page, ui.host.harness.serial);
    expect((await ui.host.harness.state()).settings.wifi).toBe(true);
    const input = page.getByLabel('What should the phone do?');
    await input.fill(goal);
    await input.press('Enter');

    const card = page.getByRole('article', { name: 'Looked at the screen only' });
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getAttribute('data-outcome')).toBe('looked-only');
    expect(await card.getByTestId('task-result-text').textContent()).toMatch(/^The AI planner is off\. The built-in planner describes the screen and stops/);
    expect(await card.textContent()).not.toMatch(/\bDone\b|goal was reached/);
    expect(await card.getByTestId('task-result-summary').textContent()).toMatch(/^1 action in \d+ turns? · /);
    await saveScreenshot(page, 'looked-only');
    // Nothing was done on the phone: the built-in planner never acts.
    const after = await ui.host.harness.state();
    expect(after.settings.wifi).toBe(true);
    expect(after.foreground).toBe('com.android.launcher3');

    // The card's own button and the header's are told apart by where they are, not by their words.
    await card.getByRole('button', { name: 'Open Settings' }).click();
    const drawer = page.getByRole('dialog', { name: 'Settings' });
    await drawer.getByLabel('Use the AI planner').waitFor();
    expect(await drawer.getByLabel('Use the AI planner').isChecked()).toBe(false);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    expect(await page.getByRole('banner').getByRole('button', { name: 'Open settings' }).isVisible()).toBe(true);

    // History: the same word, and the note on hover.
    await page.getByRole('tab', { name: 'History' }).click();
    const row = page.getByTestId('history-row').filter({ hasText: goal });
    await row.waitFor();
    const status = row.getByRole('cell').nth(1);
    expect(await status.textContent()).toBe('looked only');
    expect(await status.locator('[title]').getAttribute('title')).toBe('Looked at the screen only — the AI planner is off');

    // The report: the same word and the same note, never "completed" or "done".
    const [download] = await Promise.all([page.waitForEvent('download'), chooseRowAction(page, goal, `Export "${goal}" as HTML report`)]);
    const html = await readFile(await download.path(), 'utf8');
    const report = await ui.browser.context.newPage();
    await report.setContent(html);
    const text = await report.locator('body').innerText();
    expect(text).toContain('looked only — Looked at the screen only — the AI planner is off.');
    expect(text).not.toMatch(/\bcompleted\b|\bdone\b/i);
    await report.close();
    expect(errors).toEqual([]);
    await page.close();
  });
});
