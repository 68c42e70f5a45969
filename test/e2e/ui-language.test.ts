// The window in Simplified Chinese, in real Chromium at 1280x800: it follows the browser's language, the main
// screens fit without sideways scrolling and with no word cut off, Settings → Language switches it, and the model
// receives the same request (the goal as typed, the prompt in English) whatever the window's language.
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CATALOGS } from '../../src/shared/i18n/catalogs';
import { finish } from '../fakes/index';
import type { AnthropicFake } from '../fakes/anthropic-fake';
import { anthropicFakeEnv, saveScreenshot, selectPhone } from './ui-support';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';
import { TASKS_FOLDER } from '../../src/core/storage/task-store';
import { writeLongTaskFile } from '../core/storage/task-fixtures';
import { personLanguageNote } from '../../src/core/runtime/prompt';

const model = useAnthropicFake(() => finish(true, '已完成。'));
const ui = useUiFixture({ env: () => anthropicFakeEnv(model.fake.url), locale: 'zh-CN' });

const GOAL = '打开设置，告诉我 Wi-Fi 的名称';

beforeEach(async () => {
  await ui.host.harness.reset();
});

/** Opens the app and waits until it is connected (in Chinese) and has listed the phones. */
async function openInChinese(): Promise<{ page: Page; errors: string[] }> {
  const page = await ui.browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(ui.host.app.url);
  await page.getByText('已连接（web）').waitFor();
  await page.getByRole('list', { name: '手机' }).waitFor();
  return { page, errors };
}

/** Whether the page or any scroll area in it can be scrolled sideways. */
const scrollsSideways = (page: Page) =>
  page.evaluate(() =>
    [document.documentElement, ...document.querySelectorAll('*')].some((element) => {
      const style = getComputedStyle(element);
      const scrollable = element === document.documentElement || ['auto', 'scroll'].includes(style.overflowX);
      return scrollable && element.scrollWidth > element.clientWidth + 1;
    }),
  );

/** Buttons, tabs, labels and headings on screen whose words do not fit their box (cut off or spilling out). */
const cutWords = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('button, [role="tab"], label, legend, summary, h1, h2, h3, th')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || element.closest('.visually-hidden')) return false;
        // A label cut on purpose with its whole words in its tooltip (a History goal) is not cut words.
        if (element.getAttribute('title') === element.textContent?.trim()) return false;
        return element.scrollWidth > element.clientWidth + 1 || box.right > window.innerWidth + 1;
      })
      .map((element) => element.textContent?.trim()),
  );

/**
 * The English sentences of what main says about the mirror and verification, cut at their placeholders: none of
 * these pieces may be on screen in Chinese.
 */
const ENGLISH_SENTENCES = [...Object.values(CATALOGS.en.said.helper), ...Object.values(CATALOGS.en.said.video), ...Object.values(CATALOGS.en.said.verify)]
  .flatMap((message) => message.split(/\{\{\w+\}\}/))
  .map((piece) => piece.trim())
  .filter((piece) => piece.split(' ').length >= 3);

/** The pieces of English sentences in a text. */
const englishIn = (text: string | null) => ENGLISH_SENTENCES.filter((sentence) => text?.includes(sentence));

/** The decision requests of the task that started after `before` requests, without the screenshots (pixels, not words). */
function firstRequestAfter(fake: AnthropicFake, before: number): string {
  const body = fake.bodies()[before];
  if (!body) throw new Error('the model received no request for the task');
  return JSON.stringify(body, (key, value: unknown) => (key === 'source' ? '(image)' : value));
}

async function runGoal(page: Page, label: string) {
  const input = page.getByLabel(label);
  await input.fill(GOAL);
  await input.press('Enter');
}

