// End to end: TaskRunner + AI planner + the real SDKs (against the loopback provider fakes) + the real adb
// server, adbkit, Observer and Executor against the virtual device.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings, mergeSettings, SettingsSchema, type SettingsPatch } from '../../../src/shared/settings';
import { AdbClient } from '../../../src/core/device/adb-client';
import { wordSaid } from '../../../src/shared/said';
import { wordsFor } from '../../../src/shared/i18n/translate';
import { Observer } from '../../../src/core/perception/observer';
import { Executor } from '../../../src/core/tools/executor';
import { TaskRunner } from '../../../src/core/runtime/task-runner';
import { presetSupervisor } from '../../../src/core/runtime/supervisor';
import { buildPlanner } from '../../../src/core/runtime/build-planner';
import type { RuntimeConfig } from '../../../src/core/runtime/config';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';
import {
  FAKE_ANTHROPIC_KEY,
  finish,
  startProviderFake,
  type FakePolicy,
  type FakeProvider,
  type FakeReply,
  type ProviderFake,
} from '../../fakes/index';
import { SUITE_SCRIPTS, launch, stepsPolicy } from '../../fakes/suite-agent';
import { judgeRecord, PHONE_TASKS, taskById, type PhoneTask } from '../../../src/eval/tasks/index';
import type { PhoneStateView } from '@amc/demo-phone';

let harness: AdbHarness;
let adb: AdbClient;
const fakes = new Map<FakeProvider, ProviderFake>();
let policy: FakePolicy = () => finish(true, 'idle');

beforeAll(async () => {
  harness = await startAdbHarness();
  adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
  for (const provider of ['anthropic', 'openai'] as const) fakes.set(provider, await startProviderFake(provider, (turn) => policy(turn)));
}, 60_000);

afterAll(async () => {
  await Promise.all([...fakes.values()].map((fake) => fake.close()));
  await harness?.stop();
});

beforeEach(async () => {
  await harness.control('/reset', { body: {} });
});

function configFor(provider: FakeProvider, aiPlanner: SettingsPatch['aiPlanner'] = {}, apiKey?: string): RuntimeConfig {
  const fake = fakes.get(provider)!;
  const secret = provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
  return {
    settings: SettingsSchema.parse(mergeSettings(defaultSettings(), { aiPlanner: { enabled: true, provider, transport: 'direct', ...aiPlanner }, [provider]: { baseURL: fake.baseURL } })),
    secrets: { [secret]: apiKey ?? fake.apiKey },
    envOverrides: [],
  };
}

function runnerFor(config: () => RuntimeConfig, screenshot = true): TaskRunner {
  return new TaskRunner({
    observer: new Observer(adb, { screenshot: screenshot ? { longEdge: 1456 } : false }),
    executor: new Executor(adb),
    plannerSource: async () => buildPlanner(config()),
    // The suite's goals ask for their sends and deletes: yes to those, as `amc run --yes` says.
    supervisor: presetSupervisor({ allowActions: true }),
  });
}

const state = (): Promise<PhoneStateView> => harness.state();

/** Puts the phone in the task's starting state: seed, then any fault (e.g. a pop-up in the way). */
async function prepare(task: PhoneTask): Promise<void> {
  await harness.control('/reset', { body: task.seed ?? {} });
  for (const fault of task.faults ?? []) await harness.control('/faults', { body: fault });
}

/** Opening Notes: the small task the failure cases retry after a failure. */
const openNotes = () => stepsPolicy([launch('Notes')]);

const SUITE_SCENARIO = {
  anthropic: 'Scenario: Task-suite tasks complete through Anthropic direct',
  openai: 'Scenario: Task-suite tasks complete through OpenAI direct',
} as const;

