// The window's runtime words in Chinese, in real Chromium at 1280x800 and 1920x1080: the wrong-key answer of Test
// connection (the real Anthropic SDK against the fake, which refuses the key), the loop card ("The agent seems
// stuck") with its decision log, and the exported HTML report of the stopped task. Whatever a person reads must be
// Chinese: an English sentence that is not a name, a path, a number or code fails.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { wordsFor } from '../../src/shared/i18n/translate';
import { FAKE_ANTHROPIC_KEY, type FakePolicy } from '../fakes/index';
import { latinSentences } from '../support/latin-sentences';
import { MODEL_PLANS_EVERY_STEP } from '../support/planner-env';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';
import { chooseRowAction, saveScreenshot, selectPhone } from './ui-support';

/** Presses Home on every turn, saying so in Chinese: the loop guard warns after two, asks the person after three. */
const pressHome: FakePolicy = () => ({ kind: 'call', tool: 'press_key', args: { key: 'home' }, text: '按主屏幕键。' });
const model = useAnthropicFake(pressHome);
/** The model is set up in Settings, as a person does it (the planner from the environment would hide its fields). */
const ui = useUiFixture({ env: { ...MODEL_PLANS_EVERY_STEP, TASK_LOOP_WARN_AFTER: '2', TASK_LOOP_STOP_AFTER: '3' }, locale: 'zh-CN' });
const zh = wordsFor('zh-CN');
const { t } = zh;

/** Names as they are: the app's, the demo phone's model and apps, the provider's and the model's. */
const NAMES = ['Agentic Mobile Control', 'AMC_Virtual_Phone', 'Contacts', 'Settings', 'Clock', 'Notes', 'Messages', 'Chrome', 'Anthropic', 'OpenAI', 'Redis', 'JSON', 'HTML', 'API', 'Token'];

/** What a part of the page shows a person: visible text, and the labels and titles read out or shown on hover. */
const shownText = (where: Locator) =>
  where.evaluate((root) => {
    const attributes = [...root.querySelectorAll('[aria-label], [title], [placeholder]')].flatMap((element) =>
      ['aria-label', 'title', 'placeholder'].map((name) => element.getAttribute(name) ?? ''),
    );
    return [(root as HTMLElement).innerText, ...attributes].join('\n');
  });

async function expectChinese(where: Locator, what: string) {
  expect(latinSentences(await shownText(where), NAMES), what).toEqual([]);
}

/** Sets the Anthropic key in the open Settings drawer (Enter keeps it), and waits until it is kept. */
async function setKey(page: Page, value: string) {
  const field = page.locator('[data-field="secrets.ANTHROPIC_API_KEY"]');
  await field.locator('input').fill(value);
  await field.locator('input').press('Enter');
  await expect.poll(() => field.locator('input').inputValue(), { timeout: 10_000 }).toBe('');
  await expect.poll(() => page.getByTestId('secret-state-ANTHROPIC_API_KEY').textContent()).toBe(t('app:secret.set'));
}

/** Runs Test connection for Anthropic in the drawer and reads its answer. */
async function testConnection(page: Page): Promise<Locator> {
  const test = page.locator('[data-testid="test-connection"][data-target="anthropic"]');
  await test.getByRole('button').click();
  const answer = test.getByTestId('connection-result');
  await answer.waitFor({ timeout: 20_000 });
  return answer;
}

async function wrongKeyLoopAndReport(size: { width: number; height: number }) {
  await ui.host.harness.reset();
  const page = await ui.browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize(size);
  await page.goto(ui.host.app.url);
  await page.getByText('已连接（web）').waitFor();

  // A wrong key: the answer says so in Chinese (the provider's own words may follow ours, never alone).
  await page.locator('header').getByRole('button', { name: '打开设置' }).click();
  const drawer = page.getByRole('dialog', { name: '设置' });
  await drawer.waitFor();
  const enabled = drawer.locator('[data-field="aiPlanner.enabled"] input');
  if (!(await enabled.isChecked())) {
    await enabled.check();
    await drawer.locator('[data-field="aiPlanner.transport"] select').selectOption('direct');
    await drawer.locator('[data-field="anthropic.baseURL"] input').fill(model.fake.url);
    await drawer.getByRole('button', { name: t('app:settings.save'), exact: true }).click();
    await drawer.getByText(t('app:settings.saved')).waitFor();
  }
  await setKey(page, 'sk-ant-wrong-key');
  const wrong = await testConnection(page);
  expect(await wrong.getAttribute('data-result')).toBe('wrong-key');
  await expectChinese(wrong, `wrong key (${size.width})`);
  expect(await wrong.textContent()).not.toContain('sk-ant-wrong-key');
  await wrong.scrollIntoViewIfNeeded();
  await saveScreenshot(page, `zh-CN-wrong-key-${size.width}x${size.height}`);
  await expectChinese(drawer, `settings with the wrong key's answer (${size.width})`);
  await setKey(page, FAKE_ANTHROPIC_KEY);
  expect(await (await testConnection(page)).getAttribute('data-result')).toBe('ok');
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'hidden' });

  // The loop card: why the agent seems stuck and what the person may do, in Chinese, and the decision log below.
  await selectPhone(page, ui.host.harness.serial);
  const goal = `查看天气（${size.width}）`;
  const box = page.getByLabel(t('app:goal.question'));
  await box.fill(goal);
  await box.press('Enter');
  const card = page.getByTestId('hand-over-panel');
  await card.waitFor({ timeout: 60_000 });
  await expectChinese(card, `loop card (${size.width})`);
  // The action the agent repeated is worded too (two English words slip past the sentence check: "Pressed Home").
  expect(await card.getByTestId('hand-over-reason').textContent()).toMatch(/^按了 Home 连续 \d+ 次，屏幕没有变化$/);
  await expectChinese(page.locator('body'), `current task with the loop card (${size.width})`);
  await saveScreenshot(page, `zh-CN-loop-card-${size.width}x${size.height}`);
  await card.getByRole('button', { name: t('app:supervision.stop'), exact: true }).click();
  await page.getByTestId('task-result').waitFor({ timeout: 30_000 });
  await expectChinese(page.locator('body'), `stopped task and its decision log (${size.width})`);

  // The report of that task, exported in the window's language.
  await page.getByRole('tab', { name: t('app:tabs.history') }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), chooseRowAction(page, goal, t('app:history.htmlLabel', { goal }), zh)]);
  const report = await ui.browser.context.newPage();
  await report.setViewportSize(size);
  await report.setContent(await readFile(await download.path(), 'utf8'));
  expect(await report.locator('html').getAttribute('lang')).toBe('zh-CN');
  await expectChinese(report.locator('body'), `report (${size.width})`);
  await saveScreenshot(report, `zh-CN-report-${size.width}x${size.height}`);
  await report.close();
  expect(errors).toEqual([]);
  await page.close();
}

describe('the wrong key, the loop card and the report in Chinese', { timeout: 240_000 }, () => {
  it('Scenario: The wrong-key answer, the loop card and the report are Chinese in a Chinese window (1280x800)', () => wrongKeyLoopAndReport({ width: 1280, height: 800 }));
  it('Scenario: The wrong-key answer, the loop card and the report are Chinese in a Chinese window (1920x1080)', () => wrongKeyLoopAndReport({ width: 1920, height: 1080 }));
});
