// Router-level integration: the real app on a real adb server with the virtual device, the AI planner
// through the real Anthropic SDK against the loopback fake.
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { finish, scriptedPolicy, startAnthropicFake, tapLabel, type AnthropicFake, type FakePolicy } from '../fakes/index';
import { isolatedEnv, removeHome, startTestApp, type TestApp } from './app-fixture';
import { plainReason } from '../../src/shared/plain-words';
import { wordSaid } from '../../src/shared/said';
import { wordsFor } from '../../src/shared/i18n/translate';
import { latinSentences } from '../support/latin-sentences';

let harness: AdbHarness;
let fake: AnthropicFake;
let policy: FakePolicy = () => finish(true, 'nothing to do');
let app: TestApp;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  harness = await startAdbHarness();
  fake = await startAnthropicFake({ policy: (turn) => policy(turn) });
  app = await startTestApp({ env: isolatedEnv(harness.env) });
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await app?.close();
  await fake?.close();
  await harness?.stop();
  if (app) await removeHome(app.home);
});

// Each test starts from its own state: default settings, no key, a phone on its home screen (`-t` works).
beforeEach(async () => {
  policy = () => finish(true, 'nothing to do');
  await app.call('settings.update', { patch: { aiPlanner: { enabled: false } } });
  await app.call('settings.setSecret', { name: 'ANTHROPIC_API_KEY', value: null });
  await harness.control('/reset', { body: {} });
});

async function useAiPlanner(target: TestApp, key = 'test-anthropic-key') {
  const result = await target.call('settings.update', {
    patch: { aiPlanner: { enabled: true, provider: 'anthropic', transport: 'direct', model: 'claude-test' }, anthropic: { baseURL: fake.url } },
  });
  expect(result.saved).toBe(true);
  await target.call('settings.setSecret', { name: 'ANTHROPIC_API_KEY', value: key });
}

describe('devices', () => {
  it('Scenario: Connected phones are listed with their state and details', async () => {
    const list = await app.call('devices.list', {});
    expect(list.problem).toBeNull();
    const phone = list.devices.find((d) => d.serial === harness.serial);
    expect(phone).toMatchObject({ serial: harness.serial, state: 'device', connection: 'tcp' });
    expect(list.adbServer).toBe(`127.0.0.1:${harness.adbPort}`);
  });

  it('Scenario: Start demo phone launches and connects the virtual device', async () => {
    const { serial } = await app.call('devices.startDemo', {});
    expect(serial).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(Number(serial.split(':')[1])).toBeGreaterThanOrEqual(5586);
    const list = await app.call('devices.list', {});
    expect(list.devices.find((d) => d.serial === serial)?.state).toBe('device');
    await app.waitForEvent('devices.changed', (payload) => payload.devices.some((d) => d.serial === serial && d.state === 'device'));
    // A second click gives the same phone rather than a second one.
    expect((await app.call('devices.startDemo', {})).serial).toBe(serial);
    // It is a real adb device: disconnect, and it leaves the list.
    await app.call('devices.disconnect', { serial });
    await app.waitForEvent('devices.changed', (payload) => !payload.devices.some((d) => d.serial === serial));
  });

  it('connects by address and explains bad addresses and codes by field', async () => {
    expect((await app.call('devices.connect', { address: harness.serial })).serial).toBe(harness.serial);
    const bad = await app.fail('devices.connect', { address: 'not an address' });
    expect(bad.code).toBe('invalid_input');
    expect(bad.issues?.[0]).toMatch(/^address: /);
    const badCode = await app.fail('devices.pair', { address: '127.0.0.1:1', code: '12' });
    expect(badCode.issues).toContain('code: the pairing code is 6 digits');
    const unreachable = await app.fail('devices.connect', { address: '127.0.0.1:1' });
    expect(unreachable.code).toBe('failed');
    expect(unreachable.message).toMatch(/127\.0\.0\.1:1/);
  });

  it('Scenario: A mirror gesture reaches the phone when no task runs', async () => {
    await harness.shell('input keyevent 3');
    const dump = (await harness.shell('uiautomator dump /dev/tty')).stdout;
    const bounds = /text="Settings"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"/.exec(dump);
    expect(bounds).not.toBeNull();
    const [left, top, right, bottom] = bounds!.slice(1).map(Number) as [number, number, number, number];
    const tapped = await app.call('devices.tap', { serial: harness.serial, x: Math.round((left + right) / 2), y: Math.round((top + bottom) / 2) });
    expect(tapped.serial).toBe(harness.serial);
    const state = await harness.control<{ foreground: string }>('/state');
    expect(state.body.foreground).toBe('com.android.settings');
    const beforeSwipe = (await harness.shell('uiautomator dump /dev/tty')).stdout;
    const swiped = await app.call('devices.swipe', { serial: harness.serial, fromX: 540, fromY: 1800, toX: 540, toY: 600 });
    expect(swiped.serial).toBe(harness.serial);
    // The swipe scrolled the Settings list: the same screen, laid out differently.
    const afterSwipe = (await harness.shell('uiautomator dump /dev/tty')).stdout;
    expect(afterSwipe).toContain('com.android.settings');
    expect(afterSwipe).not.toBe(beforeSwipe);
    const pressed = await app.call('devices.pressKey', { serial: harness.serial, key: 'home' });
    expect(pressed.serial).toBe(harness.serial);
    expect((await harness.control<{ foreground: string }>('/state')).body.foreground).toBe('com.android.launcher3');
    const offScreen = await app.fail('devices.tap', { serial: harness.serial, x: 5000, y: 1 });
    expect(offScreen.message).toMatch(/outside|screen/i);
  });
});

