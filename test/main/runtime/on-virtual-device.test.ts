// End to end: TaskRunner + AI planner + the real SDKs (against the loopback provider fakes) + the real adb
// server, adbkit, Observer and Executor against the virtual device.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings, mergeSettings, SettingsSchema, type SettingsPatch } from '../../../src/shared/settings';
import type { Scene } from '../../../src/shared/scene';
import { AdbClient } from '../../../src/main/device/adb-client';
import { Observer } from '../../../src/main/perception/observer';
import { Executor } from '../../../src/main/tools/executor';
import { TaskRunner } from '../../../src/main/runtime/task-runner';
import { buildPlanner } from '../../../src/main/runtime/build-planner';
import type { RuntimeConfig } from '../../../src/main/runtime/config';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';
import {
  FAKE_ANTHROPIC_KEY,
  finish,
  findElement,
  startProviderFake,
  type FakePolicy,
  type FakeProvider,
  type FakeReply,
  type FakeTurn,
  type ProviderFake,
} from '../../fakes/index';

interface PhoneState {
  foreground: string;
  settings: { wifi: boolean; bluetooth: boolean; darkTheme: boolean };
  notes: Array<{ title: string; body: string }>;
}

/** A model that walks the phone's UI by label: tap the first label of `path` not yet passed, then finish. */
function walkPolicy(path: string[], done: (scene: Scene | null) => string | null): FakePolicy {
  return (turn: FakeTurn): FakeReply => {
    const answer = done(turn.scene);
    if (answer) return finish(true, answer, 'The goal is reached on this screen.');
    // The deepest label on screen is where we are; tap the next one after it (or the first one).
    for (let i = path.length - 1; i >= 0; i -= 1) {
      const element = findElement(turn.scene, path[i]!);
      if (element) return { kind: 'call', tool: 'tap', args: { element_id: element.id }, text: `${path[i]} is on screen; tapping it.`, thinking: `Path step ${i + 1} of ${path.length}.` };
    }
    return { kind: 'call', tool: 'press_key', args: { key: 'home' }, text: 'Nothing I know is on screen; going home.' };
  };
}

interface SuiteTask {
  goal: string;
  policy: () => FakePolicy;
  check: (state: PhoneState, result: string | null) => void;
}

const suite: SuiteTask[] = [
  {
    goal: 'Turn off Wi-Fi',
    policy: () => walkPolicy(['Settings', 'Network & internet', 'Wi-Fi'], (scene) => (findElement(scene, 'Wi-Fi')?.checked === false ? 'Wi-Fi is off' : null)),
    check: (state) => expect(state.settings.wifi).toBe(false),
  },
  {
    goal: 'Turn on Bluetooth',
    policy: () =>
      walkPolicy(['Settings', 'Connected devices', 'Bluetooth'], (scene) =>
        scene?.screen.package === 'com.android.settings' && findElement(scene, 'Bluetooth')?.checked === true ? 'Bluetooth is on' : null,
      ),
    check: (state) => expect(state.settings.bluetooth).toBe(true),
  },
  {
    goal: 'Open the Notes app',
    policy: () => walkPolicy(['Notes'], (scene) => (scene?.screen.package.includes('notes') ? 'Notes is open' : null)),
    check: (state, result) => {
      expect(state.foreground).toMatch(/notes/);
      expect(result).toBe('Notes is open');
    },
  },
];

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

function runnerFor(config: () => RuntimeConfig): TaskRunner {
  return new TaskRunner({
    observer: new Observer(adb, { screenshot: { longEdge: 1456 } }),
    executor: new Executor(adb),
    plannerSource: async () => buildPlanner(config()),
  });
}

const state = async () => (await harness.control<PhoneState>('/state')).body;

const SUITE_SCENARIO = {
  anthropic: 'Scenario: Task-suite tasks complete through Anthropic direct',
  openai: 'Scenario: Task-suite tasks complete through OpenAI direct',
} as const;

describe.each(['anthropic', 'openai'] as const)('on the virtual device over %s direct', (provider) => {
  it(SUITE_SCENARIO[provider], async () => {
    const runner = runnerFor(() => configFor(provider, { thinkingBudgetTokens: provider === 'anthropic' ? 1024 : null }));
    for (const task of suite) {
      await harness.control('/reset', { body: {} });
      policy = task.policy();
      const record = await runner.run({ serial: harness.serial, goal: task.goal });
      expect(record.status, `${task.goal}: ${record.failureReason}`).toBe('completed');
      task.check(await state(), record.result);
      // Rationale and thinking reach the record; the screenshot went to the model (only).
      const acted = record.steps.find((s) => s.outcome);
      expect(acted?.planned?.rationale).toMatch(/tapping it/);
      if (provider === 'anthropic') expect(acted?.planned?.thinking).toMatch(/Path step/);
      expect(record.steps[0]!.screenshot?.width).toBeGreaterThan(0);
    }
    const bodies = JSON.stringify(fakes.get(provider)!.bodies().at(-1));
    expect(bodies).toMatch(provider === 'anthropic' ? /"type":"image"/ : /"type":"image_url"/);
  });

  it("Scenario: Infeasible goals fail with the model's reason", async () => {
    policy = () => finish(false, 'There is no Calculator app on this phone');
    const record = await runnerFor(() => configFor(provider)).run({ serial: harness.serial, goal: 'Compute 2+2 in the Calculator app' });
    expect(record.status).toBe('failed');
    expect(record.failureReason).toBe('TaskFailedError: There is no Calculator app on this phone');
  });

  const failures: Array<{ name: string; reply: FakeReply; reason: RegExp; apiKey?: string; timeoutSeconds?: number; thinking?: boolean }> = [
    { name: '401', reply: finish(true, 'unused'), apiKey: 'sk-wrong', reason: /rejected the API key \(HTTP 401\)/ },
    { name: '429', reply: { kind: 'http-error', status: 429, retryAfterSeconds: 20 }, reason: /rate limited .*retry after 20 s/ },
    { name: '500', reply: { kind: 'http-error', status: 500 }, reason: /server error \(HTTP 500\)/ },
    { name: 'timeout', reply: { kind: 'hang' }, timeoutSeconds: 1, reason: /did not answer within 1 s \(timeout\)/ },
    { name: 'malformed arguments', reply: { kind: 'raw-arguments', tool: 'tap', raw: '{"element_id": ' }, reason: provider === 'openai' ? /malformed arguments for "tap"/ : /arguments of "tap" are not a JSON object/ },
    { name: 'unknown tool', reply: { kind: 'call', tool: 'format_phone', args: {} }, reason: /unknown tool "format_phone"/ },
    { name: 'two tool calls', reply: { kind: 'calls', calls: [{ tool: 'tap', args: { element_id: 'e1' } }, { tool: 'tap', args: { element_id: 'e2' } }] }, reason: /called 2 tools in one turn/ },
    // With thinking on, Anthropic's follow-up cannot force the call, so a model that keeps talking fails.
    { name: 'no tool call', reply: { kind: 'text', text: 'I would rather chat.' }, thinking: true, reason: /model answered without calling a tool/ },
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
    // Ready for the next task on the same device.
    apiKey = undefined;
    policy = suite[2]!.policy();
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
    await expect.poll(() => fake.requests.length).toBe(before + 1);
    handle.stop();
    const record = await handle.done;
    expect(record.status).toBe('cancelled');
    await expect.poll(() => fake.abandoned()).toBe(abandonedBefore + 1);
    expect(runner.activeTasks()).toEqual([]);
  });
});