describe.each(['anthropic', 'openai'] as const)('on the virtual device over %s direct', (provider) => {
  it(SUITE_SCENARIO[provider], async () => {
    // Scene only: a screenshot per turn would multiply this test's time by 30 on a small machine; the
    // screenshot path runs end to end in the next test.
    const runner = runnerFor(() => configFor(provider, { thinkingBudgetTokens: provider === 'anthropic' ? 1024 : null }), false);
    const verdicts: string[] = [];
    for (const task of PHONE_TASKS) {
      const script = SUITE_SCRIPTS[task.id];
      expect(script, `no script for ${task.id}`).toBeDefined();
      await prepare(task);
      policy = stepsPolicy(script!());
      const record = await runner.run({ serial: harness.serial, goal: task.goal });
      const verdict = judgeRecord(task, await state(), record);
      const expected = task.infeasible ? 'failed' : 'completed';
      if (!verdict.ok || record.status !== expected) {
        verdicts.push(`${task.id}: ${verdict.why} (${record.status}: ${record.failureReason ?? record.result}; steps: ${record.steps.map((s) => s.planned?.tool).join(', ')})`);
      }
    }
    expect(verdicts).toEqual([]);
  }, 120_000);

  it('rationale and thinking reach the task record; only the model got the screenshot', async () => {
    const task = taskById('settings-wifi-off');
    await prepare(task);
    policy = stepsPolicy(SUITE_SCRIPTS[task.id]!());
    const record = await runnerFor(() => configFor(provider)).run({ serial: harness.serial, goal: task.goal });
    expect(record.status).toBe('completed');
    const acted = record.steps.filter((s) => s.outcome);
    expect(acted.map((s) => s.planned?.tool)).toEqual(['launch_app', 'tap', 'tap']);
    expect(acted[1]!.planned?.rationale).toBe('Tapping {"text":"Network & internet"}.');
    expect(record.steps[0]!.screenshot?.width).toBeGreaterThan(0);
    expect(JSON.stringify(record)).not.toMatch(/"data":"|base64/);
    expect(JSON.stringify(fakes.get(provider)!.bodies().at(-1))).toMatch(provider === 'anthropic' ? /"type":"image"/ : /"type":"image_url"/);
  });

  it("Scenario: Infeasible goals fail with the model's reason", async () => {
    policy = () => finish(false, 'There is no Calculator app on this phone');
    const record = await runnerFor(() => configFor(provider)).run({ serial: harness.serial, goal: 'Compute 2+2 in the Calculator app' });
    expect(record.status).toBe('failed');
    expect(record.failureReason).toBe('There is no Calculator app on this phone');
  });

  const failures: Array<{ name: string; reply: FakeReply; reason: RegExp; code: string; chinese: string; apiKey?: string; timeoutSeconds?: number; thinking?: boolean }> = [
    { name: '401', reply: finish(true, 'unused'), apiKey: 'sk-wrong', reason: /rejected the API key \(HTTP 401\)/, code: 'provider.auth', chinese: '模型服务商拒绝了密钥：' },
    { name: '429', reply: { kind: 'http-error', status: 429, retryAfterSeconds: 20 }, reason: /rate limited .*retry after 20 s/, code: 'provider.rateLimited', chinese: '模型服务商正在限流：' },
    { name: '500', reply: { kind: 'http-error', status: 500 }, reason: /server error \(HTTP 500\)/, code: 'provider.serverError', chinese: '模型服务商出现服务器错误：' },
    { name: 'timeout', reply: { kind: 'hang' }, timeoutSeconds: 1, reason: /did not answer within 1 s \(timeout\)/, code: 'provider.timeout', chinese: '模型没有及时回答：' },
    { name: 'malformed arguments', reply: { kind: 'raw-arguments', tool: 'tap', raw: '{"element_id": ' }, reason: provider === 'openai' ? /malformed arguments for "tap"/ : /arguments of "tap" are not a JSON object/, code: 'provider.unusableReply', chinese: '模型的回答无法使用：' },
    { name: 'unknown tool', reply: { kind: 'call', tool: 'format_phone', args: {} }, reason: /unknown tool "format_phone"/, code: 'provider.unusableReply', chinese: '模型的回答无法使用：' },
    { name: 'two tool calls', reply: { kind: 'calls', calls: [{ tool: 'tap', args: { element_id: 'e1' } }, { tool: 'tap', args: { element_id: 'e2' } }] }, reason: /called 2 tools in one turn/, code: 'provider.unusableReply', chinese: '模型的回答无法使用：' },
    // With thinking on, Anthropic's follow-up cannot force the call, so a model that keeps talking fails.
    { name: 'no tool call', reply: { kind: 'text', text: 'I would rather chat.' }, thinking: true, reason: /model answered without calling a tool/, code: 'provider.unusableReply', chinese: '模型的回答无法使用：' },
  ];

  it.each(failures)('Scenario: Provider failures end the task failed and leave the runner ready ($name)', async (failure) => {
    let apiKey = failure.apiKey;
    const runner = runnerFor(() =>
      configFor(provider, { timeoutSeconds: failure.timeoutSeconds ?? 30, thinkingBudgetTokens: failure.thinking && provider === 'anthropic' ? 1024 : null }, apiKey),
    );
    policy = () => failure.reply;
    const failed = await runner.run({ serial: harness.serial, goal: 'Open the Notes app' });
    expect(failed.status).toBe('failed');
    expect(failed.failureReason).toMatch(/^ToolCallUnavailable: /);
    expect(failed.failureReason).toMatch(failure.reason);
    expect(failed.failureReason).not.toContain(FAKE_ANTHROPIC_KEY);
    // A Chinese window leads with its own words, then gives the provider's (English) words as they were.
    expect(failed.failureSaid?.code).toBe(failure.code);
    const chinese = wordSaid(failed.failureReason!, failed.failureSaid, wordsFor('zh-CN'));
    expect(chinese.startsWith(failure.chinese)).toBe(true);
    expect(chinese).toMatch(failure.reason);
    // Ready for the next task on the same device.
    apiKey = undefined;
    policy = openNotes();
    const next = await runner.run({ serial: harness.serial, goal: 'Open the Notes app' });
    expect(next.status).toBe('completed');
  });

  it('Scenario: Stop mid-call ends the task cancelled', async () => {
    const fake = fakes.get(provider)!;
    policy = () => ({ kind: 'hang' });
    const runner = runnerFor(() => configFor(provider));
    const before = fake.requests.length;
    const abandonedBefore = fake.abandoned();
    const handle = await runner.start({ serial: harness.serial, goal: 'Open the Notes app' });
    // Observing (with a screenshot) comes first; on a loaded machine that alone can take seconds.
    await expect.poll(() => fake.requests.length, { timeout: 15_000 }).toBe(before + 1);
    handle.stop();
    const record = await handle.done;
    expect(record.status).toBe('cancelled');
    await expect.poll(() => fake.abandoned()).toBe(abandonedBefore + 1);
    expect(runner.activeTasks()).toEqual([]);
  });
});

describe('a phone that goes away', () => {
  it('Scenario: A phone that vanishes mid-task ends it failed', async () => {
    const fake = fakes.get('anthropic')!;
    const before = fake.requests.length;
    // The model's first turn: the phone is unplugged while it "thinks", then it asks for an action.
    policy = async () => {
      await harness.adb(['disconnect', harness.serial]);
      return { kind: 'call', tool: 'press_key', args: { key: 'home' }, text: 'Going home.' };
    };
    try {
      const record = await runnerFor(() => configFor('anthropic'), false).run({ serial: harness.serial, goal: 'Open the Notes app' });
      expect(record.status).toBe('failed');
      expect(record.failureReason).toMatch(/^AdbError: No device "127\.0\.0\.1:\d+" is connected/);
      // A window in Chinese words it in Chinese.
      expect(record.failureSaid?.code).toBe('adb.notConnected');
      expect(wordSaid(record.failureReason!, record.failureSaid, wordsFor('zh-CN'))).toMatch(/ 上的 adb 服务器没有连接设备“127\.0\.0\.1:\d+”。/);
      // The next observation ended the task: the model was not asked to plan blind.
      expect(fake.requests.length).toBe(before + 1);
    } finally {
      await harness.connect();
    }
  });
});
