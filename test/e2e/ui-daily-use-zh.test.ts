// Daily use at 1280x800 and 1920x1080 in a Chinese window, in real Chromium against two demo phones: the goal box
// grows with its lines, a run started from History shows Current task, Esc asks in the window's own dialog before
// stopping (never the browser's confirm()), a reload shows the task again, and Several phones' results sit under Run,
// brought into view. Each phone's state (GET /state) shows what the run did.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { callControlApi, startVirtualDevice, type VirtualDevice } from '@amc/demo-phone';
import { wordsFor } from '../../src/shared/i18n/translate';
import { finish, wifiOnModel, type FakePolicy } from '../fakes/index';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';
import { anthropicFakeEnv, saveScreenshot, selectPhone } from './ui-support';

let extra: VirtualDevice | undefined;
beforeAll(async () => {
  extra = await startVirtualDevice({ port: 0, controlPort: 0 });
});
afterAll(() => extra?.close());

const model = useAnthropicFake(() => finish(true, '屏幕已经是这样了。'));
const ui = useUiFixture({ env: () => anthropicFakeEnv(model.fake.url), locale: 'zh-CN' });
beforeAll(async () => {
  await ui.host.harness.adb(['connect', extra!.adbAddress]);
}, 30_000);
const { t } = wordsFor('zh-CN');

/** Waits on every turn before pressing Home: a task that is still running when Esc is pressed. */
const slowHome: FakePolicy = () => ({ kind: 'delay', ms: 1500, then: { kind: 'call', tool: 'press_key', args: { key: 'home' }, text: '按主屏幕键。' } });