describe('tasks', () => {
  it('Scenario: A task started through tasks.run streams its turns and ends in history', async () => {
    // The default configuration runs the stub planner: one describe_screen turn, then done.
    const started = await app.call('tasks.run', { serial: harness.serial, goal: 'Describe the screen' });
    expect(started.status).toBe('running');
    expect(started.planner.kind).toBe('stub');
    const finished = await app.waitForTaskEvent(started.id, 'task.finished');
    expect(finished.status).toBe('completed');
    const types = app.events.filter((e) => e.name === 'task.event' && (e.payload as { taskId: string }).taskId === started.id).map((e) => (e.payload as { type: string }).type);
    expect(types.slice(0, 4)).toEqual(['task.started', 'step.observed', 'step.planned', 'step.executed']);
    await app.waitForEvent('history.changed', (p) => p.id === started.id && p.change === 'updated');
    const { tasks } = await app.call('history.list', {});
    expect(tasks.find((t) => t.id === started.id)).toMatchObject({ goal: 'Describe the screen', serial: harness.serial, status: 'completed' });
    const record = await app.call('history.get', { id: started.id });
    expect(record.steps[0]?.planned?.tool).toBe('describe_screen');
    expect(record.steps[0]?.scene?.screen.package).toBe('com.android.launcher3');
    expect((await app.call('tasks.current', {})).task).toBeNull();
  });

  it('Scenario: The AI planner run shows rationale and ends with the model result', async () => {
    await useAiPlanner(app);
    policy = scriptedPolicy([tapLabel(/^Settings$/)], finish(true, 'Settings is open'));
    const started = await app.call('tasks.run', { serial: harness.serial, goal: 'Open Settings' });
    expect(started.planner).toMatchObject({ kind: 'ai', provider: 'anthropic', transport: 'direct', model: 'claude-test' });
    const finished = await app.waitForTaskEvent(started.id, 'task.finished');
    expect(finished).toMatchObject({ status: 'completed', result: 'Settings is open' });
    const record = await app.call('history.get', { id: started.id });
    expect(record.steps[0]?.planned).toMatchObject({ tool: 'tap', rationale: 'Tapping Settings.' });
    expect(record.steps[0]?.outcome?.ok).toBe(true);
    expect(record.steps[1]?.scene?.screen.package).toBe('com.android.settings');
    expect(record.usage.inputTokens).toBeGreaterThan(0);
    await harness.shell('input keyevent 3');
  });

  it('Scenario: Mirror taps are refused while a task runs and allowed while it is paused', async () => {
    await useAiPlanner(app);
    // A slow model that keeps pressing "home": the task runs until stopped.
    policy = () => ({ kind: 'delay', ms: 150, then: { kind: 'call', tool: 'press_key', args: { key: 'home' }, text: 'Going home.' } });
    const started = await app.call('tasks.run', { serial: harness.serial, goal: 'Keep going home', maxSteps: 200 });
    await app.waitForTaskEvent(started.id, 'step.planned');
    const refused = await app.fail('devices.tap', { serial: harness.serial, x: 10, y: 10 });
    expect(refused.message).toMatch(/task is running on this phone/);
    // A reloaded window re-attaches to the running task.
    const current = await app.call('tasks.current', { serial: harness.serial });
    expect(current.task?.id).toBe(started.id);
    expect(current.task?.steps.length).toBeGreaterThan(0);

    expect((await app.call('tasks.pause', {})).paused).toBe(true);
    await app.waitForTaskEvent(started.id, 'task.paused');
    expect((await app.call('devices.tap', { serial: harness.serial, x: 10, y: 10 })).serial).toBe(harness.serial);
    expect((await app.call('tasks.current', {})).paused).toBe(true);
    await app.call('tasks.resume', { taskId: started.id });
    await app.waitForTaskEvent(started.id, 'task.resumed');

    const stopped = await app.call('tasks.stop', {});
    expect(stopped.taskId).toBe(started.id);
    const finished = await app.waitForTaskEvent(started.id, 'task.finished');
    expect(finished.status).toBe('cancelled');
    expect((await app.call('tasks.stop', {})).taskId).toBeNull();
  });

  it('refuses a second task on a busy phone and a task the configuration cannot run', async () => {
    await useAiPlanner(app);
    policy = () => ({ kind: 'delay', ms: 150, then: { kind: 'call', tool: 'wait', args: { seconds: 0.1 } } });
    const started = await app.call('tasks.run', { serial: harness.serial, goal: 'Wait around' });
    const second = await app.fail('tasks.run', { serial: harness.serial, goal: 'Another one' });
    expect(second.message).toMatch(/already running/);
    await app.call('tasks.stop', { taskId: started.id });
    await app.waitForTaskEvent(started.id, 'task.finished');
    await app.call('settings.setSecret', { name: 'ANTHROPIC_API_KEY', value: null });
    const missingKey = await app.fail('tasks.run', { serial: harness.serial, goal: 'No key' });
    expect(missingKey.message).toMatch(/Anthropic API key is not set/);
    await app.call('settings.update', { patch: { aiPlanner: { enabled: false } } });
    const unknownPhone = await app.fail('tasks.run', { serial: '127.0.0.1:9', goal: 'Anything' });
    expect(unknownPhone.message).toMatch(/No phone "127\.0\.0\.1:9" is connected/);
    const emptyGoal = await app.fail('tasks.run', { serial: harness.serial, goal: '   ' });
    expect(emptyGoal.issues?.[0]).toMatch(/^goal: /);
  });

  it("Scenario: A run started on a phone that just left is refused in the reader's language", async () => {
    // The demo phone is started, then leaves (disconnected) before a run and a launch are started on it.
    const { serial } = await app.call('devices.startDemo', {});
    await app.call('devices.disconnect', { serial });
    await expect.poll(async () => (await app.call('devices.list', {})).devices.some((d) => d.serial === serial)).toBe(false);
    const english = `No phone "${serial}" is connected. Connect it, or start the demo phone.`;
    const refused = await app.fail('tasks.run', { serial, goal: 'Open Notes' });
    expect(plainReason(refused.message)).toBe(english);
    expect(refused.said).toEqual({ code: 'taskStart.phoneNotConnected', values: { serial } });
    const zh = wordsFor('zh-CN');
    const worded = wordSaid(refused.message, refused.said, zh);
    expect(worded).toBe(`手机“${serial}”没有连接。请连接它，或启动演示手机。`);
    expect(latinSentences(worded)).toEqual([]);
    // Several phones: the phone's row carries the same code beside the same English.
    const launched = await app.call('tasks.launch', { phones: { kind: 'serials', serials: [serial] }, goal: 'Open Notes' });
    expect(launched.rows).toMatchObject([{ serial, taskId: null, outcome: 'failed', reason: english, reasonSaid: refused.said }]);
    expect(wordSaid(launched.rows[0]!.reason!, launched.rows[0]!.reasonSaid, zh)).toBe(worded);
    // Nothing ran on the phone that is still here.
    expect((await harness.state()).foreground).toBe('com.android.launcher3');
  });

  it('Scenario: Secrets never appear in any output or event', async () => {
    const secret = 'sk-ant-very-secret-value-0123456789';
    await useAiPlanner(app, secret);
    // The fake refuses this key: the failure travels through events, history and the report.
    policy = () => finish(true, 'unreachable');
    const started = await app.call('tasks.run', { serial: harness.serial, goal: 'Fail on a bad key' });
    const finished = await app.waitForTaskEvent(started.id, 'task.finished');
    expect(finished.status).toBe('failed');
    expect(finished.failureReason).toMatch(/ToolCallUnavailable/);
    await app.call('history.exportHtml', { id: started.id });
    await app.call('history.exportJson', { id: started.id });
    const view = await app.call('settings.get', {});
    expect(view.secrets.ANTHROPIC_API_KEY).toBe('set');
    expect(app.transcript()).toContain('ToolCallUnavailable');
    expect(app.transcript()).not.toContain(secret);
    expect(app.transcript()).not.toContain(secret.slice(7, 30));
    await app.call('settings.setSecret', { name: 'ANTHROPIC_API_KEY', value: null });
  });
});

