// The working layout in the browser: the phone stays in view while a long task's timeline scrolls in its own
// area, the mirror is enlarged and remembered, compact cards open on click, the goal box and its shortcuts,
// and History's search, filters and "Run again".
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { finish, type FakePolicy } from '../fakes/index';
import { chooseRowAction, expandCard, anthropicFakeEnv, fullyInViewport, openApp, saveScreenshot, stepCard } from './ui-support';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';
import { TASKS_FOLDER } from '../../src/core/storage/task-store';
import { HISTORY_PAGE_TURNS } from '../../src/shared/contract';
import { writeLongTaskFile } from '../core/storage/task-fixtures';

const nothingToDo: FakePolicy = () => finish(true, 'nothing to do');

const model = useAnthropicFake(nothingToDo);
// 30 steps and the finishing turn fit; pressing Home 30 times on purpose is not a loop to stop here.
const ui = useUiFixture({ env: () => anthropicFakeEnv(model.fake.url, { AI_PLANNER_MAX_STEPS: '40', TASK_LOOP_WARN_AFTER: '20', TASK_LOOP_STOP_AFTER: '50' }) });

beforeEach(async () => {
  model.policy = nothingToDo;
  await ui.host.harness.reset();
});

/** Presses Home `count` times (each turn after `delayMs`), then finishes. */
function homePresses(count: number, delayMs = 0): FakePolicy {
  let turns = 0;
  return () => {
    turns++;
    const reply =
      turns <= count
        ? ({ kind: 'call', tool: 'press_key', args: { key: 'home' }, text: `Pressing home, turn ${turns}.` } as const)
        : finish(true, `Pressed home ${count} times.`);
    return delayMs ? { kind: 'delay', ms: delayMs, then: reply } : reply;
  };
}

const keepPressingHome: FakePolicy = () => ({ kind: 'delay', ms: 300, then: { kind: 'call', tool: 'press_key', args: { key: 'home' }, text: 'Home again.' } });

const goalInput = (page: Page) => page.getByLabel('What should the phone do?');

async function runGoal(page: Page, goal: string) {
  await goalInput(page).fill(goal);
  await goalInput(page).press('Enter');
}

/** The timeline's scroll area: how far it is scrolled and how far it could be. */
/** A wrapped line of the timeline's text, at most. */
const ONE_LINE_PX = 30;

const timelineScroll = (page: Page) =>
  page.getByTestId('timeline-scroll').evaluate((area) => ({ top: area.scrollTop, max: area.scrollHeight - area.clientHeight }));

/** A card (by step; the newest without one) lies inside the timeline's visible area. */
const cardInView = (page: Page, step?: number) =>
  page.evaluate((n) => {
    const area = document.querySelector('[data-testid="timeline-scroll"]')!.getBoundingClientRect();
    const cards = [...document.querySelectorAll('[data-testid="step-card"]')];
    const card = (n === undefined ? cards.at(-1) : cards.find((element) => element.getAttribute('data-step') === String(n)))?.getBoundingClientRect();
    return !!card && card.top >= area.top - 1 && card.bottom <= area.bottom + 1;
  }, step);

/** The result card ends at the bottom of the timeline's view (the log of decisions below it is there to scroll to). */
const resultAtBottom = (page: Page) =>
  page.evaluate(() => {
    const area = document.querySelector('[data-testid="timeline-scroll"]')!.getBoundingClientRect();
    const result = document.querySelector('[data-testid="task-result"]')?.getBoundingClientRect();
    return !!result && result.top >= area.top - 1 && Math.abs(result.bottom - area.bottom) <= 24;
  });

