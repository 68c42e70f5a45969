// History at 1280x800 and 1920x1080, in English and in Chinese, in real Chromium: a task is one line (goal, verdict,
// phone, start, steps, duration, tokens), at least eight show at 1280x800, and each row's actions wait in its own menu,
// which the keyboard opens, walks and closes (Esc gives the focus back), named by the goal it acts on.
import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { wordsFor } from '../../src/shared/i18n/translate';
import type { TaskEvent } from '../../src/shared/task';
import { TASKS_FOLDER } from '../../src/core/storage/task-store';
import { say } from '../../src/shared/said';
import { finish } from '../fakes/index';
import { taskEvents } from '../core/storage/task-fixtures';
import { launchTestBrowser, type TestBrowser } from '../support/browser';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';
import { anthropicFakeEnv, saveScreenshot } from './ui-support';

const model = useAnthropicFake(() => finish(true, 'Done.'));
const ui = useUiFixture({ env: () => anthropicFakeEnv(model.fake.url) });
let chinese: TestBrowser | undefined;

/** Goals as people type them: short, long enough to need cutting at 1280 px, in either language. */
const GOALS = [
  'Open Wi-Fi settings',
  'Turn on Wi-Fi, then open the network details of the home network and tell me its IP address and its gateway',
  '打开设置，告诉我 Wi-Fi 的名称',
  'Add a contact named Kim Lee with the number 0222 555 0111',
  'Send "running late, there in 10" to Ann Lee in Messages',
  '把闹钟设在明天早上七点',
  'Open Chrome and read me the first headline on the bank offers page',
  'What is my phone number?',
  'Delete the note called shopping list',
  'Set the screen brightness to half',
  'Find the weather',
  'Look at the home screen',
];

/** One past task's file: done (an action, the screen changed), claimed without acting (not verified) or failed. */
function pastTask(index: number, goal: string, at: number): TaskEvent[] {
  const id = `daily-${String(index).padStart(2, '0')}`;
  const [started, observed, , , , planned, finished] = taskEvents(id, at) as [
    Extract<TaskEvent, { type: 'task.started' }>,
    Extract<TaskEvent, { type: 'step.observed' }>,
    TaskEvent,
    TaskEvent,
    TaskEvent,
    Extract<TaskEvent, { type: 'step.planned' }>,
    Extract<TaskEvent, { type: 'task.finished' }>,
  ];
  const events = taskEvents(id, at).map((event) => (event.type === 'task.started' ? { ...started, goal } : event));
  if (index % 4 === 1) return [...events.slice(0, -1), { ...finished, status: 'failed', failureReason: 'The model stopped answering', result: null }];
  // The model claims success on its first look, without acting.
  const noAction = say('verify.noAction');
  const verification = { status: 'not-verified' as const, check: 'action-taken' as const, fact: noAction.text, said: noAction.said };
  if (index % 4 === 2) return [{ ...started, goal }, { ...observed }, { ...planned, step: 1 }, { ...finished, steps: 0, verification }];
  return events;
}

beforeAll(async () => {
  const folder = path.join(ui.host.home, TASKS_FOLDER);
  await mkdir(folder, { recursive: true });
  const now = Date.now();
  await Promise.all(
    GOALS.map((goal, index) =>
      writeFile(path.join(folder, `daily-${String(index).padStart(2, '0')}.jsonl`), pastTask(index, goal, now - (GOALS.length - index) * 60_000).map((event) => `${JSON.stringify(event)}\n`).join('')),
    ),
  );
  chinese = await launchTestBrowser(undefined, 'zh-CN');
}, 60_000);
afterAll(() => chinese?.close());

const LANGUAGES = ['en', 'zh-CN'] as const;
const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

