// One agent per phone across processes: the app (through its router) and `amc run` (a real child process)
// share the data folder's per-phone lock, on the real adb server with the virtual device.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockFileName, locksFolder } from '../../src/core/storage/device-lock';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { interrupt, runAmc, startAmc } from '../support/cli';
import { FAKE_ANTHROPIC_KEY, finish, startAnthropicFake, type AnthropicFake, type FakePolicy } from '../fakes/index';
import { isolatedEnv, removeHome, startTestApp, type TestApp } from './app-fixture';

let harness: AdbHarness;
let fake: AnthropicFake;
let policy: FakePolicy = () => finish(true, 'nothing to do');
let app: TestApp;

beforeAll(async () => {
  harness = await startAdbHarness();
  fake = await startAnthropicFake({ policy: (turn) => policy(turn) });
  app = await startTestApp({ env: isolatedEnv(harness.env) });
  await app.call('settings.update', {
    patch: { aiPlanner: { enabled: true, provider: 'anthropic', transport: 'direct', model: 'claude-test' }, anthropic: { baseURL: fake.url } },
  });
  await app.call('settings.setSecret', { name: 'ANTHROPIC_API_KEY', value: FAKE_ANTHROPIC_KEY });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
  await harness?.stop();
  if (app) await removeHome(app.home);
});

/** `amc run` in the same data folder and on the same adb server as the app. */
function cliEnv(): NodeJS.ProcessEnv {
  return {
    AMC_HOME: app.home,
    HOME: harness.env.HOME,
    ANDROID_ADB_SERVER_PORT: String(harness.adbPort),
    AI_PLANNER_TRANSPORT: 'direct',
    AI_PLANNER_PROVIDER: 'anthropic',
    ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: fake.url,
  };
}

describe('one agent per phone across processes', () => {
  it('Scenario: A phone driven by another process is refused: amc run while the app drives it', async () => {
    policy = () => ({ kind: 'hang' });
    const started = await app.call('tasks.run', { serial: harness.serial, goal: 'Keep the phone busy' });
    await app.waitForTaskEvent(started.id, 'step.observed');

    const refused = await runAmc(['run', '-s', harness.serial, '--goal', 'Open Notes', '--planner', 'stub'], { env: cliEnv() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(`^amc run: Phone ${harness.serial.replace(/\./g, '\\.')} is being driven by another task \\(goal "Keep the phone busy", started \\d\\d:\\d\\d, process ${process.pid}\\)\\. Stop that task first\\.`),
    );
    expect(refused.stdout).not.toContain('describe_screen');

    await app.call('tasks.stop', { taskId: started.id });
    expect((await app.waitForTaskEvent(started.id, 'task.finished')).status).toBe('cancelled');
    // Free again once that task ended.
    const after = await runAmc(['run', '-s', harness.serial, '--goal', 'Look at the screen', '--planner', 'stub'], { env: cliEnv() });
    expect(after.stderr).toBe('');
    expect(after.code).toBe(3); // it ran: the built-in planner looked at the screen
    expect(after.stdout).toContain('[1] describe_screen {}');
  });

  it('Scenario: A phone driven by another process is refused: the app while amc run drives it', async () => {
    policy = () => ({ kind: 'hang' });
    const before = fake.requests.length;
    const { child } = await startAmc(['run', '-s', harness.serial, '--goal', 'Wait for the model'], /Goal: /, { env: { ...cliEnv(), AI_PLANNER_ENABLED: 'true' } });
    await expect.poll(() => fake.requests.length, { timeout: 20_000 }).toBe(before + 1);

    const refused = await app.fail('tasks.run', { serial: harness.serial, goal: 'Open Settings' });
    expect(refused.message).toContain(`is being driven by another task (goal "Wait for the model"`);
    expect(refused.message).toContain(`process ${child.pid}). Stop that task first.`);

    expect(await interrupt(child)).toBe(130);
    policy = () => finish(true, 'done');
    const started = await app.call('tasks.run', { serial: harness.serial, goal: 'Open Settings' });
    expect((await app.waitForTaskEvent(started.id, 'task.finished')).status).toBe('completed');
  });

  it('Scenario: A phone left locked by a crashed process is taken over', async () => {
    policy = () => ({ kind: 'hang' });
    const before = fake.requests.length;
    const { child } = await startAmc(['run', '-s', harness.serial, '--goal', 'About to crash'], /Goal: /, { env: { ...cliEnv(), AI_PLANNER_ENABLED: 'true' } });
    await expect.poll(() => fake.requests.length, { timeout: 20_000 }).toBe(before + 1);
    // SIGKILL: no cleanup runs, the lock file stays behind with a dead pid.
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGKILL');
    });
    expect(JSON.parse(await readFile(path.join(locksFolder(app.home), lockFileName(harness.serial)), 'utf8'))).toMatchObject({ pid: child.pid, goal: 'About to crash' });

    policy = () => finish(true, 'done');
    const started = await app.call('tasks.run', { serial: harness.serial, goal: 'After the crash' });
    expect((await app.waitForTaskEvent(started.id, 'task.finished')).status).toBe('completed');
  });
});
