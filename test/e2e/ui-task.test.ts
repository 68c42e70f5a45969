import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FAKE_ANTHROPIC_KEY, findElement, finish, type FakePolicy } from '../fakes/index';
import { ARTIFACTS, chooseRowAction, expandCard, openApp, saveScreenshot } from './ui-support';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';
import { MODEL_PLANS_EVERY_STEP } from '../support/planner-env';

const OPEN_CONTACTS = 'Open the contacts app';
const KEEP_GOING = 'Keep pressing home until told to stop';

const model = useAnthropicFake(() => finish(true, 'nothing to do'));
// The AI planner, direct to the fake Anthropic API with extended thinking: set through the environment, the
// way a deployment would, so the settings on disk stay untouched.
const ui = useUiFixture({
  env: () => ({
    AI_PLANNER_ENABLED: 'true',
    AI_PLANNER_PROVIDER: 'anthropic',
    AI_PLANNER_TRANSPORT: 'direct',
    AI_PLANNER_MODEL: 'claude-test',
    AI_PLANNER_THINKING_BUDGET_TOKENS: '2048',
    ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: model.fake.url,
    ...MODEL_PLANS_EVERY_STEP,
    // Some scripted models here press Home on purpose until stopped: the loop guard must not end them first.
    TASK_LOOP_WARN_AFTER: '20',
    TASK_LOOP_STOP_AFTER: '50',
  }),
});

// Each test starts from its own state (a phone on its home screen, the default policy) and makes the tasks it
// looks at, under goals of its own, so one failure does not cascade and `-t` runs any test alone.
beforeEach(async () => {
  model.policy = () => finish(true, 'nothing to do');
  await ui.host.harness.control('/reset', { body: {} });
});

/** Opens Contacts with one tap, then finishes (after `finishDelayMs`, so the running task can be watched). */
function openContactsPolicy(finishDelayMs = 0): FakePolicy {
  let calls = 0;
  return (turn) => {
    calls++;
    if (calls === 1) {
      const contacts = findElement(turn.scene, 'Contacts');
      return {
        kind: 'call',
        tool: 'tap',
        args: { element_id: contacts?.id ?? 'e1' },
        text: 'The home screen is showing; the Contacts icon opens the app.',
        thinking: 'The goal names the contacts app. I can see its icon on the launcher, so one tap should do.',
      };
    }
    const done = finish(true, 'The contacts app is open.', 'Contacts is in front now.');
    return finishDelayMs ? { kind: 'delay', ms: finishDelayMs, then: done } : done;
  };
}

/** Runs a goal in a fresh page until its end shows (`Done` or `Stopped` after `stop`), then closes the page. */
async function taskInOwnPage(goal: string, taskPolicy: FakePolicy, options: { stop?: boolean } = {}): Promise<void> {
  model.policy = taskPolicy;
  const { page, errors } = await openApp(ui.browser, ui.host);
  await runGoal(page, goal);
  if (options.stop) {
    await card(page, 1).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Stop' }).click();
  }
  await page.getByRole('article', { name: options.stop ? 'Stopped' : 'Done' }).waitFor({ timeout: 20_000 });
  expect(errors).toEqual([]);
  await page.close();
}

const keepPressingHome: FakePolicy = () => ({ kind: 'delay', ms: 300, then: { kind: 'call', tool: 'press_key', args: { key: 'home' }, text: 'Pressing home again.' } });

const card = (page: Page, step: number) => page.locator(`[data-testid="step-card"][data-step="${step}"]`);

async function runGoal(page: Page, goal: string) {
  const input = page.getByLabel('What should the phone do?');
  await input.fill(goal);
  await input.press('Enter');
}

