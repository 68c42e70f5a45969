// One goal on several phones from the app, in the browser at 1280x800: three demo phones on the app's adb server, the
// AI planner talking to a scripted model through the real Anthropic SDK. Each phone's state (GET /state) proves how
// its task ended; the results table, the grid and History must say the same, with nothing cut or scrolling sideways.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { callControlApi, startVirtualDevice, type PhoneState, type VirtualDevice } from '@amc/demo-phone';
import { wifiOnModel } from '../fakes/index';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';
import { anthropicFakeEnv, openApp, saveScreenshot } from './ui-support';
import { runAmc } from '../support/cli';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';


const extras: VirtualDevice[] = [];
beforeAll(async () => {
  extras.push(await startVirtualDevice({ port: 0, controlPort: 0 }), await startVirtualDevice({ port: 0, controlPort: 0 }));
});
afterAll(async () => {
  for (const extra of extras) await extra.close();
});

const model = useAnthropicFake(wifiOnModel);
// The group "pair" is the two extra phones (declared before the app starts, as a person's environment would).
const ui = useUiFixture({ env: () => anthropicFakeEnv(model.fake.url, { AMC_DEVICE_GROUPS: `pair: ${extras.map((extra) => extra.adbAddress).join(' ')}` }) });

beforeAll(async () => {
  for (const extra of extras) await ui.host.harness.adb(['connect', extra.adbAddress]);
}, 30_000);

const serials = () => [ui.host.harness.serial, ...extras.map((extra) => extra.adbAddress)];
const stateOf = (serial: string): Promise<PhoneState> => {
  const extra = extras.find((device) => device.adbAddress === serial);
  return extra ? callControlApi(extra.controlUrl, 'GET /state') : ui.host.harness.state();
};
async function resetAll() {
  await ui.host.harness.reset({ settings: { wifi: false } });
  for (const extra of extras) await callControlApi(extra.controlUrl, 'POST /reset', { settings: { wifi: false } });
}

/** Nothing on the page scrolls sideways, and every element of `selector` lies inside the window. */
async function fitsTheWindow(page: Page, selector: string) {
  const sideways = await page.evaluate(() =>
    [document.documentElement, ...document.querySelectorAll('*')].some((element) => {
      const style = getComputedStyle(element);
      const scrollable = element === document.documentElement || ['auto', 'scroll'].includes(style.overflowX);
      return scrollable && element.scrollWidth > element.clientWidth + 1;
    }),
  );
  expect(sideways).toBe(false);
  for (const box of await page.locator(selector).evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().toJSON() as DOMRect))) {
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
  }
}

