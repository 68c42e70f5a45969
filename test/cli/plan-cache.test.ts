// The plan cache as a person meets it, through the real CLI (child processes), the demo phone over the real adb server
// and a scripted model behind the real Anthropic SDK: what teaches it, what its key keeps, and `amc cache` listing and
// forgetting. Every outcome is judged from the phone's own state (GET /state) and the model calls made.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TaskEventOf } from '../../src/shared/task';
import { PHONE_TASKS } from '../../src/eval/tasks/index';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { anthropicDirectEnv, jsonEvents, runAmc } from '../support/cli';
import { finish, startAnthropicFake, type AnthropicFake, type FakePolicy } from '../fakes/index';
import { stepsPolicy, SUITE_SCRIPTS } from '../fakes/suite-agent';

let harness: AdbHarness;
let fake: AnthropicFake;
let home: string;
let policy: FakePolicy = () => finish(true, 'idle');

beforeAll(async () => {
  harness = await startAdbHarness();
  fake = await startAnthropicFake({ policy: (turn) => policy(turn) });
}, 60_000);

beforeEach(async () => {
  // Each case starts with its own data folder: an empty history and cache.
  if (home) await rm(home, { recursive: true, force: true });
  home = await mkdtemp(path.join(tmpdir(), 'amc-plan-cache-'));
});

afterAll(async () => {
  await fake?.close();
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

const env = () => ({ ...anthropicDirectEnv(harness, home, fake.url), AI_PLANNER_REUSE_RUNS: 'true' });
const suiteTask = (id: string) => PHONE_TASKS.find((task) => task.id === id)!;
const sources = (stdout: string) =>
  jsonEvents(stdout)
    .filter((event): event is TaskEventOf<'step.planned'> => event.type === 'step.planned' && event.tool !== 'finish_task')
    .map((step) => step.source);

/** `amc run GOAL` with the scripted model of suite task `script`, on a phone reset to that task's seed; its model calls. */
async function run(goal: string, script: string) {
  await harness.reset(suiteTask(script).seed);
  policy = stepsPolicy(SUITE_SCRIPTS[script]!());
  const calls = fake.requests.length;
  const result = await runAmc(['run', '-s', harness.serial, '--goal', goal, '--json', '--yes'], { env: env() });
  expect(result.code, result.stderr).toBe(0);
  return { ...result, modelCalls: fake.requests.length - calls, taskId: jsonEvents(result.stdout).find((event) => event.type === 'task.started')!.taskId };
}

describe('what teaches the plan cache', { timeout: 120_000 }, () => {
  it('Scenario: A flow whose goal claims Bluetooth but turns Airplane mode on teaches the cache nothing', async () => {
    const file = path.join(home, 'lying.yaml');
    await writeFile(file, 'goal: Turn on Bluetooth\nsteps:\n  - launch_app: Settings\n  - tap: {text: Network & internet}\n  - tap: {text: Airplane mode}\n');
    await harness.reset(suiteTask('settings-bluetooth-on').seed);
    const flowRun = await runAmc(['flow', 'run', file, '-s', harness.serial, '--yes'], { env: env() });
    expect(flowRun.code, flowRun.stdout + flowRun.stderr).toBe(0);
    expect((await harness.state()).settings.airplaneMode).toBe(true);
    expect((await runAmc(['cache'], { env: env() })).stdout.trim()).toMatch(/^No runs are reused yet/);

    // The AI task of that goal is the model's from its first step: Bluetooth on, Airplane mode untouched.
    const later = await run('Turn on Bluetooth', 'settings-bluetooth-on');
    expect(later.modelCalls).toBeGreaterThanOrEqual(4);
    expect(sources(later.stdout).every((source) => source === 'model')).toBe(true);
    const state = await harness.state();
    expect(state.settings).toMatchObject({ bluetooth: true, airplaneMode: false });
  });

  it("Scenario: A replay and a run that followed the cache teach it nothing; the model's run stays the one followed", async () => {
    const first = await run('Switch the phone to the dark theme.', 'settings-dark-theme-on');
    const again = await run('Switch the phone to the dark theme.', 'settings-dark-theme-on');
    expect(again.modelCalls).toBe(0);
    await harness.reset(suiteTask('settings-dark-theme-on').seed);
    const replayed = await runAmc(['replay', first.taskId, '-s', harness.serial, '--yes'], { env: env() });
    expect(replayed.code, replayed.stderr).toBe(0);
    const listed = await runAmc(['cache', '--json'], { env: env() });
    expect(JSON.parse(listed.stdout)).toEqual([{ goal: 'Switch the phone to the dark theme.', taskId: first.taskId, app: 'com.android.launcher3', learnedAt: expect.any(Number) }]);
  });
});

describe('the key and amc cache', { timeout: 120_000 }, () => {
  it("Scenario: The cache keys on the goal's exact words, keeping case that carries data", async () => {
    await run('Switch the phone to the dark theme.', 'settings-dark-theme-on');
    // Spacing, closing punctuation and a sentence's capital carry nothing: the earlier run is followed, no model call.
    const same = await run(' switch the phone to the  dark theme', 'settings-dark-theme-on');
    expect(same.modelCalls).toBe(0);
    expect(sources(same.stdout)).toEqual(['cache', 'cache', 'cache']);
    // Capitals inside the goal are its words: "DARK" is another goal, planned by the model.
    const other = await run('Switch the phone to the DARK theme', 'settings-dark-theme-on');
    expect(other.modelCalls).toBeGreaterThanOrEqual(4);
    expect(sources(other.stdout).every((source) => source === 'model')).toBe(true);
  });

  it('Scenario: amc cache lists the reused runs and forgets one', async () => {
    const first = await run('Switch the phone to the dark theme.', 'settings-dark-theme-on');
    const listed = await runAmc(['cache'], { env: env() });
    expect(listed.stdout.trim()).toBe(`${first.taskId}  com.android.launcher3  Switch the phone to the dark theme.`);

    const unknown = await runAmc(['cache', 'forget', 'Turn on Bluetooth'], { env: env() });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('amc cache: no reused run has the goal or task id "Turn on Bluetooth" (see amc cache list)');
    const forgot = await runAmc(['cache', 'forget', 'switch the phone to the dark theme'], { env: env() });
    expect(forgot.code).toBe(0);
    expect(forgot.stdout.trim()).toBe(`Forgot "Switch the phone to the dark theme." (task ${first.taskId}): its next run is planned by the model.`);
    expect((await runAmc(['cache'], { env: env() })).stdout.trim()).toMatch(/^No runs are reused yet/);

    const next = await run('Switch the phone to the dark theme.', 'settings-dark-theme-on');
    expect(next.modelCalls).toBeGreaterThanOrEqual(4);
    expect((await harness.state()).settings.darkTheme).toBe(true);
    const chinese = await runAmc(['cache'], { env: { ...env(), AMC_LANGUAGE: 'zh-CN' } });
    expect(chinese.stdout.trim()).toBe(`${next.taskId}  com.android.launcher3  “Switch the phone to the dark theme.”`);
    expect((await runAmc(['cache', 'forget'], { env: { ...env(), AMC_LANGUAGE: 'zh-CN' } })).stderr).toContain('写出一个要忘掉的目标或任务 ID');
  });
});
