// The checklist in the browser keeps a passed Test connection for the configuration it tested: saving another
// setting, saving Settings again or reloading the window keeps it; changing the model forgets it. "I have an API
// key" opens Settings with the key field in view and the cursor in it. At 1280x800 in English and at 1920x1080 in
// Chinese (the real Anthropic SDK against the loopback fake).
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { FAKE_ANTHROPIC_KEY, finish } from '../fakes/index';
import { openApp, saveScreenshot } from './ui-support';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';

const model = useAnthropicFake(() => finish(true, 'connected'));
const ui = useUiFixture();

const modelItem = (page: Page) => page.locator('[data-testid="setup-checklist"] li[data-item="model"]');

/** The focused element's id and whether it lies wholly inside the window. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    const box = element?.getBoundingClientRect();
    return { id: element?.id ?? null, inView: Boolean(box && box.top >= 0 && box.bottom <= window.innerHeight) };
  });

async function save(drawer: Locator, saved: RegExp) {
  await drawer.getByRole('button', { name: /^(Save|保存)$/ }).click();
  await drawer.getByText(saved).waitFor();
}

describe('the checklist remembers a passed test', { timeout: 150_000 }, () => {
  it('Scenario: I have an API key puts the cursor in the key field, and a passed test survives saves and reloads until the model changes', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await page.setViewportSize({ width: 1280, height: 800 });
    await modelItem(page).getByRole('button', { name: 'I have an API key' }).click();
    const drawer = page.getByRole('dialog', { name: 'Settings' });
    await expect.poll(() => focused(page)).toEqual({ id: 'secret-ANTHROPIC_API_KEY', inView: true });
    await saveScreenshot(page, 'have-key-focus-1280x800');
    // The key goes where the cursor is; the base URL points at the fake; one Save keeps all of it.
    await page.keyboard.type(FAKE_ANTHROPIC_KEY);
    await drawer.getByLabel('Anthropic base URL').fill(model.fake.url);
    await save(drawer, /Saved\. The next task uses these settings\./);
    await drawer.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => drawer.getByTestId('connection-result').getAttribute('data-result'), { timeout: 30_000 }).toBe('ok');
    await page.keyboard.press('Escape');
    const checklist = page.getByTestId('setup-checklist');
    await checklist.waitFor({ state: 'detached' });

    // Another setting saved: the test still stands; so it does after a reload.
    await page.getByRole('banner').getByRole('button', { name: 'Open settings' }).click();
    await drawer.getByLabel('Max steps per task').fill('25');
    await save(drawer, /Saved\. The next task uses these settings\./);
    await page.keyboard.press('Escape');
    expect(await checklist.count()).toBe(0);
    await page.reload();
    await page.getByText('Connected via web').waitFor();
    await page.getByRole('list', { name: 'Phones' }).waitFor();
    expect(await checklist.count()).toBe(0);

    // The model changes: the old test says nothing about it.
    await page.getByRole('banner').getByRole('button', { name: 'Open settings' }).click();
    await drawer.getByLabel('Model').fill('claude-haiku-4-5');
    await save(drawer, /Saved\. The next task uses these settings\./);
    await page.keyboard.press('Escape');
    await checklist.waitFor();
    expect(await modelItem(page).getAttribute('data-done')).toBe('false');
    expect(await modelItem(page).getByRole('button', { name: 'Test connection' }).count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('in Chinese at 1920x1080 the key field takes the cursor, and a passed test outlives switching the language', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await page.setViewportSize({ width: 1920, height: 1080 });
    // Back to the cloud proxy so the checklist offers "I have an API key" again; the language is saved with it.
    await page.getByRole('banner').getByRole('button', { name: 'Open settings' }).click();
    const english = page.getByRole('dialog', { name: 'Settings' });
    await english.getByLabel('Transport').selectOption('cloud-proxy');
    await english.getByLabel('Language').selectOption('zh-CN');
    // Saved, the window speaks Chinese at once: the drawer is 设置 now.
    await save(page.getByRole('dialog'), /已保存/);
    await page.keyboard.press('Escape');
    await modelItem(page).getByRole('button', { name: '我有 API 密钥' }).click();
    await expect.poll(() => focused(page)).toEqual({ id: 'secret-ANTHROPIC_API_KEY', inView: true });
    await saveScreenshot(page, 'zh-CN-have-key-focus-1920x1080');
    const drawer = page.getByRole('dialog', { name: '设置' });
    await drawer.getByLabel('模型').fill('');
    await save(drawer, /已保存/);
    await drawer.getByRole('button', { name: /^测试与.*的连接$/ }).click();
    await expect.poll(() => drawer.getByTestId('connection-result').getAttribute('data-result'), { timeout: 30_000 }).toBe('ok');
    await page.keyboard.press('Escape');
    await page.getByTestId('setup-checklist').waitFor({ state: 'detached' });
    // The language is not what the test depends on: switching it back keeps the test.
    await page.getByRole('banner').getByRole('button', { name: '打开设置' }).click();
    await drawer.getByLabel('语言').selectOption('en');
    await save(page.getByRole('dialog'), /Saved\. The next task uses these settings\./);
    await page.keyboard.press('Escape');
    await page.reload();
    await page.getByText('Connected via web').waitFor();
    await page.getByRole('list', { name: 'Phones' }).waitFor();
    expect(await page.getByTestId('setup-checklist').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
