// A reload keeps what the window showed: the finished task of the selected phone is shown again under Current task
// (read back from history), at 1280x800 and at 1920x1080, instead of an empty timeline.
import { describe, expect, it } from 'vitest';
import { finish } from '../fakes/index';
import { anthropicFakeEnv, openApp, selectPhone } from './ui-support';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';

const model = useAnthropicFake(() => finish(true, 'Nothing to do: the screen is as asked.'));
const ui = useUiFixture({ env: () => anthropicFakeEnv(model.fake.url) });

async function reloadKeepsTheTask(size: { width: number; height: number }, goal: string) {
  const { page, errors } = await openApp(ui.browser, ui.host);
  await page.setViewportSize(size);
  await selectPhone(page, ui.host.harness.serial);
  const box = page.getByLabel('What should the phone do?');
  await box.fill(goal);
  await box.press('Enter');
  // This task, not the one the window showed before (restored when it opened).
  await expect.poll(() => page.locator('.task-goal').first().textContent(), { timeout: 30_000 }).toContain(goal);
  await page.getByTestId('task-result-summary').waitFor({ timeout: 60_000 });
  await page.reload();
  await page.getByText('Connected via web').waitFor();
  await selectPhone(page, ui.host.harness.serial);
  // The same task, read back: its goal and its result, under Current task.
  await page.getByRole('tab', { name: 'Current task', selected: true }).waitFor();
  await page.getByTestId('task-result-summary').waitFor({ timeout: 20_000 });
  await page.getByRole('article', { name: 'Done' }).waitFor();
  expect(await page.locator('.task-goal').first().textContent()).toContain(goal);
  expect(errors).toEqual([]);
  await page.close();
}

/** Runs from the History tab with Ctrl+Enter: the window turns to Current task to show it. */
async function runFromAnotherTab(size: { width: number; height: number }, goal: string) {
  const { page, errors } = await openApp(ui.browser, ui.host);
  await page.setViewportSize(size);
  await selectPhone(page, ui.host.harness.serial);
  await page.getByLabel('What should the phone do?').fill(goal);
  await page.getByRole('tab', { name: 'History' }).click();
  await page.getByRole('tab', { name: 'History', selected: true }).waitFor();
  await page.keyboard.press('Control+Enter');
  await page.getByRole('tab', { name: 'Current task', selected: true }).waitFor({ timeout: 20_000 });
  await expect.poll(() => page.locator('.task-goal').first().textContent(), { timeout: 30_000 }).toContain(goal);
  expect(errors).toEqual([]);
  await page.close();
}

describe('a reload keeps the current task', { timeout: 120_000 }, () => {
  it('Scenario: A run started from another tab shows Current task (1280x800)', () => runFromAnotherTab({ width: 1280, height: 800 }, 'Look at the home screen from History'));
  it('Scenario: A run started from another tab shows Current task (1920x1080)', () => runFromAnotherTab({ width: 1920, height: 1080 }, 'Look at the home screen from History again'));
  it('Scenario: Current task is restored after a reload (1280x800)', () => reloadKeepsTheTask({ width: 1280, height: 800 }, 'Look at the home screen'));
  it('Scenario: Current task is restored after a reload (1920x1080)', () => reloadKeepsTheTask({ width: 1920, height: 1080 }, 'Look at the home screen again'));
});
