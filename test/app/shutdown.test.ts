// Closing the app (window closed, SIGTERM to the web host) under a running task: the task ends as interrupted
// by the app, not as a person's stop, and leaves no lock behind.
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locksFolder } from '../../src/core/storage/device-lock';
import { createTaskStore } from '../../src/core/storage/task-store';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { finish, startAnthropicFake, type AnthropicFake } from '../fakes/index';
import { isolatedEnv, removeHome, startTestApp, until, type TestApp } from './app-fixture';

let harness: AdbHarness;
let fake: AnthropicFake;
let app: TestApp;

beforeAll(async () => {
  harness = await startAdbHarness();
  // The model never answers on its own: the task is mid-turn when the app closes.
  fake = await startAnthropicFake({ policy: () => ({ kind: 'delay', ms: 120_000, then: finish(true, 'too late') }) });
  app = await startTestApp({ env: isolatedEnv(harness.env) });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
  await harness?.stop();
  if (app) await removeHome(app.home);
});

describe('app shutdown', () => {
  it('Scenario: Closing the app mid-task records interrupted: the app was closed', async () => {
    await app.call('settings.update', {
      patch: { aiPlanner: { enabled: true, provider: 'anthropic', transport: 'direct', model: 'claude-test', timeoutSeconds: 600 }, anthropic: { baseURL: fake.url } },
    });
    await app.call('settings.setSecret', { name: 'ANTHROPIC_API_KEY', value: 'test-anthropic-key' });
    const started = await app.call('tasks.run', { serial: harness.serial, goal: 'Open the Settings app' });
    await until(() => fake.requests.length > 0, 20_000, 'the first model call');
    expect((await readdir(locksFolder(app.home))).length).toBe(1);

    await app.close();

    const record = await createTaskStore(app.home).get(started.id);
    expect(record).toMatchObject({ status: 'cancelled', failureReason: 'interrupted: the app was closed' });
    expect(await readdir(locksFolder(app.home))).toEqual([]);
  });
});
