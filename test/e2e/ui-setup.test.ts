// First run in the browser: the checklist goes green with the demo phone and a tested model, and Test connection
// answers in plain words for a good key, a wrong key and a dead URL (the real Anthropic SDK against the loopback fake).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { FAKE_ANTHROPIC_KEY, finish } from '../fakes/index';
import { openApp, saveScreenshot } from './ui-support';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';

const model = useAnthropicFake(() => finish(true, 'connected'));
const ui = useUiFixture();

beforeAll(async () => {
  // A first run: no phone yet.
  await ui.host.harness.adb(['disconnect', ui.host.harness.serial]);
});

const item = (page: Page, id: string) => page.locator(`[data-testid="setup-checklist"] li[data-item="${id}"]`);

async function testConnection(drawer: Locator): Promise<{ result: string | null; text: string | null }> {
  await drawer.getByRole('button', { name: 'Test connection' }).click();
  const answer = drawer.getByTestId('connection-result');
  await answer.waitFor();
  return { result: await answer.getAttribute('data-result'), text: await answer.textContent() };
}

async function save(drawer: Locator) {
  await drawer.getByRole('button', { name: 'Save' }).click();
  await drawer.getByText('Saved. The next task uses these settings.').waitFor();
}

async function setKey(drawer: Locator, value: string) {
  await drawer.getByLabel(/^Anthropic API key/).fill(value);
  // "Set" the first time, "Replace" once a key is kept.
  await drawer.getByRole('button', { name: /^(Set|Replace) Anthropic API key$/ }).click();
  await expect.poll(() => drawer.getByTestId('secret-state-ANTHROPIC_API_KEY').textContent(), { timeout: 10_000 }).toBe('set');
  await expect.poll(() => drawer.getByLabel(/^Anthropic API key/).inputValue(), { timeout: 10_000 }).toBe('');
}

describe('first run in the browser', { timeout: 120_000 }, () => {
  it('Scenario: The first-run checklist turns green with the demo phone and a tested model, then goes away', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    const checklist = page.getByTestId('setup-checklist');
    await checklist.waitFor();
    expect(await item(page, 'adb').getAttribute('data-done')).toBe('true');
    expect(await item(page, 'phone').getAttribute('data-done')).toBe('false');
    expect(await item(page, 'model').textContent()).toContain('The AI planner is off');
    await saveScreenshot(page, 'setup-checklist');

    await item(page, 'phone').getByRole('button', { name: 'Start demo phone' }).click();
    await expect.poll(() => item(page, 'phone').getAttribute('data-done'), { timeout: 30_000 }).toBe('true');

    // The model: on, direct to Anthropic (the fake), saved without a key — allowed, and marked incomplete.
    await item(page, 'model').getByRole('button', { name: 'Open Settings' }).click();
    const drawer = page.getByRole('dialog', { name: 'Settings' });
    await drawer.getByLabel('Use the AI planner').check();
    await drawer.getByLabel('Transport').selectOption('direct');
    await drawer.getByLabel('Anthropic base URL').fill(model.fake.url);
    await save(drawer);
    expect(await drawer.getByTestId('setup-problems').textContent()).toContain('Anthropic API key is not set (Settings → Direct access)');
    expect(await page.getByTestId('goal-incomplete').textContent()).toContain('AI planner incomplete: Anthropic API key is not set');
    await saveScreenshot(page, 'settings-incomplete');

    // Test connection: a wrong key, then the right one.
    await setKey(drawer, 'sk-ant-wrong-key');
    const wrong = await testConnection(drawer);
    expect(wrong.result).toBe('wrong-key');
    expect(wrong.text).toContain('The key or token was refused');
    expect(wrong.text).not.toMatch(/ToolCallUnavailable|Error:|sk-ant-wrong-key/);
    await saveScreenshot(page, 'test-connection-wrong-key');
    await setKey(drawer, FAKE_ANTHROPIC_KEY);
    const good = await testConnection(drawer);
    expect(good.result).toBe('ok');
    expect(good.text).toMatch(/OK: claude-[\w.-]+ answered in [\d,.]+ ms/);
    await saveScreenshot(page, 'test-connection-ok');
    expect(await page.getByTestId('goal-incomplete').count()).toBe(0);

    // All green: the checklist is gone.
    await page.keyboard.press('Escape');
    await checklist.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: Test connection names a dead URL as unreachable', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await page.getByRole('banner').getByRole('button', { name: 'Open settings' }).click();
    const drawer = page.getByRole('dialog', { name: 'Settings' });
    const enabled = drawer.getByLabel('Use the AI planner');
    if (!(await enabled.isChecked())) await enabled.check();
    await drawer.getByLabel('Transport').selectOption('direct');
    await drawer.getByLabel('Anthropic base URL').fill('http://127.0.0.1:9');
    await save(drawer);
    const dead = await testConnection(drawer);
    expect(dead.result).toBe('unreachable');
    expect(dead.text).toMatch(/Unreachable: could not reach Anthropic at http:\/\/127\.0\.0\.1:9/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
