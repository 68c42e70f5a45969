// The person in the loop, in the browser UI (headless Chromium against the web host): the agent's question
// answered in its card, a hand-over done on the mirror, a sensitive action allowed or denied; the phone's state
// (GET /state) proves what happened.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { findElement, finish } from '../fakes/index';
import { anthropicFakeEnv, centreOf, clickMirrorAt, dumpUi, openApp, saveScreenshot, selectPhone, waitForFrameAfter } from './ui-support';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';

const model = useAnthropicFake(() => finish(true, 'nothing to do'));
const ui = useUiFixture({ env: () => anthropicFakeEnv(model.fake.url) });

beforeEach(async () => {
  model.policy = () => finish(true, 'nothing to do');
  await ui.host.harness.control('/reset', { body: {} });
});

const QUESTION = 'Which app should I open?';
const foreground = async () => (await ui.host.harness.control<{ foreground: string }>('/state')).body.foreground;
/** The phone's screen in pixels, as `wm size` reports it. */
async function screenSize(): Promise<{ width: number; height: number }> {
  const reply = await ui.host.harness.adb(['-s', ui.host.harness.serial, 'shell', 'wm size']);
  const [, width, height] = /(\d+)x(\d+)/.exec(reply.stdout) ?? [];
  if (!width || !height) throw new Error(`wm size said: ${reply.stdout}`);
  return { width: Number(width), height: Number(height) };
}

/** The conversation without the Scenes (a Scene's texts would otherwise look like the person's words). */
const withoutScenes = (text: string) => text.replace(/<scene>[\s\S]*?<\/scene>/g, '');

async function runGoal(page: Page, goal: string) {
  const input = page.getByLabel('What should the phone do?');
  await input.fill(goal);
  await input.press('Enter');
}

/** Sets "Confirm actions" in the Settings drawer (a field the settings catalog declares) and saves. */
async function chooseConfirmation(page: Page, mode: 'every' | 'sensitive') {
  await page.getByRole('banner').getByRole('button', { name: 'Open settings' }).click();
  const drawer = page.getByRole('dialog', { name: 'Settings' });
  await drawer.getByLabel('Confirm actions').selectOption(mode);
  await drawer.getByRole('button', { name: 'Save' }).click();
  await drawer.getByText('Saved. The next task uses these settings.').waitFor();
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'detached' });
}