/** Runs "Open Settings" to completion with the AI planner (tap, then finish) and returns its id. */
async function completeOpenSettings(): Promise<string> {
  await useAiPlanner(app);
  policy = scriptedPolicy([tapLabel(/^Settings$/)], finish(true, 'Settings is open'));
  const started = await app.call('tasks.run', { serial: harness.serial, goal: 'Open Settings' });
  expect((await app.waitForTaskEvent(started.id, 'task.finished')).status).toBe('completed');
  await app.waitForEvent('history.changed', (p) => p.id === started.id && p.change === 'updated');
  return started.id;
}

describe('history', () => {
  it('Scenario: History survives a restart with each task timeline', async () => {
    await completeOpenSettings();
    const stub = await app.call('tasks.run', { serial: harness.serial, goal: 'Describe the screen' });
    await app.waitForEvent('history.changed', (p) => p.id === stub.id && p.change === 'updated');
    const { tasks: before } = await app.call('history.list', {});
    expect(before.length).toBeGreaterThanOrEqual(2);
    const restarted = await startTestApp({ env: isolatedEnv(harness.env), home: app.home });
    cleanups.push(() => restarted.close());
    const { tasks } = await restarted.call('history.list', {});
    expect(tasks.map((t) => t.id)).toEqual(before.map((t) => t.id));
    const completed = tasks.find((t) => t.goal === 'Open Settings')!;
    expect(tasks.find((t) => t.id === stub.id)).toMatchObject({ goal: 'Describe the screen', status: 'completed' });
    expect(completed).toMatchObject({ status: 'completed', steps: 1 });
    const record = await restarted.call('history.get', { id: completed.id });
    expect(record.steps.map((s) => s.planned?.tool)).toEqual(['tap', 'finish_task']);
  });

  it('Scenario: A task interrupted by a crash is listed as interrupted and its torn last line is ignored', async () => {
    const victimId = await completeOpenSettings();
    // Simulate a crash mid-write into a copy of the record under a new id.
    const record = await app.call('history.get', { id: victimId });
    const crashed = await startTestApp({ env: isolatedEnv(harness.env) });
    cleanups.push(async () => {
      await crashed.close();
      await removeHome(crashed.home);
    });
    const file = path.join(crashed.home, 'storage', 'tasks', 'crashed.jsonl');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(path.dirname(file), { recursive: true });
    const started = { type: 'task.started', taskId: 'crashed', at: record.createdAt, goal: record.goal, serial: record.serial, planner: record.planner, maxSteps: record.maxSteps };
    await appendFile(file, `${JSON.stringify(started)}\n{"type":"step.observed","taskId":"crash`);
    const { tasks: listed } = await crashed.call('history.list', {});
    expect(listed).toEqual([expect.objectContaining({ id: 'crashed', status: 'failed', steps: 0 })]);
    expect((await crashed.call('history.get', { id: 'crashed' })).failureReason).toMatch(/^Interrupted/);
  });

  it('Scenario: A task is exported as JSON and as a self-contained HTML report, then deleted', async () => {
    const task = { id: await completeOpenSettings() };
    const json = await app.call('history.exportJson', { id: task.id });
    expect(json.mediaType).toBe('application/json');
    expect(JSON.parse(json.text)).toMatchObject({ id: task.id, goal: 'Open Settings', status: 'completed' });
    const html = await app.call('history.exportHtml', { id: task.id });
    expect(html.fileName).toMatch(/^amc-task-open-settings-.*\.html$/);
    expect(html.text).toMatch(/^<!doctype html>/);
    expect(html.text).not.toMatch(/<script|\ssrc=|\shref=/i);
    expect(html.text).toContain('Tapping Settings.');

    expect(await app.call('history.delete', { id: task.id })).toEqual({ id: task.id, deleted: true });
    await app.waitForEvent('history.changed', (p) => p.id === task.id && p.change === 'deleted');
    expect((await app.fail('history.get', { id: task.id })).message).toMatch(/No task/);
    expect((await app.fail('history.get', { id: '../../settings' })).message).toMatch(/not a task id/);
  });
});