describe('a task in the browser', { timeout: 90_000 }, () => {
  it("Scenario: A running task's turns appear live with rationale and thinking", async () => {
    // Slow enough to finish that the first card is on screen while the task still runs.
    model.policy = openContactsPolicy(2500);
    const runPage = await openApp(ui.browser, ui.host);
    const { page } = runPage;
    await runGoal(page, OPEN_CONTACTS);

    const first = card(page, 1);
    await expandCard(page, 1);
    await first.getByTestId('step-rationale').waitFor();
    expect(await page.getByRole('button', { name: 'Stop' }).isEnabled()).toBe(true);
    expect(await page.getByTestId('planner-label').first().textContent()).toBe('Planner: AI · anthropic · claude-test · direct');
    expect(await first.getByTestId('step-rationale').textContent()).toBe('The home screen is showing; the Contacts icon opens the app.');
    expect(await first.getByTestId('step-action').textContent()).toMatch(/^tap\(element_id="e\d+"\) on .*"Contacts"/);
    await first.getByText('Thinking', { exact: true }).click();
    expect(await first.getByTestId('step-thinking').textContent()).toContain('I can see its icon on the launcher');
    await first.getByTestId('step-outcome').waitFor();
    expect(await first.getByTestId('step-outcome').textContent()).toBe('✓ ok');
    // While the agent acts, the mirror marks its last target and takes no clicks.
    await page.getByTestId('mirror-target').waitFor();
    expect(await page.getByRole('group', { name: 'Phone keys' }).getByRole('button', { name: 'Home' }).isDisabled()).toBe(true);
    await saveScreenshot(page, 'task-running');

    const result = page.getByRole('article', { name: 'Done' });
    await result.waitFor({ timeout: 20_000 });
    expect(await result.getByTestId('task-result-text').textContent()).toBe('The contacts app is open.');
    expect(await card(page, 1).getByTestId('scene-wireframe').locator('rect.wf-target').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Stop' }).isDisabled()).toBe(true);
    expect((await ui.host.harness.control<{ foreground: string }>('/state')).body.foreground).toMatch(/contacts/);
    await saveScreenshot(page, 'timeline');
    expect(runPage.errors).toEqual([]);
    await page.close();
  });

  it('Scenario: The main screens are readable at 1280x800 and 1920x1080 in light and dark', async () => {
    model.policy = openContactsPolicy();
    const { page, errors } = await openApp(ui.browser, ui.host);
    await runGoal(page, OPEN_CONTACTS);
    await page.getByRole('article', { name: 'Done' }).waitFor({ timeout: 20_000 });
    for (const viewport of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme });
        const layout = await page.evaluate(() => {
          const box = (selector: string) => document.querySelector(selector)!.getBoundingClientRect().toJSON() as DOMRect;
          return {
            scrollWidth: document.documentElement.scrollWidth,
            devices: box('.device-panel'),
            goal: box('.goal-box'),
            timeline: box('.main-tabs'),
            background: getComputedStyle(document.body).backgroundColor,
            text: getComputedStyle(document.body).color,
          };
        });
        expect(layout.scrollWidth).toBeLessThanOrEqual(viewport.width);
        expect(layout.devices.right).toBeLessThanOrEqual(layout.goal.left);
        expect(layout.goal.right).toBeLessThanOrEqual(viewport.width);
        expect(layout.timeline.top).toBeLessThan(viewport.height);
        const lightness = (color: string) => color.match(/\d+/g)!.slice(0, 3).map(Number).reduce((a, b) => a + b, 0) / 3;
        if (colorScheme === 'dark') expect(lightness(layout.background)).toBeLessThan(lightness(layout.text));
        else expect(lightness(layout.background)).toBeGreaterThan(lightness(layout.text));
        await saveScreenshot(page, `timeline-${viewport.width}x${viewport.height}-${colorScheme}`);
      }
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: Stop ends a running task', async () => {
    model.policy = keepPressingHome;
    const runPage = await openApp(ui.browser, ui.host);
    const { page } = runPage;
    await runGoal(page, KEEP_GOING);
    await card(page, 2).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    expect(await page.getByTestId('task-state').textContent()).toContain('paused');
    // Paused: the person has the phone again.
    expect(await page.getByRole('group', { name: 'Phone keys' }).getByRole('button', { name: 'Home' }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Stop' }).click();
    const stopped = page.getByRole('article', { name: 'Stopped' });
    await stopped.waitFor({ timeout: 20_000 });
    expect(await page.getByRole('button', { name: 'Stop' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Run' }).isDisabled()).toBe(false);
    expect(runPage.errors).toEqual([]);
    await page.close();
  });

  it("Scenario: History survives a restart and reopens a task's timeline", async () => {
    const completedGoal = `${OPEN_CONTACTS} (to find after a restart)`;
    const stoppedGoal = `${KEEP_GOING} (to find after a restart)`;
    await taskInOwnPage(completedGoal, openContactsPolicy());
    await taskInOwnPage(stoppedGoal, keepPressingHome, { stop: true });
    const { page, errors } = await openApp(ui.browser, ui.host);
    await page.getByRole('tab', { name: 'History' }).click();
    // The page stays open while the app restarts: it says it lost the app, then reconnects and fetches again.
    const restarted = ui.host.restart({ sameAddress: true });
    await page.getByTestId('connection-lost').waitFor({ timeout: 20_000 });
    await restarted;
    await page.getByTestId('connection-lost').waitFor({ state: 'detached', timeout: 20_000 });
    expect(await page.getByTestId('connection-status').textContent()).toMatch(/^Connected via web/);
    const rows = page.getByTestId('history-row');
    const stoppedRow = rows.filter({ hasText: stoppedGoal });
    const completedRow = rows.filter({ hasText: completedGoal });
    await expect.poll(() => completedRow.count()).toBe(1);
    expect(await stoppedRow.textContent()).toContain('stopped');
    // Newest first.
    const texts = await rows.allTextContents();
    const position = (goal: string) => texts.findIndex((text) => text.includes(goal));
    expect(position(stoppedGoal)).toBeGreaterThanOrEqual(0);
    expect(position(stoppedGoal)).toBeLessThan(position(completedGoal));
    const cells = completedRow.getByRole('cell');
    expect(await cells.nth(0).locator('.history-goal').textContent()).toBe(completedGoal);
    expect(await cells.nth(1).textContent()).toBe('done');
    // Steps counts the actions carried out: the tap (finishing is not an action on the phone). Its column gives way to
    // the goal at 1280 px (so it is not a cell a reader is offered there), but the count is in the row.
    expect(await completedRow.locator('td.history-steps').textContent()).toBe('1');
    await saveScreenshot(page, 'history');

    await page.getByRole('button', { name: `Open "${completedGoal}"` }).click();
    await expandCard(page, 1);
    expect(await card(page, 1).getByTestId('step-rationale').textContent()).toBe('The home screen is showing; the Contacts icon opens the app.');
    expect(await page.getByRole('article', { name: 'Done' }).textContent()).toContain('The contacts app is open.');
    await saveScreenshot(page, 'history-task');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: The exported HTML report opens offline', async () => {
    const goal = `${OPEN_CONTACTS} (to export)`;
    await taskInOwnPage(goal, openContactsPolicy());
    const { page, errors } = await openApp(ui.browser, ui.host);
    await page.getByRole('tab', { name: 'History' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      chooseRowAction(page, goal, `Export "${goal}" as HTML report`),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.html$/);
    const reportFile = path.join(ARTIFACTS, 'ui-report.html');
    await download.saveAs(reportFile);
    const html = await readFile(reportFile, 'utf8');
    expect(html).not.toContain(FAKE_ANTHROPIC_KEY);

    const [jsonDownload] = await Promise.all([
      page.waitForEvent('download'),
      chooseRowAction(page, goal, `Export "${goal}" as JSON`),
    ]);
    const record = JSON.parse(await readFile(await jsonDownload.path(), 'utf8'));
    expect(record).toMatchObject({ goal, status: 'completed' });
    await writeFile(path.join(ARTIFACTS, 'ui-report.json'), JSON.stringify(record, null, 2));

    // Offline: every request other than the file itself is refused and recorded.
    const offline = await ui.browser.context.newPage();
    const outside: string[] = [];
    await offline.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:')) return route.continue();
      outside.push(url);
      return route.abort();
    });
    await offline.goto(pathToFileURL(reportFile).href);
    const text = await offline.locator('body').innerText();
    expect(text).toContain(goal);
    expect(text).toContain('The home screen is showing; the Contacts icon opens the app.');
    expect(text).toContain('The contacts app is open.');
    await saveScreenshot(offline, 'report');
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await offline.close();
    await page.close();
  });

  it('Scenario: Deleting a task removes it from History', async () => {
    const kept = 'Look at the screen (kept)';
    const deleted = 'Look at the screen (to delete)';
    await taskInOwnPage(kept, () => finish(true, 'Seen.'));
    await taskInOwnPage(deleted, () => finish(true, 'Seen.'));
    const { page, errors } = await openApp(ui.browser, ui.host);
    await page.getByRole('tab', { name: 'History' }).click();
    const rows = page.getByTestId('history-row');
    await expect.poll(() => rows.filter({ hasText: deleted }).count()).toBe(1);
    const before = await rows.count();
    await chooseRowAction(page, deleted, `Delete "${deleted}"`);
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => rows.count()).toBe(before - 1);
    expect(await rows.filter({ hasText: deleted }).count()).toBe(0);
    expect(await rows.filter({ hasText: kept }).count()).toBe(1);
    // Gone for good: a fresh page still lists the other task and not this one.
    await page.reload();
    await page.getByRole('tab', { name: 'History' }).click();
    await expect.poll(() => page.getByTestId('history-row').filter({ hasText: kept }).count()).toBe(1);
    expect(await page.getByTestId('history-row').filter({ hasText: deleted }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: Very long goals, model texts and on-screen texts wrap without widening the window', async () => {
    const unbroken = 'Supercalifragilistic'.repeat(30);
    const rationale = `${'The model explains itself at length. '.repeat(40)}${unbroken}`;
    model.policy = (turn) =>
      turn.callIndex % 2 === 0
        ? { kind: 'call', tool: 'press_key', args: { key: 'home' }, text: rationale, thinking: rationale }
        : finish(true, unbroken, rationale);
    const { page, errors } = await openApp(ui.browser, ui.host);
    const goal = `${'Open the notes app and write a long note '.repeat(12)}${unbroken}`;
    await runGoal(page, goal);
    await page.getByRole('article', { name: 'Done' }).waitFor({ timeout: 20_000 });
    await expandCard(page, 1);
    await card(page, 1).getByText('Thinking', { exact: true }).click();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBe(0);
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('button', { name: `Open "${goal}"` }).waitFor();
    expect(await overflow()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