describe('the workspace in the browser', { timeout: 180_000 }, () => {
  it('Scenario: The phone stays in view after 30 steps while the timeline follows the newest step', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    // A tested model: the Getting started panel goes away (for the next pages too) and leaves the timeline its room.
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByTestId('setup-checklist').waitFor({ state: 'detached' });
    model.policy = homePresses(30, 120);
    await page.emulateMedia({ colorScheme: 'light' });
    await runGoal(page, 'Press home thirty times');

    // Following: the newest card is in view as the turns arrive.
    await stepCard(page, 16).waitFor({ timeout: 60_000 });
    expect((await timelineScroll(page)).max).toBeGreaterThan(0);
    expect(await cardInView(page)).toBe(true);
    await stepCard(page, 17).waitFor({ timeout: 30_000 });
    expect(await cardInView(page)).toBe(true);
    // The person scrolls up: the view stays there while turns keep coming, and offers "Jump to latest".
    await page.getByTestId('timeline-scroll').hover();
    await page.mouse.wheel(0, -100_000);
    await page.getByRole('button', { name: 'Jump to latest ↓' }).waitFor();
    // A loaded machine may take a few frames to finish the wheel's scroll: the top first, then turns keep coming. The
    // totals line above the cards may wrap as its numbers grow, and the browser then keeps the cards where they were
    // (scroll anchoring): "at the top" is within a line of it, never following the newest step to the bottom.
    const atTop = async () => (await timelineScroll(page)).top <= ONE_LINE_PX;
    await expect.poll(atTop, { timeout: 10_000 }).toBe(true);
    const shown = await page.getByTestId('step-card').count();
    await stepCard(page, Math.min(31, Math.max(22, shown + 3))).waitFor({ timeout: 30_000 });
    expect(await atTop()).toBe(true);
    expect(await cardInView(page, 1)).toBe(true);

    await page.getByRole('article', { name: 'Done' }).waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('step-card').count()).toBe(31);
    await page.getByRole('button', { name: 'Jump to latest ↓' }).click();
    await expect.poll(() => resultAtBottom(page)).toBe(true);
    expect(await page.getByRole('button', { name: 'Jump to latest ↓' }).count()).toBe(0);
    // A little up, the result still in view: nothing to jump to, so nothing is offered.
    const before = await timelineScroll(page);
    // The wheel turns over the steps (the button just pressed sits beside the step list, outside them).
    await page.getByTestId('timeline-scroll').hover();
    await page.mouse.wheel(0, -40);
    await expect.poll(async () => (await timelineScroll(page)).top).toBeLessThan(before.top);
    expect(await page.getByRole('button', { name: 'Jump to latest ↓' }).count()).toBe(0);
    // Back down to the end: followed again (the smaller window below brings the result to the bottom).
    await page.mouse.wheel(0, 1000);
    await expect.poll(async () => (await timelineScroll(page)).top).toBe((await timelineScroll(page)).max);
    // A window made lower keeps the newest step in view (no new step comes to pull the view there).
    await page.setViewportSize({ width: 1280, height: 620 });
    await expect.poll(() => resultAtBottom(page)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The window itself never scrolls, and the whole phone is on screen.
    const pageScroll = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    expect(pageScroll).toBeLessThanOrEqual(0);
    expect(await fullyInViewport(page, '[data-testid="mirror-canvas"]')).toBe(true);
    const mirror = (await page.getByTestId('mirror-canvas').boundingBox())!;
    expect(mirror.width).toBeGreaterThan(210);
    // Compact cards: one line each, until opened.
    const compact = (await stepCard(page, 3).boundingBox())!;
    expect(compact.height).toBeLessThan(48);
    expect(await stepCard(page, 3).getByTestId('step-summary').textContent()).toBe('Press Home');
    expect(await stepCard(page, 3).getByTestId('step-outcome').textContent()).toMatch(/^✓ ok/);
    await saveScreenshot(page, 'layout-30-steps');

    // The step list jumps to any step and opens its card.
    await page.getByRole('navigation', { name: 'Step list' }).getByRole('button', { name: /^Go to step 12:/ }).click();
    await stepCard(page, 12).getByTestId('step-rationale').waitFor();
    expect(await stepCard(page, 12).getByTestId('step-rationale').textContent()).toBe('Pressing home, turn 12.');
    await expect.poll(() => cardInView(page, 12)).toBe(true);
    expect((await stepCard(page, 12).boundingBox())!.height).toBeGreaterThan(compact.height * 2);
    // A click on the line closes it again.
    await stepCard(page, 12).getByRole('button', { name: 'Step 12', exact: true }).click();
    await stepCard(page, 12).locator('.step-body').waitFor({ state: 'hidden' });
    await saveScreenshot(page, 'layout-step-opened');

    // The same at 1920x1080 in the dark theme.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expandCard(page, 30);
    expect(await fullyInViewport(page, '[data-testid="mirror-canvas"]')).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeLessThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await saveScreenshot(page, 'layout-30-steps-dark-1920x1080');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: The mirror is enlarged with the splitter and keeps its size after a reload', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await page.getByTestId('mirror-canvas').waitFor();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="mirror-canvas"]')?.getAttribute('data-seq') || -1) >= 0);
    const splitter = page.getByRole('separator', { name: /Phone size/ });
    // By default the phone already fills the panel's height: enlarge it from the smallest size.
    const initial = Number(await splitter.getAttribute('aria-valuenow'));
    const full = (await page.getByTestId('mirror-canvas').boundingBox())!;
    await splitter.press('Home');
    await expect.poll(async () => (await page.getByTestId('mirror-canvas').boundingBox())!.width).toBeLessThan(full.width);
    const before = (await page.getByTestId('mirror-canvas').boundingBox())!;
    const bar = (await splitter.boundingBox())!;
    await page.mouse.move(bar.x + bar.width / 2, bar.y + bar.height / 2);
    await page.mouse.down();
    await page.mouse.move(bar.x + 400, bar.y + bar.height / 2, { steps: 5 });
    await page.mouse.up();
    const widened = Number(await splitter.getAttribute('aria-valuenow'));
    expect(widened).toBeGreaterThan(600);
    // Wider room: the phone is drawn larger (as large as the height allows) and is still wholly on screen.
    await expect.poll(async () => (await page.getByTestId('mirror-canvas').boundingBox())!.height).toBeGreaterThan(before.height);
    expect(await fullyInViewport(page, '[data-testid="mirror-canvas"]')).toBe(true);
    await saveScreenshot(page, 'mirror-enlarged');

    await page.reload();
    await page.getByText('Connected via web').waitFor();
    expect(Number(await page.getByRole('separator', { name: /Phone size/ }).getAttribute('aria-valuenow'))).toBe(widened);
    // The keyboard moves it too.
    await page.getByRole('separator', { name: /Phone size/ }).press('Home');
    expect(Number(await page.getByRole('separator', { name: /Phone size/ }).getAttribute('aria-valuenow'))).toBe(300);
    await page.getByRole('separator', { name: /Phone size/ }).dblclick();
    expect(Number(await page.getByRole('separator', { name: /Phone size/ }).getAttribute('aria-valuenow'))).toBe(initial);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("Scenario: Shift+Enter starts a new line, Enter runs, and the goal joins the phone's recent goals", async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    // This test's own list: other tests ran goals on this phone in the same browser profile.
    await page.evaluate(() => localStorage.removeItem('amc.recentGoals'));
    await page.reload();
    await page.getByText('Connected via web').waitFor();
    const input = goalInput(page);
    await input.fill('');
    await input.type('Look at the screen');
    await input.press('Shift+Enter');
    await input.type('then stop');
    expect(await input.inputValue()).toBe('Look at the screen\nthen stop');
    expect(await page.getByTestId('task-timeline').count()).toBe(0);
    await input.press('Enter');
    await page.getByRole('article', { name: 'Done' }).waitFor({ timeout: 20_000 });
    expect(await page.locator('.task-goal').textContent()).toContain('Look at the screen\nthen stop');

    await runGoal(page, 'A second goal to remember');
    await page.getByRole('article', { name: 'Done' }).waitFor({ timeout: 20_000 });
    await expect.poll(() => page.locator('.task-goal').textContent()).toContain('A second goal to remember');
    await page.getByText(/^Recent goals on this phone/).click();
    const recent = page.getByRole('list', { name: 'Recent goals' });
    expect(await recent.getByRole('listitem').allTextContents()).toEqual(['A second goal to remember×', 'Look at the screen\nthen stop×']);
    await saveScreenshot(page, 'recent-goals');
    // Picking one puts it back in the goal box; removing one forgets it for good.
    await input.fill('');
    await recent.getByRole('button', { name: 'Look at the screen then stop', exact: true }).click();
    expect(await input.inputValue()).toBe('Look at the screen\nthen stop');
    await recent.getByRole('button', { name: 'Remove "A second goal to remember" from recent goals' }).click();
    await page.reload();
    await page.getByText('Connected via web').waitFor();
    await page.getByText(/^Recent goals on this phone/).click();
    expect(await page.getByRole('list', { name: 'Recent goals' }).getByRole('listitem').allTextContents()).toEqual(['Look at the screen\nthen stop×']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: Keyboard shortcuts run, pause, resume and stop a task, and ? lists them', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    expect(await help.textContent()).toContain('Space');
    await saveScreenshot(page, 'keyboard-shortcuts');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });

    model.policy = keepPressingHome;
    await goalInput(page).fill('Keep pressing home (shortcuts)');
    // Ctrl+Enter runs from anywhere on the page.
    await page.getByRole('heading', { name: 'Devices' }).click();
    await page.keyboard.press('Control+Enter');
    await stepCard(page, 2).waitFor({ timeout: 20_000 });
    // Space on the timeline pauses, and again resumes.
    await page.getByTestId('timeline-scroll').focus();
    await page.keyboard.press(' ');
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    await page.getByTestId('timeline-scroll').focus();
    await page.keyboard.press(' ');
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    // Esc asks first, in the window's own dialog: Escape again cancels and keeps the task running; Enter stops it.
    const asked = page.getByTestId('confirm-dialog');
    await page.keyboard.press('Escape');
    await asked.waitFor();
    expect(await asked.textContent()).toContain('Stop the task "Keep pressing home (shortcuts)"');
    await page.keyboard.press('Escape');
    await asked.waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Stop' }).isEnabled()).toBe(true);
    await page.keyboard.press('Escape');
    await asked.waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('article', { name: 'Stopped' }).waitFor({ timeout: 20_000 });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("Scenario: A long task's timeline reads its earlier turns on request without moving the view", async () => {
    await writeLongTaskFile(path.join(ui.host.home, TASKS_FOLDER, 'long-history.jsonl'), 'long-history', 450, { finished: true });
    const { page, errors } = await openApp(ui.browser, ui.host);
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('button', { name: 'Open "Open Wi-Fi settings"' }).click();

    const cards = page.getByTestId('step-card');
    const earlier = page.getByTestId('earlier-turns');
    await expect.poll(() => cards.count()).toBe(HISTORY_PAGE_TURNS);
    expect(await earlier.locator('p').first().textContent()).toBe('Turns 1–250 of 450 are not shown yet.');
    expect(await cards.first().getAttribute('data-step')).toBe('251');
    // The result card counts every turn, not only those shown.
    expect(await page.getByTestId('task-result-summary').textContent()).toMatch(/450/);

    /** Where a turn's card sits in the timeline's view, in pixels from its top. */
    const offsetOf = (step: number) =>
      page.evaluate((n) => {
        const area = document.querySelector('[data-testid="timeline-scroll"]')!.getBoundingClientRect();
        return document.querySelector(`[data-testid="step-card"][data-step="${n}"]`)!.getBoundingClientRect().top - area.top;
      }, step);
    for (const [first, next, shown] of [
      [251, 51, 400],
      [51, 1, 450],
    ] as const) {
      await page.getByTestId('timeline-scroll').evaluate((area) => (area.scrollTop = 0));
      const before = await offsetOf(first);
      if (first === 251) await saveScreenshot(page, 'history-earlier-turns');
      await earlier.getByRole('button').click();
      await expect.poll(() => cards.count()).toBe(shown);
      expect(await cards.first().getAttribute('data-step')).toBe(String(next));
      // The turn that was at the top of the view is still where it was.
      expect(Math.abs((await offsetOf(first)) - before)).toBeLessThanOrEqual(2);
    }
    expect(await earlier.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('Scenario: History is searched and filtered, names the model and the phone, and runs a task again', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    const zebra = 'Find the zebra in History';
    // The model claims success without acting: the card says so (not verified), as History does.
    model.policy = () => finish(true, 'Seen.');
    await runGoal(page, zebra);
    await page.getByRole('article', { name: 'Done, not verified' }).waitFor({ timeout: 20_000 });
    model.policy = keepPressingHome;
    const stopped = 'Stopped goal for the History filter';
    await runGoal(page, stopped);
    await stepCard(page, 1).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('article', { name: 'Stopped' }).waitFor({ timeout: 20_000 });

    await page.getByRole('tab', { name: 'History' }).click();
    const rows = page.getByTestId('history-row');
    await expect.poll(() => rows.filter({ hasText: zebra }).count()).toBe(1);
    const zebraRow = rows.filter({ hasText: zebra });
    // The phone by name (its model), the model that planned.
    expect(await zebraRow.getByTestId('history-phone').textContent()).toBe('AMC_Virtual_Phone · claude-test');
    expect(await zebraRow.getByTestId('history-model').textContent()).toBe('claude-test');

    // "/" goes to the search box; words narrow the list.
    await page.getByRole('tab', { name: 'History' }).focus();
    await page.keyboard.press('/');
    await page.keyboard.type('ZEBRA history');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(zebra);
    await saveScreenshot(page, 'history-search');
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByLabel('Status').selectOption('stopped');
    await expect.poll(async () => (await rows.allTextContents()).every((text) => text.includes('stopped'))).toBe(true);
    expect(await rows.filter({ hasText: stopped }).count()).toBe(1);
    await page.getByLabel('Status').selectOption('any');
    await page.getByLabel('Planner').selectOption('stub');
    await page.getByTestId('history-no-match').waitFor();
    await page.getByLabel('Planner').selectOption('ai');
    await page.getByLabel('Phone', { exact: true }).selectOption(ui.host.harness.serial);
    await expect.poll(() => rows.filter({ hasText: zebra }).count()).toBe(1);

    // Arrow keys move between tasks and Enter opens one.
    const total = await rows.count();
    await page.getByRole('button', { name: `Open "${stopped}"` }).focus();
    const order = await page.locator('button.history-open').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')));
    const at = order.indexOf(`Open "${stopped}"`);
    await page.keyboard.press(at + 1 < total ? 'ArrowDown' : 'ArrowUp');
    const moved = order[at + 1 < total ? at + 1 : at - 1]!;
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(moved);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: '← All tasks' }).waitFor();
    await page.getByRole('button', { name: '← All tasks' }).click();

    // Run again: the same goal on the same phone, shown on the Current task tab.
    model.policy = () => finish(true, 'Seen again.');
    await chooseRowAction(page, zebra, `Run "${zebra}" again`);
    await page.getByRole('tab', { name: 'Current task', selected: true }).waitFor();
    await page.getByRole('article', { name: 'Done, not verified' }).waitFor({ timeout: 20_000 });
    await expect.poll(() => page.locator('.task-goal').textContent()).toContain(zebra);
    expect(await page.getByTestId('task-result-text').textContent()).toBe('No action was taken in this task, so nothing confirms the goal was reached. The model said: Seen again.');
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('button', { name: 'Clear' }).click().catch(() => undefined);
    await expect.poll(() => page.getByTestId('history-row').filter({ hasText: zebra }).count()).toBe(2);
    expect(errors).toEqual([]);
    await page.close();
  });
});
