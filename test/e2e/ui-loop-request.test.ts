// The loop guard asks the person, in the browser UI (headless Chromium against the web host): a model that presses
// Home forever is warned, then the task pauses on "The agent seems stuck" with no model call while it waits, the turn
// says "Waiting for you", the tab (not in front) raises a desktop notification, and the person's note lets it finish.
import { beforeAll, describe, expect, it } from 'vitest';
import { findElement, finish } from '../fakes/index';
import { anthropicFakeEnv, openApp, reachable, saveScreenshot, selectPhone, stepCard } from './ui-support';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';

const model = useAnthropicFake(() => finish(true, 'nothing to do'));
// Warned after 2 unchanged repeats, asked after 3 (the settings' defaults, spelled out).
const ui = useUiFixture({ env: () => anthropicFakeEnv(model.fake.url, { TASK_LOOP_WARN_AFTER: '2', TASK_LOOP_STOP_AFTER: '3' }) });

beforeAll(async () => {
  await ui.browser.context.grantPermissions(['notifications'], { origin: ui.host.app.origin });
});

interface Notice {
  title: string;
  body?: string;
  tag?: string;
}

/**
 * Before the app loads: the tab is not in front (the page cannot lose focus on its own in a test ui.browser), and every
 * desktop notification the page raises is recorded on its way to the browser's own Notification.
 */
function recordNotices(): void {
  const real = window.Notification;
  const seen: Notice[] = [];
  (window as unknown as { notices: Notice[] }).notices = seen;
  class Recorded extends real {
    constructor(title: string, options?: NotificationOptions) {
      seen.push({ title, ...(options?.body && { body: options.body }), ...(options?.tag && { tag: options.tag }) });
      super(title, options);
    }
  }
  window.Notification = Recorded;
  Document.prototype.hasFocus = () => false;
}

describe('the loop guard asks the person, in the browser', { timeout: 120_000 }, () => {
  it("Scenario: A looping task pauses on 'The agent seems stuck', notifies, and goes on with the person's note", async () => {
    const NOTE = 'Open Contacts instead';
    let calls = 0;
    model.policy = (turn) => {
      calls++;
      if (turn.scene?.screen.package.includes('contacts')) return finish(true, 'Contacts is open.');
      if (turn.allText.includes(NOTE)) {
        const icon = findElement(turn.scene, 'Contacts');
        return { kind: 'call', tool: 'tap', args: { element_id: icon?.id ?? 'e1' }, text: 'The person said to open Contacts.' };
      }
      return { kind: 'call', tool: 'press_key', args: { key: 'home' }, text: 'Pressing home again.' };
    };
    const { page, errors } = await openApp(ui.browser, ui.host, { beforeLoad: recordNotices });
    await selectPhone(page, ui.host.harness.serial);
    const input = page.getByLabel('What should the phone do?');
    await input.fill('Find the weather');
    await input.press('Enter');

    const panel = page.getByTestId('hand-over-panel');
    await panel.waitFor({ timeout: 40_000 });
    // At 1280x800 with Getting started still to do (the model is not tested), the request's buttons are on screen
    // and clickable as the window stands (it never scrolls), the note box too.
    // Getting started folds to one line while the task runs; opened again by the person, it still leaves the buttons
    // on screen (the card's text scrolls under them).
    const checklist = page.getByTestId('setup-checklist');
    const checklistOpen = () => checklist.evaluate((details) => (details as HTMLDetailsElement).open);
    expect(await checklistOpen()).toBe(false);
    const buttons = [panel.getByRole('button', { name: 'Continue' }), panel.getByRole('button', { name: 'Stop' })];
    for (const control of [...buttons, panel.getByLabel('Note for the agent (optional)')]) expect(await reachable(control)).toBe(true);
    await checklist.locator('summary').click();
    expect(await checklistOpen()).toBe(true);
    for (const control of buttons) expect(await reachable(control)).toBe(true);
    // The timeline beside the request keeps at least one compact card's height, and the usage and goal lines above it
    // one line each (the whole text in their tooltip).
    expect((await page.getByTestId('timeline-scroll').boundingBox())!.height).toBeGreaterThanOrEqual(44);
    for (const line of [page.getByTestId('usage-meter'), page.locator('.task-goal')]) {
      expect(await line.evaluate((element) => element.scrollHeight <= element.clientHeight + 1 && element.clientHeight < 30)).toBe(true);
      expect(await line.getAttribute('title')).toMatch(/^(So far: .* · cost unknown \(the model is not in the price table\)|Goal: Find the weather · on .* · Planner: AI · anthropic · .*)$/);
    }
    await saveScreenshot(page, 'loop-request-checklist-open');
    await checklist.locator('summary').click();
    expect(await panel.getByRole('heading').textContent()).toBe('The agent seems stuck');
    const description = (await panel.getByTestId('hand-over-reason').textContent()) ?? '';
    expect(description).toMatch(/Pressed Home \d+ times in a row and the screen did not change/);
    // The turn waiting on the person says so, and no model call is made while it waits.
    const waitingCards = page.locator('[data-testid="step-card"]').filter({ has: page.getByTestId('step-phase').filter({ hasText: 'Waiting for you' }) });
    await expect.poll(() => waitingCards.count()).toBe(1);
    expect(await page.getByText('Acting…').count()).toBe(0);
    const callsWhileWaiting = calls;
    // The tab is not in front: a desktop notification names the request, once.
    await expect.poll(() => page.evaluate(() => (window as unknown as { notices: Notice[] }).notices)).toEqual([
      expect.objectContaining({ title: 'The agent seems stuck', body: description }),
    ]);
    await saveScreenshot(page, 'loop-request');
    expect(calls).toBe(callsWhileWaiting);
    expect((await ui.host.harness.state()).foreground).toBe('com.android.launcher3');

    await panel.getByLabel('Note for the agent (optional)').fill(NOTE);
    await panel.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('article', { name: 'Done' }).waitFor({ timeout: 30_000 });
    await expect.poll(checklistOpen).toBe(true);
    expect((await ui.host.harness.state()).foreground).toMatch(/contacts/);
    expect(calls).toBeGreaterThan(callsWhileWaiting);
    const log = (await page.getByTestId('supervision-log').textContent()) ?? '';
    expect(log).toMatch(/Guard \(loop, warn\)/);
    expect(log).toContain(NOTE);
    expect(log).toMatch(/decided by the person/);
    expect(await stepCard(page, 1).count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { notices: Notice[] }).notices.length)).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });
});