describe('the person in the loop, in the browser', { timeout: 120_000 }, () => {
  it('Scenario: The agent asks a question in the timeline, the answer typed there lets the task go on and complete', async () => {
    let calls = 0;
    model.policy = (turn) => {
      calls++;
      if (turn.scene?.screen.package.includes('contacts')) return finish(true, 'Contacts is open.');
      if (!/contacts/i.test(withoutScenes(turn.allText))) return { kind: 'call', tool: 'ask_user', args: { question: QUESTION }, text: 'The goal does not say which app.' };
      const icon = findElement(turn.scene, 'Contacts');
      return { kind: 'call', tool: 'tap', args: { element_id: icon?.id ?? 'e1' }, text: 'The person asked for Contacts.' };
    };
    const { page, errors } = await openApp(ui.browser, ui.host);
    await runGoal(page, 'Open the app I will name');
    const card = page.getByTestId('question-card');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByTestId('question-text').textContent()).toBe(QUESTION);
    const callsWhileWaiting = calls;

    // Waiting survives a reload: the question is still there, and no model call was made meanwhile.
    await page.reload();
    await page.getByText('Connected via web').waitFor();
    await page.getByTestId('question-card').waitFor({ timeout: 20_000 });
    expect(calls).toBe(callsWhileWaiting);
    await saveScreenshot(page, 'question');

    const answer = page.getByLabel('Your answer');
    await answer.fill('Contacts, please');
    await answer.press('Enter');
    await page.getByRole('article', { name: 'Done' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('question-card').count()).toBe(0);
    expect(await foreground()).toMatch(/contacts/);
    const log = page.getByTestId('supervision-log');
    expect(await log.textContent()).toContain(`The agent asked: ${QUESTION}`);
    expect(await log.textContent()).toMatch(/Answered: Contacts, please.*decided by the person/);
    expect(await page.getByTestId('usage-meter').textContent()).toMatch(/^[\d,]+ tokens in · [\d,]+ out · cost unknown/); // finished: totals, not "So far"
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: A hand-over gives the person the mirror; after "Done, continue" the agent looks afresh and completes, and History keeps who decided', async () => {
    let handedOver = false;
    let agentActions = 0;
    model.policy = (turn) => {
      if (!handedOver) {
        handedOver = true;
        return { kind: 'call', tool: 'hand_over', args: { reason: 'Please open Contacts yourself' }, text: 'Only the person should do this.' };
      }
      if (turn.scene?.screen.package.includes('contacts')) return finish(true, 'Contacts is open, the person did it.');
      agentActions++;
      return finish(false, 'Contacts is still not open.');
    };
    const { page, errors } = await openApp(ui.browser, ui.host);
    await selectPhone(page, ui.host.harness.serial);
    await runGoal(page, 'Open Contacts with my help');
    const panel = page.getByTestId('hand-over-panel');
    await panel.waitFor({ timeout: 30_000 });
    expect(await panel.getByTestId('hand-over-reason').textContent()).toBe('Please open Contacts yourself');

    // The mirror is the person's now: a tap on the Contacts icon opens it on the phone.
    const keys = page.getByRole('group', { name: 'Phone keys' });
    await expect.poll(() => keys.getByRole('button', { name: 'Home' }).isEnabled()).toBe(true);
    const seen = await waitForFrameAfter(page, -1);
    await clickMirrorAt(page, centreOf(await dumpUi(ui.host.harness, ui.host.harness.serial), 'Contacts'), await screenSize());
    await expect.poll(foreground, { timeout: 20_000 }).toMatch(/contacts/);
    await waitForFrameAfter(page, seen);
    await saveScreenshot(page, 'hand-over');

    await panel.getByLabel('Note for the agent (optional)').fill('I opened it');
    await panel.getByRole('button', { name: 'Done, continue' }).click();
    await page.getByRole('article', { name: 'Done' }).waitFor({ timeout: 30_000 });
    expect(agentActions).toBe(0);
    expect(await page.getByTestId('supervision-log').textContent()).toMatch(/Continue, with the note: I opened it.*decided by the person/);

    // History keeps the hand-over and who decided.
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('button', { name: 'Open "Open Contacts with my help"' }).first().click();
    const stored = page.getByTestId('supervision-log');
    await stored.waitFor();
    expect(await stored.textContent()).toContain('The agent handed the phone over: Please open Contacts yourself');
    expect(await stored.textContent()).toMatch(/Continue, with the note: I opened it — decided by the person/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: A held action shows its target on the wireframe; Deny keeps it from the phone and the model goes on', async () => {
    model.policy = (turn) => {
      if (/denied/i.test(withoutScenes(turn.allText))) return finish(false, 'The person did not want Contacts opened.');
      const icon = findElement(turn.scene, 'Contacts');
      return { kind: 'call', tool: 'tap', args: { element_id: icon?.id ?? 'e1' }, text: 'Tapping Contacts.' };
    };
    const { page, errors } = await openApp(ui.browser, ui.host);
    // Step mode, chosen in Settings: every action waits for a yes, whatever the policy calls sensitive.
    await chooseConfirmation(page, 'every');
    try {
      await runGoal(page, 'Open Contacts, but ask me first');
      const card = page.getByTestId('confirmation-card');
      await card.waitFor({ timeout: 30_000 });
      expect(await card.getByTestId('confirmation-action').textContent()).toMatch(/^Tap '[^']+' tap\(element_id="e\d+"\)/);
      expect(await card.getByTestId('confirmation-rationale').textContent()).toBe('The model says: Tapping Contacts.');
      expect(await card.locator('rect.wf-target').count()).toBe(1);
      await saveScreenshot(page, 'confirmation');
      await card.getByRole('button', { name: 'Deny', exact: true }).click();
      await page.getByRole('article', { name: 'Failed' }).waitFor({ timeout: 30_000 });
      expect(await foreground()).not.toMatch(/contacts/);
      expect(await page.getByTestId('supervision-log').textContent()).toMatch(/Denied.*decided by the person/);
    } finally {
      await chooseConfirmation(page, 'sensitive');
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