async function openHistory(language: (typeof LANGUAGES)[number], size: { width: number; height: number }): Promise<{ page: Page; errors: string[] }> {
  const { t } = wordsFor(language);
  const page = await (language === 'en' ? ui.browser : chinese!).context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // Our own dialogs only: a native one (confirm()) would be an error here.
  page.on('dialog', (dialog) => {
    errors.push(`native dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.setViewportSize(size);
  await page.goto(ui.host.app.url);
  // A tested model: the Getting started panel goes away, as it does for anyone past their first hour (once per browser).
  const test = page.getByTestId('setup-checklist').getByRole('button', { name: t('app:setup.testConnection') });
  if (await test.waitFor({ timeout: 5_000 }).then(() => true, () => false)) {
    await test.click();
    await page.getByTestId('setup-checklist').waitFor({ state: 'detached', timeout: 20_000 });
  }
  await page.getByRole('tab', { name: t('app:tabs.history') }).click();
  await expect.poll(() => page.getByTestId('history-row').count(), { timeout: 20_000 }).toBe(GOALS.length);
  return { page, errors };
}

/** How many rows show whole inside History's scrolling list. */
const rowsInView = (page: Page) =>
  page.evaluate(() => {
    const list = document.querySelector('.history-list')!.getBoundingClientRect();
    const bottom = Math.min(list.bottom, window.innerHeight);
    return [...document.querySelectorAll('[data-testid="history-row"]')].filter((row) => {
      const box = row.getBoundingClientRect();
      return box.top >= list.top - 1 && box.bottom <= bottom + 1;
    }).length;
  });

/** The cells whose text takes more than one line or is pushed out of sight sideways. */
const wrappedCells = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid="history-row"] td')]
      .filter((cell) => {
        const style = getComputedStyle(cell);
        const inner = cell.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
        const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.5;
        return inner > line * 1.6 || cell.getBoundingClientRect().right > window.innerWidth + 1;
      })
      .map((cell) => cell.textContent),
  );

/** The page or the scroll areas in it that can be scrolled sideways. */
const scrollsSideways = (page: Page) =>
  page.evaluate(() =>
    [document.documentElement, ...document.querySelectorAll('*')]
      .filter((element) => {
        const scrollable = element === document.documentElement || ['auto', 'scroll'].includes(getComputedStyle(element).overflowX);
        return scrollable && element.scrollWidth > element.clientWidth + 1;
      })
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
  );

describe('History a line per task, its actions in a menu', { timeout: 180_000 }, () => {
  for (const language of LANGUAGES) {
    for (const size of SIZES) {
      it(`Scenario: History shows a task a line, at least eight at 1280x800, its actions in a keyboard menu (${language}, ${size.width}x${size.height})`, async () => {
        const { t } = wordsFor(language);
        const { page, errors } = await openHistory(language, size);
        await saveScreenshot(page, `history-rows-${language}-${size.width}x${size.height}`);
        expect(await wrappedCells(page)).toEqual([]);
        expect(await scrollsSideways(page)).toEqual([]);
        expect(await rowsInView(page)).toBeGreaterThanOrEqual(size.height >= 1000 ? GOALS.length : 8);
        // A long goal ends in "…" and is whole in its tooltip and its name.
        const long = page.getByRole('button', { name: t('app:history.open', { goal: GOALS[1]! }) });
        expect(await long.getAttribute('title')).toBe(GOALS[1]);
        // The filter still tells a claim nobody verified apart.
        expect(await page.getByLabel(t('app:history.status')).locator('option').allTextContents()).toContain(t('common:outcome.done-not-verified'));

        // The keyboard: ↓ on the menu button opens the menu on its first item, ↓ moves, Esc closes and gives the focus back.
        const doneGoal = GOALS[0]!;
        const menuButton = page.getByRole('button', { name: t('app:history.actionsFor', { goal: doneGoal }) });
        expect(await menuButton.getAttribute('aria-haspopup')).toBe('menu');
        await menuButton.focus();
        await page.keyboard.press('Enter');
        const menu = page.getByRole('menu', { name: t('app:history.actionsFor', { goal: doneGoal }) });
        await menu.waitFor();
        expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
        const items = await menu.getByRole('menuitem').allTextContents();
        expect(items).toEqual(
          ['app:history.runAgain', 'app:history.replay', 'app:history.replayFix', 'app:history.saveFlow', 'app:history.exportHtml', 'app:history.exportJson', 'app:history.delete'].map((key) => t(key)),
        );
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(items[0]);
        await page.keyboard.press('ArrowDown');
        expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(t('app:history.replayLabel', { goal: doneGoal }));
        await page.keyboard.press('ArrowUp');
        await page.keyboard.press('ArrowUp');
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(t('app:history.delete'));
        // The menu stays inside the window.
        const box = (await menu.boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(size.height);
        expect(box.x).toBeGreaterThanOrEqual(0);
        await saveScreenshot(page, `history-row-menu-${language}-${size.width}x${size.height}`);
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'detached' });
        expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(t('app:history.actionsFor', { goal: doneGoal }));

        // A failed task offers no replay and no flow; the last row's menu opens above it when the window ends first.
        const failedGoal = GOALS[1]!;
        await page.getByRole('button', { name: t('app:history.actionsFor', { goal: failedGoal }) }).click();
        const failedMenu = page.getByRole('menu', { name: t('app:history.actionsFor', { goal: failedGoal }) });
        expect(await failedMenu.getByRole('menuitem').allTextContents()).toEqual(['app:history.runAgain', 'app:history.exportHtml', 'app:history.exportJson', 'app:history.delete'].map((key) => t(key)));
        // A click elsewhere closes it.
        await page.getByTestId('history-table').locator('thead').click();
        await failedMenu.waitFor({ state: 'detached' });

        // Delete asks in the window's own dialog; Esc there keeps the task.
        await page.getByRole('button', { name: t('app:history.actionsFor', { goal: GOALS[3]! }) }).click();
        await page.getByRole('menuitem', { name: t('app:history.deleteLabel', { goal: GOALS[3]! }) }).click();
        const dialog = page.getByTestId('confirm-dialog');
        await dialog.waitFor();
        expect(await dialog.textContent()).toContain(t('app:history.confirmDelete', { goal: GOALS[3]! }));
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        expect(await page.getByTestId('history-row').count()).toBe(GOALS.length);
        expect(errors).toEqual([]);
        await page.close();
      });
    }
  }

  it("Scenario: Deleting from a row's menu removes the task after a yes in the window's dialog", async () => {
    const { page, errors } = await openHistory('en', SIZES[0]);
    const goal = GOALS[11]!;
    await page.getByRole('button', { name: `Actions for "${goal}"` }).click();
    await page.getByRole('menuitem', { name: `Delete "${goal}"` }).click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('history-row').count()).toBe(GOALS.length - 1);
    expect(await page.getByTestId('history-row').filter({ hasText: goal }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
