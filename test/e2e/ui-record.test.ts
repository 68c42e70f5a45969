// Recording a flow by clicking the mirror in the browser (issue 44): the person's clicks carried out on the demo
// phone and kept as steps with locators, edited in the window, saved as a task in History and replayed without a model.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { centreOf, clickMirrorAt, dumpUi, openApp, saveScreenshot, selectPhone, waitForFrameAfter } from './ui-support';
import { useUiFixture } from '../support/ui-fixture';
import { createTaskStore } from '../../src/core/storage/task-store';
import { flowFromRecord } from '../../src/core/flows/flow-from-record';
import { flowToYaml } from '../../src/core/flows/flow-to-yaml';
import { parseFlowFile } from '../../src/core/flows/flow-file';
import { isActionStep, type Flow } from '../../src/shared/flow';

const SCREEN = { width: 1080, height: 2400 };
const ui = useUiFixture();

beforeEach(() => ui.host.harness.reset({ settings: { wifi: false } }));

async function tapOnMirror(page: Page, text: string) {
  // The dump is XML: an ampersand in a label is written as an entity there.
  await clickMirrorAt(page, centreOf(await dumpUi(ui.host.harness, ui.host.harness.serial), text.replace(/&/g, '&amp;')), SCREEN);
}

const steps = (page: Page) => page.getByRole('list', { name: 'Recorded steps' }).getByTestId('recorded-step');

async function startRecording(page: Page) {
  await selectPhone(page, ui.host.harness.serial);
  await waitForFrameAfter(page, -1);
  // A recording an earlier test left running (it failed before Stop) is discarded first.
  if (await page.getByTestId('record-status').isVisible()) await page.getByRole('button', { name: 'Discard' }).click();
  await page.getByRole('button', { name: 'Record a flow from what you do on the mirror' }).click();
  await page.getByTestId('record-status').waitFor();
}

/** Taps on the mirror, waiting for each to be kept before the next (as a person sees the step appear). */
async function recordTaps(page: Page, texts: string[]) {
  for (const text of texts) {
    const before = await steps(page).count();
    await tapOnMirror(page, text);
    await expect.poll(() => steps(page).count(), { timeout: 15_000 }).toBe(before + 1);
  }
}

async function saveRecording(page: Page, goal: string) {
  await page.getByRole('button', { name: 'Stop and save' }).click();
  await page.getByLabel('What the recording does').fill(goal);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByTestId('record-saved').waitFor({ timeout: 15_000 });
}

/** The recorded task as History keeps it, read from the app's own store. */
async function recordedTask(goal: string) {
  const store = createTaskStore(ui.host.home);
  const listing = await store.list();
  const summary = listing.tasks.find((task) => task.goal === goal);
  expect(summary?.recordedByPerson).toBe(true);
  const record = await store.get(summary!.id);
  await store.close();
  return record!;
}

async function replayFromHistory(page: Page, goal: string) {
  await page.getByRole('tab', { name: 'History' }).click();
  const row = page.getByTestId('history-row').filter({ hasText: goal });
  await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
  await expect(row.getByTestId('history-model').textContent()).resolves.toBe('Recorded by you');
  await row.getByRole('button', { name: `Open "${goal}"` }).click();
  await page.getByTestId('replay-task').first().click();
}

const actions = (flow: Flow) => flow.steps.filter(isActionStep);