async function openInChinese(size: { width: number; height: number }): Promise<{ page: Page; errors: string[] }> {
  const page = await ui.browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // Our own dialogs only: a native one (confirm()) would be an error here.
  page.on('dialog', (dialog) => {
    errors.push(`native dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.setViewportSize(size);
  await page.goto(ui.host.app.url);
  await page.getByText('已连接（web）').waitFor();
  await expect.poll(() => page.locator('[data-testid="device-row"]').count(), { timeout: 30_000 }).toBe(2);
  return { page, errors };
}

/** The goal box's height, and whether all of its text is in view (nothing cut off). */
const measure = (page: Page) =>
  page.getByLabel(t('app:goal.question')).evaluate((box: HTMLTextAreaElement) => ({ height: box.clientHeight, allShown: box.scrollHeight <= box.clientHeight + 1 }));

async function dailyUse(size: { width: number; height: number }) {
  await ui.host.harness.reset({ settings: { wifi: false } });
  await callControlApi(extra!.controlUrl, 'POST /reset', { settings: { wifi: false } });
  model.policy = () => finish(true, '屏幕已经是这样了。');
  const { page, errors } = await openInChinese(size);
  await selectPhone(page, ui.host.harness.serial);
  const box = page.getByLabel(t('app:goal.question'));

  // The goal box grows with a wrapped line and a second typed line, cutting none.
  await box.fill('打开设置');
  const one = await measure(page);
  const long = '打开信息，找到和小王关于周五晚饭的对话，回复说我八点到，并且会带上她要的那瓶酒，然后告诉我她之前还说了什么别的事情';
  await box.fill(long);
  const wrapped = await measure(page);
  expect(wrapped.height).toBeGreaterThan(one.height);
  expect(wrapped.allShown).toBe(true);
  await box.fill(`${long}\n然后把她的回答念给我听。`);
  const twoLines = await measure(page);
  expect(twoLines.height).toBeGreaterThan(wrapped.height);
  expect(twoLines.allShown).toBe(true);
  await saveScreenshot(page, `zh-CN-goal-box-${size.width}x${size.height}`);

  // A run started from History (Ctrl+Enter) turns the window to Current task.
  const goal = `看看主屏幕（${size.width}）`;
  await box.fill(goal);
  await page.getByRole('tab', { name: t('app:tabs.history') }).click();
  await page.getByRole('tab', { name: t('app:tabs.history'), selected: true }).waitFor();
  await page.keyboard.press('Control+Enter');
  await page.getByRole('tab', { name: t('app:tabs.task'), selected: true }).waitFor({ timeout: 20_000 });
  await expect.poll(() => page.locator('.task-goal').first().textContent(), { timeout: 30_000 }).toContain(goal);
  await page.getByTestId('task-result').waitFor({ timeout: 60_000 });

  // A reload shows that task again under Current task.
  await page.reload();
  await page.getByText('已连接（web）').waitFor();
  await selectPhone(page, ui.host.harness.serial);
  await page.getByRole('tab', { name: t('app:tabs.task'), selected: true }).waitFor();
  await page.getByTestId('task-result').waitFor({ timeout: 20_000 });
  expect(await page.locator('.task-goal').first().textContent()).toContain(goal);

  // Esc while a task runs asks in the window's own dialog; Esc there keeps it running, Enter stops it.
  model.policy = slowHome;
  const stopped = `一直按主屏幕键（${size.width}）`;
  await box.fill(stopped);
  await box.press('Enter');
  await expect.poll(() => page.locator('.task-goal').first().textContent(), { timeout: 30_000 }).toContain(stopped);
  await page.getByTestId('timeline-scroll').focus();
  await page.keyboard.press('Escape');
  const dialog = page.getByTestId('confirm-dialog');
  await dialog.waitFor();
  expect(await dialog.locator('#confirm-message').textContent()).toBe(t('app:task.confirmStopGoal', { goal: stopped }));
  await saveScreenshot(page, `zh-CN-stop-dialog-${size.width}x${size.height}`);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  expect(await page.getByTestId('task-result').count()).toBe(0);
  await page.getByTestId('timeline-scroll').focus();
  await page.keyboard.press('Escape');
  await dialog.waitFor();
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('task-result').getAttribute('data-outcome'), { timeout: 30_000 }).toBe('stopped');

  // Several phones: the results sit right under Run, above the schedules, and are brought into view.
  model.policy = wifiOnModel;
  await box.fill('打开 Wi-Fi');
  await page.getByRole('tab', { name: t('app:tabs.launch') }).click();
  const panel = page.getByTestId('launch-panel');
  for (const checkbox of await panel.getByRole('checkbox').all()) await checkbox.check();
  await panel.getByRole('button', { name: t('app:launch.runOn', { count: 2 }) }).click();
  await expect
    .poll(async () => `${await panel.getByTestId('launch-summary').textContent()} | ${(await panel.getByTestId('launch-row').allTextContents()).join(' | ')}`, { timeout: 90_000 })
    .toMatch(new RegExp(`^${t('app:launch.doneOf', { done: 2, total: 2 })} \\|`));
  const results = (await panel.getByTestId('launch-latest').boundingBox())!;
  expect(results.y).toBeLessThan((await panel.locator('.schedules').boundingBox())!.y);
  const summary = (await panel.getByTestId('launch-summary').boundingBox())!;
  expect(summary.y).toBeGreaterThanOrEqual(0);
  expect(summary.y + summary.height).toBeLessThanOrEqual(size.height);
  expect((await ui.host.harness.state()).settings.wifi).toBe(true);
  expect((await callControlApi(extra!.controlUrl, 'GET /state')).settings.wifi).toBe(true);
  await saveScreenshot(page, `zh-CN-several-phones-${size.width}x${size.height}`);
  expect(errors).toEqual([]);
  await page.close();
}

describe('daily use in a Chinese window', { timeout: 240_000 }, () => {
  it('Scenario: In a Chinese window the goal box grows, a run from History shows, Esc asks in our dialog, a reload keeps the task and Several phones shows its results (1280x800)', () =>
    dailyUse({ width: 1280, height: 800 }));
  it('Scenario: In a Chinese window the goal box grows, a run from History shows, Esc asks in our dialog, a reload keeps the task and Several phones shows its results (1920x1080)', () =>
    dailyUse({ width: 1920, height: 1080 }));
});