describe('the window in Simplified Chinese', { timeout: 180_000 }, () => {
  it("Scenario: The window follows the browser's language and fits 1280x800 in Chinese", async () => {
    const { page, errors } = await openInChinese();
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await page.getByRole('heading', { name: '设备' }).waitFor();
    await page.getByRole('tab', { name: '当前任务' }).waitFor();
    await selectPhone(page, ui.host.harness.serial);
    await runGoal(page, '要手机做什么？');
    // The model claims success without acting or reading an answer off the screen: done, not verified (in Chinese).
    await page.getByRole('article', { name: '完成，未验证' }).waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('task-result-summary').textContent()).toMatch(/^1 轮，0 个操作 · .* · 输入 [\d,]+ token · 输出 [\d,]+$/);
    // What main says — why the mirror shows screenshots and what to change, the note on an unverified success — is in Chinese.
    const mirrorSource = page.getByTestId('mirror-source');
    await expect.poll(() => mirrorSource.textContent()).toContain('没有安装 scrcpy-server 3.3.3，而且设置里关闭了下载');
    expect(await mirrorSource.textContent()).toContain('在 设置 → 手机辅助程序 中打开“下载缺少的辅助程序”');
    const verification = page.getByTestId('verification');
    expect(await verification.textContent()).toBe('未核实：这个任务没有执行任何操作，所以无法确认目标已经达成');
    expect(englishIn(await page.locator('body').innerText())).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await cutWords(page)).toEqual([]);
    await saveScreenshot(page, 'zh-CN-timeline');

    await page.getByRole('tab', { name: '历史' }).click();
    const row = page.getByTestId('history-row').first();
    await row.getByRole('button', { name: `“${GOAL}”的操作` }).waitFor();
    await expect.poll(() => row.locator('.status').textContent()).toBe('完成，未验证');
    expect(await scrollsSideways(page)).toBe(false);
    expect(await cutWords(page)).toEqual([]);
    await saveScreenshot(page, 'zh-CN-history');

    await page.locator('header').getByRole('button', { name: '打开设置' }).click();
    const drawer = page.getByRole('dialog', { name: '设置' });
    await drawer.getByRole('group', { name: '界面' }).waitFor();
    await drawer.getByLabel('使用 AI 规划器').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await cutWords(page)).toEqual([]);
    await saveScreenshot(page, 'zh-CN-settings');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a long task's earlier turns are offered and read in Chinese, the box's words inside it", async () => {
    await writeLongTaskFile(path.join(ui.host.home, TASKS_FOLDER, 'long-zh.jsonl'), 'long-zh', 450, { finished: true });
    const { page, errors } = await openInChinese();
    await page.getByRole('tab', { name: '历史' }).click();
    await page.getByRole('button', { name: '打开“Open Wi-Fi settings”' }).click();
    const earlier = page.getByTestId('earlier-turns');
    expect(await earlier.locator('p').first().textContent()).toBe('第 1–250 步（共 450 步）尚未显示。');
    await page.getByTestId('timeline-scroll').evaluate((area) => (area.scrollTop = 0));
    // The box's words fit inside it (the step strip above scrolls sideways by design, so the page-wide check does not apply).
    const spilling = await earlier.evaluate((box) =>
      [...box.querySelectorAll('p, button')]
        .filter((element) => element.scrollWidth > element.clientWidth + 1 || element.getBoundingClientRect().right > box.getBoundingClientRect().right + 1)
        .map((element) => element.textContent),
    );
    expect(spilling).toEqual([]);
    await saveScreenshot(page, 'zh-CN-earlier-turns');
    await earlier.getByRole('button', { name: '显示前 200 步' }).click();
    await expect.poll(() => page.getByTestId('step-card').count()).toBe(400);
    expect(await earlier.locator('p').first().textContent()).toBe('第 1–50 步（共 450 步）尚未显示。');
    expect(await earlier.getByRole('button').textContent()).toBe('显示前 50 步');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: A goal typed in Chinese reaches the model unchanged, and the request differs only by the line naming the language', async () => {
    const { page, errors } = await openInChinese();
    await selectPhone(page, ui.host.harness.serial);
    const chineseAt = model.fake.bodies().length;
    await runGoal(page, '要手机做什么？');
    await page.getByRole('article', { name: '完成' }).waitFor({ timeout: 60_000 });
    const fromChinese = firstRequestAfter(model.fake, chineseAt);
    expect(fromChinese).toContain(GOAL);
    // The model is told the person reads Chinese: its questions and finish_task reasons come in Chinese.
    const languageLine = JSON.stringify(`\n\n${personLanguageNote('zh-CN')}`).slice(1, -1);
    expect(fromChinese).toContain(languageLine);

    // Settings → Language → English: the window's words change at once, nothing else does.
    await page.locator('header').getByRole('button', { name: '打开设置' }).click();
    await page.getByLabel('语言').selectOption('en');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('tab', { name: 'Current task' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');

    await page.reload();
    await page.getByText('Connected via web').waitFor();
    await selectPhone(page, ui.host.harness.serial);
    const englishAt = model.fake.bodies().length;
    await runGoal(page, 'What should the phone do?');
    // The reload shows the last task again (Done): this run's own request is what to wait for.
    await expect.poll(() => model.fake.bodies().length, { timeout: 60_000 }).toBeGreaterThan(englishAt);
    await page.getByRole('article', { name: 'Done' }).waitFor({ timeout: 60_000 });
    expect(firstRequestAfter(model.fake, englishAt)).toBe(fromChinese.replace(languageLine, ''));
    expect(errors).toEqual([]);
    await page.close();
  });
});