describe('recording a flow on the mirror', { timeout: 180_000 }, () => {
  it('Scenario: A recording of turning on Wi-Fi by clicking the mirror replays with no model', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await startRecording(page);
    await recordTaps(page, ['Settings', 'Network & internet', 'Wi-Fi']);
    await expect.poll(async () => (await ui.host.harness.state()).settings.wifi, { timeout: 15_000 }).toBe(true);
    // The tap on the launcher's icon is kept as opening the app; the others by their locators, none by a point.
    await expect.poll(async () => (await steps(page).allTextContents()).join('\n'), { timeout: 15_000 }).toMatch(/launch_app[\s\S]*com\.android\.settings[\s\S]*Network & internet[\s\S]*Wi-Fi/);
    expect(await page.locator('[data-testid="recorded-step"][data-note="point"]').count()).toBe(0);
    await saveScreenshot(page, 'record-wifi');
    await saveRecording(page, 'Turn on Wi-Fi');

    const record = await recordedTask('Turn on Wi-Fi');
    const flow = flowFromRecord(record);
    expect(actions(flow).map((step) => step.tool)).toEqual(['launch_app', 'tap', 'tap']);
    expect(actions(flow)[2]!.target?.text ?? actions(flow)[2]!.target?.row).toBe('Wi-Fi');
    expect(actions(flow)[2]!.expect).toEqual({ checked: true });
    expect(actions(flow).every((step) => step.point === undefined)).toBe(true);
    // No picture is kept (seed D5): the stored record holds no screenshot of any turn.
    expect(record.steps.every((turn) => turn.screenshot === null)).toBe(true);

    await ui.host.harness.reset({ settings: { wifi: false } });
    await replayFromHistory(page, 'Turn on Wi-Fi');
    await expect.poll(async () => (await ui.host.harness.state()).settings.wifi, { timeout: 60_000 }).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: A recorded step can be deleted, edited and marked optional before it is kept', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await startRecording(page);
    await recordTaps(page, ['Settings', 'Network & internet', 'Wi-Fi']);
    const keys = page.getByRole('group', { name: 'Phone keys' });
    await keys.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => steps(page).count(), { timeout: 15_000 }).toBe(4);
    // The Back was a slip: deleted. Network & internet is rewritten with a variable; Wi-Fi is marked optional.
    await page.getByRole('button', { name: 'Delete step 4' }).click();
    await expect.poll(() => steps(page).count()).toBe(3);
    await page.getByRole('button', { name: 'Edit step 2' }).click();
    await page.getByLabel('Step 2 in flow syntax').fill('tap: { text: "${section}" }');
    await page.getByLabel('Variables (name=value, one per line)').fill('section=Network & internet');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => steps(page).nth(1).textContent()).toContain('${section}');
    // A step that does not read is refused in plain words, and the recording keeps what it had.
    await page.getByRole('button', { name: 'Edit step 3' }).click();
    await page.getByLabel('Step 3 in flow syntax').fill('tap: { colour: red }');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'could not be read' }).count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    // The box shows main's answer (the recording lives there), so it turns checked once main has it.
    await page.getByLabel('Step 3 is optional').click();
    await expect.poll(() => page.getByLabel('Step 3 is optional').isChecked(), { timeout: 15_000 }).toBe(true);
    await saveRecording(page, 'Wi-Fi, edited');

    const flow = flowFromRecord(await recordedTask('Wi-Fi, edited'));
    expect(flow.vars).toEqual({ section: 'Network & internet' });
    expect(actions(flow).map((step) => step.tool)).toEqual(['launch_app', 'tap', 'tap']);
    expect(actions(flow)[1]!.target).toEqual({ text: '${section}' });
    expect(actions(flow)[2]!.optional).toBe(true);
    const yaml = flowToYaml(flow);
    expect(yaml).not.toMatch(/press_key/);
    const read = parseFlowFile(yaml);
    expect(read.ok).toBe(true);

    await ui.host.harness.reset({ settings: { wifi: false } });
    await replayFromHistory(page, 'Wi-Fi, edited');
    await expect.poll(async () => (await ui.host.harness.state()).settings.wifi, { timeout: 60_000 }).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: A recorded tap on a row that moved before the click resolves to the row the person saw', async () => {
    const conversation = (name: string) => ({ with: name, messages: [{ from: 'them' as const, body: `Hi from ${name}` }] });
    await ui.host.harness.reset({ foreground: 'com.android.messaging', conversations: ['Ann Lee', 'Bob Stone', 'Cara Diaz'].map(conversation) });
    const { page, errors } = await openApp(ui.browser, ui.host);
    await startRecording(page);
    // Where the person saw Bob's row; then a new message lifts Cara's conversation above it before the click lands.
    const bobSeenAt = centreOf(await dumpUi(ui.host.harness, ui.host.harness.serial), 'Bob Stone');
    await ui.host.harness.reset({ foreground: 'com.android.messaging', conversations: ['Cara Diaz', 'Ann Lee', 'Bob Stone'].map(conversation) });
    const now = await dumpUi(ui.host.harness, ui.host.harness.serial);
    expect(centreOf(now, 'Bob Stone').y).not.toBe(bobSeenAt.y);
    await clickMirrorAt(page, bobSeenAt, SCREEN);
    await expect.poll(() => steps(page).count(), { timeout: 15_000 }).toBe(1);
    const step = steps(page).first();
    expect(await step.getAttribute('data-note')).toBe('moved');
    expect(await step.textContent()).toContain('Bob Stone');
    expect(await step.textContent()).not.toContain('Ann Lee');
    // The tap itself went to Bob's row where it is now: his thread is open.
    await expect.poll(async () => /Hi from Bob Stone/.test(await dumpUi(ui.host.harness, ui.host.harness.serial)), { timeout: 15_000 }).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});
