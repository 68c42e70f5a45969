// "Run again without the model" through the app's router (the same typed IPC the window uses, validated with zod):
// a task run with the scripted model through the real Anthropic SDK, then replayed on the reset virtual phone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { finish, startAnthropicFake, type AnthropicFake, type FakePolicy } from '../fakes/index';
import { stepsPolicy, SUITE_SCRIPTS } from '../fakes/suite-agent';
import { isolatedEnv, removeHome, startTestApp, type TestApp } from './app-fixture';

let harness: AdbHarness;
let fake: AnthropicFake;
let policy: FakePolicy = () => finish(true, 'nothing to do');
let app: TestApp;

beforeAll(async () => {
  harness = await startAdbHarness();
  fake = await startAnthropicFake({ policy: (turn) => policy(turn) });
  app = await startTestApp({ env: isolatedEnv(harness.env) });
  await app.call('settings.update', { patch: { aiPlanner: { enabled: true, provider: 'anthropic', transport: 'direct', model: 'claude-test' }, anthropic: { baseURL: fake.url } } });
  await app.call('settings.setSecret', { name: 'ANTHROPIC_API_KEY', value: 'test-anthropic-key' });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
  await harness?.stop();
  if (app) await removeHome(app.home);
});

describe('tasks.replay', { timeout: 120_000 }, () => {
  it('Scenario: Run again without the model from the app replays a finished task', async () => {
    await harness.reset({ settings: { bluetooth: false } });
    policy = stepsPolicy(SUITE_SCRIPTS['settings-bluetooth-on']!());
    const first = await app.call('tasks.run', { serial: harness.serial, goal: 'Turn on Bluetooth.' });
    expect((await app.waitForTaskEvent(first.id, 'task.finished', 60_000)).status).toBe('completed');
    expect((await harness.state()).settings.bluetooth).toBe(true);

    await harness.reset({ settings: { bluetooth: false } });
    const calls = fake.requests.length;
    const replayed = await app.call('tasks.replay', { taskId: first.id, serial: harness.serial });
    expect(replayed.goal).toBe('Turn on Bluetooth.');
    expect(replayed.planner.kind).toBe('replay');
    expect((await app.waitForTaskEvent(replayed.id, 'task.finished', 60_000)).status).toBe('completed');
    expect(fake.requests.length).toBe(calls);
    expect((await harness.state()).settings.bluetooth).toBe(true);
    const record = await app.call('history.get', { id: replayed.id });
    expect(record.steps.flatMap((step) => (step.planned && step.outcome ? [step.planned.source] : []))).toEqual(['replayed', 'replayed', 'replayed']);
  });

  it('refuses bad input and a task it cannot replay, in plain words', async () => {
    expect((await app.fail('tasks.replay', { taskId: '', serial: harness.serial })).code).toBe('invalid_input');
    expect((await app.fail('tasks.replay', { taskId: 'x', serial: harness.serial, extra: 1 })).code).toBe('invalid_input');
    expect((await app.fail('tasks.replay', { taskId: 'no-such-task', serial: harness.serial })).message).toBe('ReplayRefused: there is no task no-such-task in history');
  });
});
