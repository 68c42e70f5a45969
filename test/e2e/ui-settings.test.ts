import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { FAKE_ANTHROPIC_KEY, finish } from '../fakes/index';
import { openApp, saveScreenshot } from './ui-support';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';

const model = useAnthropicFake(() => finish(true, 'connected'));
const ui = useUiFixture({ env: { AI_PLANNER_MODEL: 'claude-from-env' } });

async function openSettings(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Open settings' }).click();
  const drawer = page.getByRole('dialog', { name: 'Settings' });
  await drawer.getByLabel('Max steps per task').waitFor();
  return drawer;
}

/** The form shows a provider's key only while that provider is chosen for the direct transport. */
async function showOpenAIDirect(drawer: Locator) {
  const enabled = drawer.getByLabel('Use the AI planner');
  if (!(await enabled.isChecked())) await enabled.check();
  await drawer.getByLabel('Transport').selectOption('direct');
  await drawer.getByLabel('Provider').selectOption('openai');
}

const fieldOf = (page: Page, setting: string) => page.locator(`[data-field="${setting}"]`);

describe('settings in the browser', { timeout: 90_000 }, () => {
  it('Scenario: Settings reject an invalid value in the browser and save a valid one', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    const drawer = await openSettings(page);
    const save = drawer.getByRole('button', { name: 'Save' });
    const maxSteps = drawer.getByLabel('Max steps per task');

    await maxSteps.fill('0');
    const problem = fieldOf(page, 'aiPlanner.maxSteps').getByRole('alert');
    await problem.waitFor();
    expect(await problem.textContent()).toMatch(/1|small/i);
    expect(await maxSteps.getAttribute('aria-invalid')).toBe('true');
    expect(await save.isDisabled()).toBe(true);

    // The control plane's fields appear once the AI planner is on (cloud proxy is the default transport).
    await drawer.getByLabel('Use the AI planner').check();
    await drawer.getByLabel('Control-plane URL').fill('control.example.com');
    await fieldOf(page, 'controlPlane.url').getByRole('alert').waitFor();
    await saveScreenshot(page, 'settings-invalid');

    await drawer.getByLabel('Control-plane URL').fill('https://control.example.com');
    await maxSteps.fill('25');
    await problem.waitFor({ state: 'detached' });
    await fieldOf(page, 'controlPlane.url').getByRole('alert').waitFor({ state: 'detached' });
    await save.click();
    await drawer.getByText('Saved. The next task uses these settings.').waitFor();

    // What main stored: a reloaded page shows it, and so does settings.json.
    await page.reload();
    await page.getByText('Connected via web').waitFor();
    const reopened = await openSettings(page);
    expect(await reopened.getByLabel('Max steps per task').inputValue()).toBe('25');
    expect(await reopened.getByLabel('Control-plane URL').inputValue()).toBe('https://control.example.com');
    const stored = JSON.parse(await readFile(path.join(ui.host.home, 'settings.json'), 'utf8'));
    expect(stored.aiPlanner.maxSteps).toBe(25);
    expect(stored.controlPlane.url).toBe('https://control.example.com');

    // The environment wins over the stored model, and the field says so.
    expect(await fieldOf(page, 'aiPlanner.model').getByTestId('override-note').textContent()).toBe(
      'Overridden by AI_PLANNER_MODEL (in effect: claude-from-env)',
    );
    await saveScreenshot(page, 'settings');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: API keys are write-only: the form shows only set or not set', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    const drawer = await openSettings(page);
    await showOpenAIDirect(drawer);
    const field = fieldOf(page, 'secrets.OPENAI_API_KEY');
    expect(await field.getByTestId('secret-state-OPENAI_API_KEY').textContent()).toBe('not set');
    await drawer.getByLabel(/^OpenAI API key/).fill('sk-browser-secret-42');
    await field.getByRole('button', { name: 'Set OpenAI API key' }).click();
    await expect.poll(() => field.getByTestId('secret-state-OPENAI_API_KEY').textContent(), { timeout: 15_000 }).toBe('set');
    expect(await drawer.getByLabel(/^OpenAI API key/).inputValue()).toBe('');
    expect(await page.content()).not.toContain('sk-browser-secret-42');
    // A fresh page learns only the state, never the value.
    await page.reload();
    await page.getByText('Connected via web').waitFor();
    await showOpenAIDirect(await openSettings(page));
    expect(await fieldOf(page, 'secrets.OPENAI_API_KEY').getByTestId('secret-state-OPENAI_API_KEY').textContent()).toBe('set');
    expect(await page.content()).not.toContain('sk-browser-secret-42');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: A key pasted in Settings is an unsaved change that Save stores and Test connection can try first', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    const drawer = await openSettings(page);
    const enabled = drawer.getByLabel('Use the AI planner');
    if (!(await enabled.isChecked())) await enabled.check();
    await drawer.getByLabel('Transport').selectOption('direct');
    await drawer.getByLabel('Provider').selectOption('anthropic');
    await drawer.getByLabel('Anthropic base URL').fill(model.fake.url);
    const status = drawer.getByTestId('settings-status');
    await expect.poll(() => status.textContent()).toMatch(/^\d+ unsaved changes?$/);
    const before = Number((await status.textContent())?.match(/\d+/)?.[0]);

    await drawer.getByLabel(/^Anthropic API key/).fill(FAKE_ANTHROPIC_KEY);
    await expect.poll(() => status.textContent()).toBe(`${before + 1} unsaved changes`);
    expect(await fieldOf(page, 'secrets.ANTHROPIC_API_KEY').textContent()).toContain('typed, stored when you press Save');

    // Test connection tries what was typed (the fake answers 401 to any other key) and says so; nothing is saved.
    const section = drawer.locator('fieldset[data-section="Direct access"]');
    expect(await section.getByTestId('tests-unsaved').textContent()).toMatch(/what you typed, not saved/);
    const served = model.fake.requests.length;
    await section.getByRole('button', { name: 'Test connection to Anthropic' }).click();
    const result = section.getByTestId('connection-result');
    await result.waitFor({ timeout: 20_000 });
    expect(await result.getAttribute('data-result')).toBe('ok');
    expect(model.fake.requests.length).toBeGreaterThan(served);
    expect(await fieldOf(page, 'secrets.ANTHROPIC_API_KEY').getByTestId('secret-state-ANTHROPIC_API_KEY').textContent()).toBe('not set');
    await saveScreenshot(page, 'settings-unsaved-key');

    await drawer.getByRole('button', { name: 'Save' }).click();
    await drawer.getByText('Saved. The next task uses these settings.').waitFor();
    expect(await fieldOf(page, 'secrets.ANTHROPIC_API_KEY').getByTestId('secret-state-ANTHROPIC_API_KEY').textContent()).toBe('set');
    expect(await drawer.getByLabel(/^Anthropic API key/).inputValue()).toBe('');
    expect(await status.textContent()).not.toMatch(/unsaved/);
    // Stored by main: a fresh page learns that it is set, and never the value.
    await page.reload();
    await page.getByText('Connected via web').waitFor();
    const reopened = await openSettings(page);
    expect(await reopened.getByLabel('Transport').inputValue()).toBe('direct');
    expect(await fieldOf(page, 'secrets.ANTHROPIC_API_KEY').getByTestId('secret-state-ANTHROPIC_API_KEY').textContent()).toBe('set');
    expect(await page.content()).not.toContain(FAKE_ANTHROPIC_KEY);
    expect(errors).toEqual([]);
    await page.close();
  });
});
