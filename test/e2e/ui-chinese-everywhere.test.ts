// Every page of the window in Chinese, in real Chromium at 1280x800 and 1920x1080: a task whose action waits for a
// yes (the reason, the decision log, the result), History with that task open, Several phones, Fleet, and Settings
// with the notes per app. Whatever a person reads must be Chinese: an English sentence that is not a name (the app's,
// an app or a label on the phone, the model's), a path, a number or code fails.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { finish, findElement } from '../fakes/index';
import { anthropicFakeEnv, saveScreenshot, selectPhone } from './ui-support';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';
import { latinSentences } from '../support/latin-sentences';

/** Opens Contacts (an action every-action mode holds for a yes), then finishes, saying so in Chinese. */
const model = useAnthropicFake((turn) => {
  if (turn.scene?.screen.package.includes('contacts')) return finish(true, '通讯录已打开');
  const icon = findElement(turn.scene, 'Contacts');
  return { kind: 'call', tool: 'tap', args: { element_id: icon?.id ?? 'e1' }, text: '点按通讯录。' };
});
const ui = useUiFixture({ env: () => anthropicFakeEnv(model.fake.url, { TASK_CONFIRM_ACTIONS: 'every' }), locale: 'zh-CN' });

/** Names as they are: the app's, the demo phone's model and apps, the provider's and the model's. */
const NAMES = ['Agentic Mobile Control', 'AMC_Virtual_Phone', 'Contacts', 'Settings', 'Clock', 'Notes', 'Messages', 'Chrome', 'Anthropic', 'OpenAI', 'Redis', 'JSON', 'HTML'];

/** What the page shows a person: visible text, and the labels and titles read out or shown on hover. */
const shownText = (page: Page) =>
  page.evaluate(() => {
    const attributes = [...document.querySelectorAll('[aria-label], [title], [placeholder]')].flatMap((element) =>
      ['aria-label', 'title', 'placeholder'].map((name) => element.getAttribute(name) ?? ''),
    );
    return [document.body.innerText, ...attributes].join('\n');
  });

async function expectChinese(page: Page, where: string) {
  expect(latinSentences(await shownText(page), NAMES), where).toEqual([]);
}

/** Runs a goal whose action waits for a yes, then reads every page, at one window size. */
async function visitEveryPage(size: { width: number; height: number }) {
      await ui.host.harness.reset();
      const page = await ui.browser.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.setViewportSize(size);
      await page.goto(ui.host.app.url);
      await page.getByText('已连接（web）').waitFor();
      await selectPhone(page, ui.host.harness.serial);
      const goal = page.getByLabel('要手机做什么？');
      await goal.fill('打开通讯录');
      await goal.press('Enter');

      // The action waits for a yes: why, in Chinese.
      const card = page.getByTestId('confirmation-why');
      await card.waitFor({ timeout: 60_000 });
      expect(await card.textContent()).toBe('暂停原因：逐步模式：每个操作都等你同意');
      expect(await page.getByTestId('planner-label').first().textContent()).toMatch(/ · 直连$/);
      await expectChinese(page, `current task, waiting (${size.width})`);
      await saveScreenshot(page, `zh-CN-confirmation-${size.width}x${size.height}`);
      await page.getByRole('button', { name: '允许', exact: true }).click();
      await page.getByRole('article', { name: '完成' }).waitFor({ timeout: 60_000 });
      await expectChinese(page, `current task, done (${size.width})`);
      expect((await ui.host.harness.state()).foreground).toMatch(/contacts/);

      await page.getByRole('tab', { name: '历史' }).click();
      await page.getByTestId('history-row').first().waitFor();
      await expectChinese(page, `history (${size.width})`);
      await page.getByRole('tab', { name: '多部手机' }).click();
      await expectChinese(page, `several phones (${size.width})`);
      await page.getByRole('tab', { name: '设备队列' }).click();
      await expectChinese(page, `fleet (${size.width})`);

      await page.locator('header').getByRole('button', { name: '打开设置' }).click();
      const drawer = page.getByRole('dialog', { name: '设置' });
      await drawer.getByRole('group', { name: '界面' }).waitFor();
      // How keys are kept is main's sentence, worded from its code.
      await drawer.getByText(/API 密钥保存在 .* 中，只有你能读取。/).waitFor();
      await expectChinese(page, `settings and notes (${size.width})`);
      await saveScreenshot(page, `zh-CN-settings-${size.width}x${size.height}`);
      expect(errors).toEqual([]);
      await page.close();
}

describe('the window in Chinese, every page', { timeout: 240_000 }, () => {
  it('Scenario: Every page of the window is Chinese in a Chinese window (1280x800)', () => visitEveryPage({ width: 1280, height: 800 }));
  it('Scenario: Every page of the window is Chinese in a Chinese window (1920x1080)', () => visitEveryPage({ width: 1920, height: 1080 }));
});