describe('one goal on several phones in the app', { timeout: 180_000 }, () => {
  it('Scenario: The app runs one goal on the phones picked, with a grid of their screens and a results table', async () => {
    await resetAll();
    const { page, errors } = await openApp(ui.browser, ui.host);
    await expect.poll(() => page.locator('[data-testid="device-row"]').count(), { timeout: 30_000 }).toBe(3);
    await page.getByLabel('What should the phone do?').fill('Turn on Wi-Fi');
    await page.getByRole('tab', { name: 'Several phones' }).click();
    const panel = page.getByTestId('launch-panel');
    for (const checkbox of await panel.getByRole('checkbox').all()) await checkbox.check();
    await panel.getByRole('button', { name: 'Run on 3 phones' }).click();

    await expect.poll(() => panel.getByTestId('launch-summary').textContent(), { timeout: 90_000 }).toBe('3 of 3 done');
    // The results sit right under Run, above the schedules, and were brought into view.
    const results = (await panel.getByTestId('launch-latest').boundingBox())!;
    expect(results.y).toBeLessThan((await panel.locator('.schedules').boundingBox())!.y);
    const summary = (await panel.getByTestId('launch-summary').boundingBox())!;
    expect(summary.y).toBeGreaterThanOrEqual(0);
    expect(summary.y + summary.height).toBeLessThanOrEqual(page.viewportSize()!.height);
    const rows = panel.getByTestId('launch-row');
    expect((await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-serial')))).sort()).toEqual(serials().sort());
    for (const serial of serials()) {
      const row = panel.locator(`[data-testid="launch-row"][data-serial="${serial}"]`);
      expect(await row.getByTestId('launch-outcome').textContent()).toBe('done');
      expect(Number(await row.getByRole('cell').nth(1).textContent())).toBeGreaterThanOrEqual(3);
      expect((await stateOf(serial)).settings.wifi).toBe(true);
    }
    // Every phone's screen in the grid, as of its last step.
    const cells = panel.getByTestId('launch-cell');
    expect(await cells.count()).toBe(3);
    await expect.poll(() => cells.locator('img').count(), { timeout: 30_000 }).toBe(3);
    await fitsTheWindow(page, '[data-testid="launch-results"], [data-testid="launch-cell"], .launch-picker');
    await saveScreenshot(page, 'launch-three-phones');

    // History: the three tasks under one launch heading.
    await page.getByRole('tab', { name: 'History' }).click();
    const heading = page.getByTestId('history-launch').first();
    await heading.waitFor();
    expect(await heading.textContent()).toMatch(/^One goal on 3 phones · 3 of 3 done · /);
    expect(await page.locator('tr.in-launch').count()).toBe(3);
    await fitsTheWindow(page, '[data-testid="history-table"]');
    await saveScreenshot(page, 'launch-history');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: A device group picked in the app runs the goal on the group only', async () => {
    await resetAll();
    const { page, errors } = await openApp(ui.browser, ui.host);
    await page.getByLabel('What should the phone do?').fill('Turn on Wi-Fi');
    await page.getByRole('tab', { name: 'Several phones' }).click();
    const panel = page.getByTestId('launch-panel');
    await panel.getByLabel('Device group').selectOption('pair');
    await panel.getByRole('button', { name: 'Run on 2 phones' }).click();
    await expect.poll(() => panel.getByTestId('launch-summary').textContent(), { timeout: 90_000 }).toBe('2 of 2 done');
    for (const extra of extras) expect((await stateOf(extra.adbAddress)).settings.wifi).toBe(true);
    expect((await stateOf(ui.host.harness.serial)).settings.wifi).toBe(false);
    expect(await panel.getByTestId('launch-row').count()).toBe(2);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: The app runs a flow file on the phones picked, each its own task, and a broken file starts nothing', async () => {
    await resetAll();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'amc-ui-launch-flow-'));
    const file = path.join(dir, 'plums.flow.yaml');
    await writeFile(
      file,
      'goal: Write the note Plums\nsteps:\n  - launch_app: Notes\n  - tap: {desc: New note}\n  - type_text: {target: {resourceId: note_title}, text: Plums}\n  - press_key: back\n  - tap: {text: Save}\n  - assert: {visible: Plums}\n',
    );
    const { page, errors } = await openApp(ui.browser, ui.host);
    await expect.poll(() => page.locator('[data-testid="device-row"]').count(), { timeout: 30_000 }).toBe(3);
    await page.getByRole('tab', { name: 'Several phones' }).click();
    const panel = page.getByTestId('launch-panel');
    await panel.getByLabel('Device group').selectOption('pair');
    const calls = model.fake.requests.length;
    // No goal typed: a flow file needs only the phones.
    await panel.getByTestId('flow-file-input').setInputFiles(file);
    await expect.poll(() => panel.getByTestId('launch-summary').textContent(), { timeout: 90_000 }).toBe('2 of 2 done');
    expect(await panel.getByTestId('launch-row').count()).toBe(2);
    for (const extra of extras) expect((await stateOf(extra.adbAddress)).notes.map((note) => note.title)).toContain('Plums');
    expect((await stateOf(ui.host.harness.serial)).notes.map((note) => note.title)).not.toContain('Plums');
    // The flow's steps were replayed: the model was never asked.
    expect(model.fake.requests.length).toBe(calls);
    await fitsTheWindow(page, '[data-testid="launch-results"], .launch-picker');

    const broken = path.join(dir, 'broken.flow.yaml');
    await writeFile(broken, 'goal: Write a note\nsteps:\n  - launch_app: Notes\n  - tap: {}\n');
    for (const extra of extras) await callControlApi(extra.controlUrl, 'POST /reset', {});
    await panel.getByTestId('flow-file-input').setInputFiles(broken);
    const problems = panel.getByTestId('flow-file-problems');
    await problems.waitFor();
    expect(await problems.textContent()).toMatch(/broken\.flow\.yaml was not run:.*line 4, column 10: /);
    for (const extra of extras) expect((await stateOf(extra.adbAddress)).foreground).toBe('com.android.launcher3');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: A schedule is added, listed and removed in the app, and missed runs are reported when it starts', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await page.getByLabel('What should the phone do?').fill('Turn on Wi-Fi');
    await page.getByRole('tab', { name: 'Several phones' }).click();
    const panel = page.getByTestId('launch-panel');
    await panel.getByLabel('Device group').selectOption('pair');
    await panel.getByLabel('Name').fill('morning');
    await panel.getByLabel(/^When/).fill('0 25 * * *');
    await panel.getByRole('button', { name: 'Add schedule' }).click();
    expect(await panel.getByTestId('schedule-problem').textContent()).toMatch(/"0 25 \* \* \*" is not a cron pattern croner accepts/);
    await panel.getByLabel(/^When/).fill('0 8 * * *');
    await panel.getByRole('button', { name: 'Add schedule' }).click();
    const listed = panel.locator('[data-testid="schedule"][data-name="morning"]');
    await listed.waitFor();
    expect(await listed.textContent()).toMatch(/^morning · 0 8 \* \* \* · “Turn on Wi-Fi” on the group pair · next .*8:00/);
    // The CLI reads the same file.
    const cli = await runAmc(['schedule', 'list'], { env: { AMC_HOME: ui.host.home } });
    expect(cli.stdout).toMatch(/^morning: 0 8 \* \* \* — Turn on Wi-Fi on the group pair; next /m);
    await fitsTheWindow(page, '.schedules');
    await saveScreenshot(page, 'launch-schedules');
    await listed.getByRole('button', { name: 'Remove the schedule morning' }).click();
    await listed.waitFor({ state: 'detached' });

    // A schedule whose mornings passed while the app was closed: the app says so as it starts, until dismissed.
    const twoDaysAgo = Date.now() - 2 * 24 * 3600_000 - 3600_000;
    const schedule = { name: 'early', cron: '0 8 * * *', goal: 'Turn on Wi-Fi', phones: { kind: 'group', group: 'pair' }, createdAt: twoDaysAgo, lastPlannedAt: twoDaysAgo, lastRun: null };
    await page.close();
    // A schedule of a flow (as `amc schedule add --flow` keeps it) is listed by the flow's name, as the CLI says it.
    const flowSchedule = {
      name: 'wifi-flow',
      cron: '30 9 * * *',
      goal: 'Turn on Wi-Fi',
      flow: { name: 'wifi-on', content: { goal: 'Turn on Wi-Fi', steps: [{ tool: 'launch_app', args: { app: 'Settings' } }] } },
      phones: { kind: 'group', group: 'pair' },
      createdAt: Date.now(),
      lastPlannedAt: Date.now(),
      lastRun: null,
    };
    await writeFile(path.join(ui.host.home, 'schedules.json'), JSON.stringify({ schedules: [schedule, flowSchedule], missed: [] }));
    await ui.host.restart();
    const again = await openApp(ui.browser, ui.host);
    const banner = again.page.getByTestId('missed-runs');
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/^Missed while the app was closed: early \(“Turn on Wi-Fi”\) — [23] runs, /);
    await fitsTheWindow(again.page, '[data-testid="missed-runs"]');
    await saveScreenshot(again.page, 'launch-missed-runs');
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });
    await again.page.getByRole('tab', { name: 'Several phones' }).click();
    const flowListed = again.page.locator('[data-testid="schedule"][data-name="wifi-flow"]');
    await flowListed.waitFor();
    expect(await flowListed.textContent()).toMatch(/^wifi-flow · 30 9 \* \* \* · flow wifi-on on the group pair · next /);
    expect(errors).toEqual([]);
    expect(again.errors).toEqual([]);
    await again.page.close();
  });
  it('Scenario: Schedule names take any letters and are checked as you type in the window language', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByLabel('What should the phone do?').fill('Turn on Wi-Fi');
    await page.getByRole('tab', { name: 'Several phones' }).click();
    const panel = page.getByTestId('launch-panel');
    await panel.getByLabel('Device group').selectOption('pair');
    // A slash is no part of a name: said while typing, before any Add, and Add stays off.
    await panel.getByLabel('Name').fill('morning/wifi');
    expect(await panel.getByTestId('schedule-name-problem').textContent()).toBe(
      'a name starts with a letter or a digit and has only letters, digits, spaces, dots, dashes or underscores',
    );
    expect(await panel.getByRole('button', { name: 'Add schedule' }).isDisabled()).toBe(true);
    await panel.getByLabel('Name').fill('morning wifi');
    expect(await panel.getByTestId('schedule-name-problem').count()).toBe(0);
    await saveScreenshot(page, 'schedule-name-1280x800');

    // In Chinese at 1920x1080: the same check in Chinese words, and a name in Chinese characters is kept.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.getByRole('banner').getByRole('button', { name: 'Open settings' }).click();
    await page.getByRole('dialog').getByLabel('Language').selectOption('zh-CN');
    await page.getByRole('dialog').getByRole('button', { name: /^(Save|保存)$/ }).click();
    await page.getByRole('dialog').getByText(/已保存/).waitFor();
    await page.keyboard.press('Escape');
    await panel.getByLabel('名称').fill('早上/');
    expect(await panel.getByTestId('schedule-name-problem').textContent()).toBe('名字以文字或数字开头，只能包含文字、数字、空格、点、短横线或下划线');
    await panel.getByLabel('名称').fill('早上');
    await panel.getByRole('button', { name: '添加计划任务' }).click();
    const listed = panel.locator('[data-testid="schedule"][data-name="早上"]');
    await listed.waitFor();
    await saveScreenshot(page, 'zh-CN-schedule-name-1920x1080');
    await listed.getByRole('button', { name: '删除计划任务 早上' }).click();
    await listed.waitFor({ state: 'detached' });
    await page.getByRole('banner').getByRole('button', { name: '打开设置' }).click();
    await page.getByRole('dialog').getByLabel('语言').selectOption('system');
    await page.getByRole('dialog').getByRole('button', { name: /^(Save|保存)$/ }).click();
    await page.getByRole('dialog').getByText(/Saved/).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});
