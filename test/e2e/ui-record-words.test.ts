// The recording controls in a Chinese window, driven from the keyboard: every control has Chinese words and an
// accessible name, and "Add check" then a click on the mirror adds a check without tapping the element.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { centreOf, clickMirrorAt, dumpUi, saveScreenshot, selectPhone, waitForFrameAfter } from './ui-support';
import { useUiFixture } from '../support/ui-fixture';
import { latinSentences } from '../support/latin-sentences';

const SCREEN = { width: 1080, height: 2400 };
const ui = useUiFixture({ locale: 'zh-CN' });

beforeEach(() => ui.host.harness.reset({ settings: { wifi: true } }));

async function tapOnMirror(page: Page, text: string) {
  await clickMirrorAt(page, centreOf(await dumpUi(ui.host.harness, ui.host.harness.serial), text.replace(/&/g, '&amp;')), SCREEN);
}

/** The accessible names and visible words of the recording's controls and panel (the steps' flow syntax left out). */
const recordingWords = (page: Page) =>
  page.evaluate(() => {
    const parts = [...document.querySelectorAll('.record-controls, .recording-panel')].flatMap((area) => [
      ...[...area.querySelectorAll('button, label, h3, [role="status"], p')].map((element) => (element as HTMLElement).innerText),
      ...[...area.querySelectorAll('[aria-label]')].map((element) => element.getAttribute('aria-label') ?? ''),
    ]);
    return parts.join('\n');
  });

describe('the recording controls in Chinese and from the keyboard', { timeout: 180_000 }, () => {
  it('Scenario: The recording controls speak the window language, take the keyboard and have accessible names', async () => {
    const page = await ui.browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(ui.host.app.url);
    await page.getByText('已连接（web）').waitFor();
    await selectPhone(page, ui.host.harness.serial);
    await waitForFrameAfter(page, -1);

    // Record from the keyboard: the button takes the focus and Enter presses it.
    const record = page.getByRole('button', { name: '把你在镜像上的操作录制成流程' });
    await record.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('record-status').textContent(), { timeout: 15_000 }).toBe('正在录制：0 步');
    const steps = page.getByRole('list', { name: '录下的步骤' }).getByTestId('recorded-step');
    for (const [index, text] of ['Settings', 'Network & internet'].entries()) {
      await tapOnMirror(page, text);
      await expect.poll(() => steps.count(), { timeout: 15_000 }).toBe(index + 1);
    }

    // "Add check" from the keyboard, then a click on the Wi-Fi row: a check of its state, and Wi-Fi stays on.
    const checkState = page.getByRole('button', { name: '添加检查：下一个点击的开关必须保持现在的开或关' });
    await checkState.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => checkState.getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('record-check-hint').textContent()).toBe('在镜像上点击一个元素来检查它。按 Esc 取消。');
    await tapOnMirror(page, 'Wi-Fi');
    await expect.poll(() => steps.count(), { timeout: 15_000 }).toBe(3);
    expect(await steps.nth(2).locator('code').textContent()).toMatch(/^assert: \{ checked: \{.*Wi-Fi/);
    expect((await ui.host.harness.state()).settings.wifi).toBe(true);
    expect(await checkState.getAttribute('aria-pressed')).toBe('false');
    // Esc leaves a check unmade.
    const checkShows = page.getByRole('button', { name: '添加检查：下一个点击的元素必须显示它的文字' });
    await checkShows.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => checkShows.getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('Escape');
    await expect.poll(() => checkShows.getAttribute('aria-pressed')).toBe('false');

    // Every step's controls are named by their step, in Chinese.
    for (const name of ['删除第 3 步', '编辑第 3 步', '第 3 步是可选的']) expect(await page.getByRole(name.endsWith('可选的') ? 'checkbox' : 'button', { name }).count()).toBe(1);
    expect(latinSentences(await recordingWords(page), ['Settings'])).toEqual([]);
    await saveScreenshot(page, 'zh-CN-record-check');

    // Stop from the keyboard: the name field takes the focus, Enter saves.
    await page.getByRole('button', { name: '停止并保存' }).focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('这次录制做什么').fill('检查 Wi-Fi');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('record-saved').textContent(), { timeout: 15_000 }).toBe('已作为“由你录制”的任务保存在历史中。');
    await page.getByRole('tab', { name: '历史' }).click();
    const row = page.getByTestId('history-row').filter({ hasText: '检查 Wi-Fi' });
    await expect.poll(() => row.getByTestId('history-model').textContent(), { timeout: 15_000 }).toBe('由你录制');
    expect(errors).toEqual([]);
    await page.close();
  });
});
