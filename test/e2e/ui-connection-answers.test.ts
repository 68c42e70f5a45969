// Test connection in the browser for the answers a person cannot fix by retyping the key: a model the provider does
// not know, a rate limit, and an HTML page from a proxy in the way — the real Anthropic SDK against the loopback fake.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { FAKE_ANTHROPIC_KEY, finish, type FakePolicy } from '../fakes/index';
import { openApp, saveScreenshot, type AppPage } from './ui-support';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';

const model = useAnthropicFake(() => finish(true, 'connected'));
const ui = useUiFixture();
let app: AppPage;
let drawer: Locator;

const PROXY_PAGE = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>';

beforeAll(async () => {
  // The AI planner direct to the fake, set up in Settings as a person would.
  app = await openApp(ui.browser, ui.host);
  await app.page.getByRole('banner').getByRole('button', { name: 'Open settings' }).click();
  drawer = app.page.getByRole('dialog', { name: 'Settings' });
  await drawer.getByLabel('Use the AI planner').check();
  await drawer.getByLabel('Transport').selectOption('direct');
  await drawer.getByLabel('Anthropic base URL').fill(model.fake.url);
  await drawer.getByLabel('Model').fill('claude-nope-1');
  await drawer.getByRole('button', { name: 'Save' }).click();
  await drawer.getByText('Saved. The next task uses these settings.').waitFor();
  await drawer.getByLabel(/^Anthropic API key/).fill(FAKE_ANTHROPIC_KEY);
  await drawer.getByRole('button', { name: 'Set Anthropic API key' }).click();
  await drawer.getByTestId('secret-state-ANTHROPIC_API_KEY').filter({ hasText: /^set$/ }).waitFor();
}, 120_000);

afterAll(async () => {
  await app?.page.close();
});

/** Clicks the Direct access section's Test connection and waits for a new answer. */
async function answerTo(reply: ReturnType<FakePolicy>): Promise<{ result: string | null; text: string }> {
  model.policy = () => reply;
  const served = model.fake.requests.length;
  const section = drawer.locator('fieldset[data-section="Direct access"]');
  await section.getByRole('button', { name: 'Test connection to Anthropic' }).click();
  await expect.poll(() => model.fake.requests.length, { timeout: 15_000 }).toBeGreaterThan(served);
  const answer = section.getByTestId('connection-result');
  await section.getByRole('button', { name: 'Test connection to Anthropic' }).waitFor();
  await answer.waitFor();
  const text = (await answer.textContent()) ?? '';
  // Plain words: never an error class, a stack frame, the key or the raw page.
  expect(text).not.toMatch(/ToolCallUnavailable|NotFoundError|RateLimitError|Error:|\n\s+at |<html|<h1>/);
  expect(text).not.toContain(FAKE_ANTHROPIC_KEY);
  return { result: await answer.getAttribute('data-result'), text };
}

describe('Test connection in the browser', { timeout: 90_000 }, () => {
  it("Scenario: Test connection names an unknown model, a rate limit and a proxy's HTML page", async () => {
    const unknown = await answerTo({ kind: 'http-error', status: 404, message: 'model: claude-nope-1' });
    expect(unknown.result).toBe('unknown-model');
    expect(unknown.text).toMatch(/^✗ Unknown model or wrong URL: .*claude-nope-1/);
    expect(model.fake.bodies().at(-1)?.model).toBe('claude-nope-1');
    await saveScreenshot(app.page, 'test-connection-unknown-model');

    const limited = await answerTo({ kind: 'http-error', status: 429, retryAfterSeconds: 30 });
    expect(limited.result).toBe('rate-limited');
    expect(limited.text).toMatch(/^✗ Rate limited: /);

    const page = await answerTo({ kind: 'error-page', status: 502, html: PROXY_PAGE });
    expect(page.result).toBe('html-page');
    // One sentence that names the page once: what answered, its status, and what to check.
    expect(page.text).toBe(
      '✗ An HTML page titled "502 Bad Gateway" answered (HTTP 502) instead of the model\'s API: check the URL and any proxy or captive portal in the way.',
    );
    expect(page.text.match(/HTML page/g)).toHaveLength(1);
    await saveScreenshot(app.page, 'test-connection-html-page');

    // The same button, once the provider answers again: OK with the model and the time it took.
    const good = await answerTo(finish(true, 'connected'));
    expect(good.result).toBe('ok');
    expect(good.text).toMatch(/^✓ OK: claude-nope-1 answered in [\d,.]+ ms\.$/);
    expect(app.errors).toEqual([]);
  });
});
