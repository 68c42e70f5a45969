// The verdict in the window: one task of each verdict in History (its word, colour and status filter) and on its
// result card (title, colour, first line), read in headless Chromium from the same history files the CLI writes.
import { describe, expect, it } from 'vitest';
import { openApp, saveScreenshot } from './ui-support';
import { useUiFixture } from '../support/ui-fixture';
import { createTaskStore } from '../../src/core/storage/task-store';
import { TASK_VERDICTS, type TaskVerdict } from '../../src/shared/verdict';
import { tasksOfEachVerdict } from '../support/verdict-tasks';

const ui = useUiFixture();

/** What History's status column and the card's title say, and how the card's first line begins, per verdict. */
const SHOWN: Record<TaskVerdict, { word: string; title: string; firstLine: RegExp }> = {
  done: { word: 'done', title: 'Done', firstLine: /^Network & internet is open$/ },
  'done-not-verified': { word: 'done, not verified', title: 'Done, not verified', firstLine: /^No action was taken in this task, so nothing confirms the goal was reached\. The model said: Calling Zed Quill$/ },
  failed: { word: 'failed', title: 'Failed', firstLine: /^There is no Bluetooth switch on this phone$/ },
  stopped: { word: 'stopped', title: 'Stopped', firstLine: /^stopped by the user$/ },
  'looked-only': { word: 'looked only', title: 'Looked at the screen only', firstLine: /^The AI planner is off\./ },
  interrupted: { word: 'interrupted', title: 'Interrupted', firstLine: /^interrupted: the app was closed$/ },
};

describe('the verdict in the window', { timeout: 120_000 }, () => {
  it('Scenario: History and the result card show each task verdict, "not verified" with its own colour and filter value', async () => {
    const tasks = tasksOfEachVerdict();
    const store = createTaskStore(ui.host.home);
    for (const task of Object.values(tasks)) for (const event of task.events) await store.append(event);
    await store.close();

    const { page, errors } = await openApp(ui.browser, ui.host);
    await page.getByRole('tab', { name: 'History' }).click();
    const rows = page.getByTestId('history-row');
    await expect.poll(() => rows.count()).toBe(TASK_VERDICTS.length);
    const colours = new Map<TaskVerdict, string>();
    for (const verdict of TASK_VERDICTS) {
      const row = rows.filter({ hasText: tasks[verdict].goal });
      const status = row.getByTestId('history-verdict');
      expect(await status.getAttribute('data-verdict'), verdict).toBe(verdict);
      expect(await status.textContent(), verdict).toBe(SHOWN[verdict].word);
      colours.set(verdict, await status.evaluate((element) => getComputedStyle(element).color));
    }
    // "Not verified" is neither a pass's colour nor a failure's.
    const notVerified = colours.get('done-not-verified');
    expect(notVerified).not.toBe(colours.get('done'));
    expect(notVerified).not.toBe(colours.get('failed'));
    expect(await rows.filter({ hasText: 'Call my friend' }).getByTestId('history-verdict').getAttribute('title')).toBe('no action was taken in this task, so nothing confirms the goal was reached');

    // The status filter has every verdict; "done, not verified" keeps only that task, "done" leaves it out.
    const filter = page.getByLabel('Status');
    expect(await filter.locator('option').allTextContents()).toEqual(['Any status', 'done', 'done, not verified', 'failed', 'stopped', 'looked only', 'interrupted', 'running']);
    await filter.selectOption('done-not-verified');
    await expect.poll(() => rows.allTextContents()).toEqual([expect.stringContaining('Call my friend')]);
    await saveScreenshot(page, 'history-not-verified');
    await filter.selectOption('done');
    await expect.poll(() => rows.allTextContents()).toEqual([expect.stringContaining('Open Network & internet')]);
    await filter.selectOption('any');

    // Each task's result card: its title, its colour and its first line say the same verdict.
    for (const verdict of TASK_VERDICTS) {
      await page.getByRole('button', { name: `Open "${tasks[verdict].goal}"` }).click();
      const card = page.getByTestId('task-result');
      await card.waitFor();
      expect(await card.getAttribute('data-outcome'), verdict).toBe(verdict);
      expect(await card.getAttribute('class'), verdict).toContain(`verdict-${verdict}`);
      expect(await card.locator('h3').textContent(), verdict).toBe(SHOWN[verdict].title);
      expect(await card.getByTestId('task-result-text').textContent(), verdict).toMatch(SHOWN[verdict].firstLine);
      if (verdict === 'done-not-verified') {
        // The window counts what the CLI counts: the question was no action.
        expect(await card.getByTestId('task-result-summary').textContent()).toMatch(/^0 actions in 2 turns · /);
        expect(await card.locator('h3').evaluate((element) => getComputedStyle(element).color)).toBe(notVerified);
        await saveScreenshot(page, 'result-not-verified');
      }
      await page.getByRole('button', { name: '← All tasks' }).click();
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
