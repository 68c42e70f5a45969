// Daily use at 1280x800 and 1920x1080 in headless Chromium: History's row actions and dates fit without sideways
// scrolling, the steps keep a usable height beside "The agent seems stuck", "Jump to latest" is reset by a new
// task, and a past task opens at its steps.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { finish, type FakePolicy } from '../fakes/index';
import { anthropicFakeEnv, openApp, saveScreenshot, selectPhone, stepCard } from './ui-support';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';

const model = useAnthropicFake(() => finish(true, 'nothing to do'));
const ui = useUiFixture({ env: () => anthropicFakeEnv(model.fake.url, { TASK_LOOP_WARN_AFTER: '2', TASK_LOOP_STOP_AFTER: '3' }) });

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

beforeEach(async () => {
  await ui.host.harness.reset();
});

/** Presses Home on each turn (a new screen each time is not needed: the loop guard is what some tests want). */
const pressHome = (delayMs: number): FakePolicy => () => ({ kind: 'delay', ms: delayMs, then: { kind: 'call', tool: 'press_key', args: { key: 'home' }, text: 'Pressing home.' } });

/** Waits a moment `count` times (a little longer each time, so it is no loop), then finishes. */
function shortWaits(count: number): FakePolicy {
  let turns = 0;
  return () => (++turns <= count ? { kind: 'call', tool: 'wait', args: { seconds: 0.1 + turns / 100 }, text: `Waiting, turn ${turns}.\nA second line.` } : finish(true, 'Waited.'));
}

async function runGoal(page: Page, goal: string) {
  const input = page.getByLabel('What should the phone do?');
  await input.fill(goal);
  await input.press('Enter');
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

describe('the layout at 1280x800 and 1920x1080', { timeout: 180_000 }, () => {
  it('Scenario: History shows each task with its actions and date without scrolling sideways', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await selectPhone(page, ui.host.harness.serial);
    model.policy = () => finish(true, 'Done.');
    const goal = 'Turn on Wi-Fi, then open the network details of the home network and tell me its IP address';
    await runGoal(page, goal);
    // The model claims success without acting, so the card reads "Done, not verified": the row's layout is what counts here.
    await page.getByRole('article', { name: /^Done/ }).waitFor({ timeout: 60_000 });
    await page.getByRole('tab', { name: 'History' }).click();
    const row = page.getByTestId('history-row').first();
    await row.waitFor();
    for (const size of SIZES) {
      await page.setViewportSize(size);
      const actions = row.getByRole('button', { name: `Actions for "${goal}"` });
      const box = (await actions.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(size.width);
      expect(await scrollsSideways(page)).toBe(false);
      // The date on one line, the goal on one line too, whole in its tooltip.
      const started = row.getByTestId('history-started');
      const lineHeight = await started.evaluate((cell) => parseFloat(getComputedStyle(cell).lineHeight));
      expect((await started.evaluate((cell) => cell.getBoundingClientRect().height - parseFloat(getComputedStyle(cell).paddingTop) - parseFloat(getComputedStyle(cell).paddingBottom)))).toBeLessThan(lineHeight * 1.5);
      const open = row.getByRole('button', { name: `Open "${goal}"` });
      expect(await open.getAttribute('title')).toBe(goal);
      expect((await open.boundingBox())!.height).toBeLessThan(lineHeight * 1.5);
      await saveScreenshot(page, `history-${size.width}x${size.height}`);
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: The steps keep a usable height while the stuck card shows, at 1280x800 and 1920x1080', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await selectPhone(page, ui.host.harness.serial);
    // A tested model: the Getting started panel goes away, as it does for anyone past their first hour.
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByTestId('setup-checklist').waitFor({ state: 'detached' });
    model.policy = pressHome(0);
    await runGoal(page, 'Find the weather');
    await page.getByTestId('hand-over-panel').waitFor({ timeout: 60_000 });
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await expect.poll(async () => (await page.getByTestId('timeline-scroll').boundingBox())!.height).toBeGreaterThanOrEqual(size.height >= 1000 ? 400 : 165);
      // The stuck card's buttons stay reachable.
      const stop = (await page.getByTestId('hand-over-panel').getByRole('button', { name: 'Stop' }).boundingBox())!;
      expect(stop.y + stop.height).toBeLessThanOrEqual(size.height);
      await saveScreenshot(page, `stuck-card-${size.width}x${size.height}`);
    }
    await page.getByTestId('hand-over-panel').getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('article', { name: 'Stopped' }).waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: A new task follows its newest step even after the person scrolled up in the last one', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await selectPhone(page, ui.host.harness.serial);
    await page.setViewportSize({ width: 1280, height: 800 });
    model.policy = shortWaits(12);
    await runGoal(page, 'Press home twelve times');
    await page.getByRole('article', { name: 'Done' }).waitFor({ timeout: 60_000 });
    await page.getByTestId('timeline-scroll').hover();
    await page.mouse.wheel(0, -100_000);
    await page.getByRole('button', { name: 'Jump to latest ↓' }).waitFor();
    model.policy = shortWaits(1);
    await runGoal(page, 'Press home once');
    // The last task's twelve cards stay until the new task replaces them; its second card going is the sign.
    await stepCard(page, 2).waitFor({ state: 'detached', timeout: 30_000 });
    await stepCard(page, 1).waitFor({ timeout: 30_000 });
    await page.getByRole('article', { name: 'Done' }).waitFor({ timeout: 60_000 });
    expect(await page.getByRole('button', { name: 'Jump to latest ↓' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: A past task opened from History shows its last steps and result, not the log of decisions below them', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await selectPhone(page, ui.host.harness.serial);
    await page.setViewportSize({ width: 1280, height: 800 });
    // A task that leaves a log of decisions: warned, asked about the loop, stopped by the person.
    model.policy = pressHome(0);
    const goal = 'Find the weather, then stop';
    await runGoal(page, goal);
    await page.getByTestId('hand-over-panel').getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('article', { name: 'Stopped' }).waitFor({ timeout: 30_000 });
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('button', { name: `Open "${goal}"` }).click();
    const detail = page.getByTestId('history-detail');
    await detail.getByRole('article', { name: 'Stopped' }).waitFor();
    const inArea = async (element: Locator) => {
      const area = (await detail.getByTestId('timeline-scroll').boundingBox())!;
      const box = (await element.boundingBox())!;
      return box.y >= area.y - 1 && box.y + box.height <= area.y + area.height + 1;
    };
    await expect.poll(() => inArea(detail.getByRole('article', { name: 'Stopped' }))).toBe(true);
    // The log of decisions is below, there to scroll to.
    const area = (await detail.getByTestId('timeline-scroll').boundingBox())!;
    expect((await detail.locator('.supervision-log').boundingBox())!.y).toBeGreaterThanOrEqual(area.y + area.height - 1);
    await saveScreenshot(page, 'history-opened-task');
    expect(errors).toEqual([]);
    await page.close();
  });
});
