// `amc run --all` and `amc run --group NAME` as a person runs them: three demo phones on one real adb server, the AI
// planner talking to a scripted model through the real Anthropic SDK. What each phone shows afterwards (GET /state)
// proves how its task ended.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callControlApi, startVirtualDevice, type PhoneState, type VirtualDevice } from '@amc/demo-phone';
import { createTaskStore } from '../../src/core/storage/task-store';
import { LaunchRowSchema } from '../../src/shared/launch';
import { startAnthropicFake, type AnthropicFake, wifiOnModel, slowedModel } from '../fakes/index';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { anthropicDirectEnv, runAmc, startAmc } from '../support/cli';

const GOAL = 'Turn on Wi-Fi';

let replyDelayMs = 0;

let harness: AdbHarness;
let extras: VirtualDevice[] = [];
let fake: AnthropicFake;
let home: string;

const serials = () => [harness.serial, ...extras.map((device) => device.adbAddress)];
const stateOf = (serial: string): Promise<PhoneState> => {
  const extra = extras.find((device) => device.adbAddress === serial);
  return extra ? callControlApi(extra.controlUrl, 'GET /state') : harness.state();
};
/** The group "pair" is the first two phones; "ghost" names one phone and one no adb server knows. */
const env = () =>
  anthropicDirectEnv(harness, home, fake.url, { AMC_DEVICE_GROUPS: `pair: ${serials()[0]} ${serials()[1]}; ghost: ${serials()[0]} 127.0.0.1:1` });

beforeAll(async () => {
  harness = await startAdbHarness();
  extras = [await startVirtualDevice({ port: 0, controlPort: 0 }), await startVirtualDevice({ port: 0, controlPort: 0 })];
  for (const extra of extras) await harness.adb(['connect', extra.adbAddress]);
  fake = await startAnthropicFake({ policy: slowedModel(wifiOnModel, () => replyDelayMs) });
  home = await mkdtemp(path.join(os.tmpdir(), 'amc-launch-home-'));
}, 60_000);

afterAll(async () => {
  await fake?.close();
  for (const extra of extras) await extra.close().catch(() => undefined);
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

beforeEach(async () => {
  replyDelayMs = 0;
  await harness.reset({ settings: { wifi: false } });
  for (const extra of extras) await callControlApi(extra.controlUrl, 'POST /reset', { settings: { wifi: false } }).catch(() => undefined);
});

const resultsOf = (stdout: string) => {
  const last = JSON.parse(stdout.trim().split('\n').at(-1)!) as { type: string; launchId: string; results: unknown[] };
  expect(last.type).toBe('launch.finished');
  return { launchId: last.launchId, rows: last.results.map((row) => LaunchRowSchema.parse(row)) };
};

describe('amc run on several phones', { timeout: 120_000 }, () => {
  it('Scenario: A goal launched on every phone ends on each, each with its own task', async () => {
    const run = await runAmc(['run', '--all', '--goal', GOAL, '--json'], { env: env(), timeoutMs: 90_000 });
    expect(run.stderr).toBe('');
    expect(run.code, run.stdout).toBe(0);
    const { launchId, rows } = resultsOf(run.stdout);
    expect(rows.map((row) => row.serial).sort()).toEqual(serials().sort());
    for (const row of rows) {
      expect(row).toMatchObject({ outcome: 'done', reason: 'Wi-Fi is on' });
      expect(row.steps).toBeGreaterThanOrEqual(3);
      expect(row.tokens).toBeGreaterThan(0);
      expect((await stateOf(row.serial)).settings.wifi).toBe(true);
    }
    expect(new Set(rows.map((row) => row.taskId)).size).toBe(3);
    // History keeps three tasks, one per phone, grouped by the launch.
    const saved = (await createTaskStore(home).list()).tasks.filter((task) => task.launchId === launchId);
    expect(saved.map((task) => task.serial).sort()).toEqual(serials().sort());
    expect(saved.every((task) => task.status === 'completed')).toBe(true);
  });

  it('Scenario: A goal launched on a device group runs on the group only, with a results table', async () => {
    const run = await runAmc(['run', '--group', 'pair', '--goal', GOAL], { env: env(), timeoutMs: 90_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const [first, second] = serials();
    expect(run.stdout).toMatch(/^Phone +Outcome +Steps +Tokens +Cost +Time$/m);
    for (const serial of [first!, second!]) {
      expect(run.stdout).toMatch(new RegExp(`^${serial.replace(/\./g, '\\.')} +done +\\d+ +[\\d,]+ +\\S+ +[\\d.]+ (ms|s)$`, 'm'));
      expect((await stateOf(serial)).settings.wifi).toBe(true);
    }
    // Each phone's turns are told with its name.
    expect(run.stdout).toMatch(new RegExp(`^${first!.replace(/\./g, '\\.')}: \\[1\\] `, 'm'));
    expect((await stateOf(serials()[2]!)).settings.wifi).toBe(false);
    expect(run.stdout).not.toContain(serials()[2]!);
  });

  it('Scenario: A group phone that is not connected fails alone, in plain words', async () => {
    const run = await runAmc(['run', '--group', 'ghost', '--goal', GOAL, '--json'], { env: env(), timeoutMs: 90_000 });
    expect(run.code).toBe(1);
    const { rows } = resultsOf(run.stdout);
    expect(rows.find((row) => row.serial === serials()[0])).toMatchObject({ outcome: 'done' });
    expect(rows.find((row) => row.serial === '127.0.0.1:1')).toMatchObject({ outcome: 'failed', taskId: null, reason: '127.0.0.1:1 is not connected (see amc devices)' });
    expect((await stateOf(serials()[0]!)).settings.wifi).toBe(true);
  });

  it('Scenario: An unknown device group is refused before anything runs', async () => {
    const run = await runAmc(['run', '--group', 'nobody', '--goal', GOAL], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/there is no device group named "nobody"; the groups are pair, ghost/);
    const both = await runAmc(['run', '--all', '-s', serials()[0]!, '--goal', GOAL], { env: env() });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/name the phones with one of -s SERIAL, --all or --group NAME/);
    for (const serial of serials()) expect((await stateOf(serial)).settings.wifi).toBe(false);
  });

  it('Scenario: A phone that vanishes mid-launch fails only its own task', async () => {
    replyDelayMs = 600;
    const asked = fake.requests.length;
    const run = startAmc(['run', '--all', '--goal', GOAL, '--json'], /"type":"launch\.finished"/, { env: env() });
    // Every phone has asked the model for its first step: the tasks are under way; then the third phone goes away.
    await expect.poll(() => fake.requests.length - asked, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    const gone = extras[1]!;
    await gone.close();
    const { child, output } = await run;
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
    expect(child.exitCode).toBe(1);
    const { rows } = resultsOf(output().split('\n').filter((line) => line.startsWith('{')).join('\n'));
    const vanished = rows.find((row) => row.serial === gone.adbAddress)!;
    expect(vanished.outcome).toBe('failed');
    expect(vanished.reason).toBe(`${gone.adbAddress} is offline: it is not answering adb right now.`);
    for (const row of rows.filter((row) => row.serial !== gone.adbAddress)) {
      expect(row.outcome).toBe('done');
      expect((await stateOf(row.serial)).settings.wifi).toBe(true);
    }
  });
});
