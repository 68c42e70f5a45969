// Runtime: the TaskRunner + AI planner + real SDK against an instant fake provider, driving the instant virtual
// device through the real adb server. With nothing slow on either side, a turn's time is the host's own
// overhead (prompt, SDK and loopback HTTP, adb round trips, Scene building, runner bookkeeping).
import { AdbClient } from '../../src/core/device/adb-client';
import { Observer } from '../../src/core/perception/observer';
import { Executor } from '../../src/core/tools/executor';
import { TaskRunner, type SupervisorPort } from '../../src/core/runtime/task-runner';
import { buildPlanner } from '../../src/core/runtime/build-planner';
import type { RuntimeConfig } from '../../src/core/runtime/config';
import { defaultSettings, mergeSettings, SettingsSchema } from '../../src/shared/settings';
import type { TaskEvent, TaskRecord } from '../../src/shared/task';
import { startAdbHarness } from '../../test/support/adb-harness';
import { startProviderFake, type FakePolicy, type ProviderFake } from '../../test/fakes/index';
import { median, percentile, type BenchCase, type BenchRow } from '../types';

const LONG_TASK_STEPS = 100;
const STOPS = 20;

function configFor(fake: ProviderFake, sendScreenshot: boolean, maxSteps: number): RuntimeConfig {
  return {
    settings: SettingsSchema.parse(
      mergeSettings(defaultSettings(), {
        aiPlanner: { enabled: true, provider: fake.provider, transport: 'direct', sendScreenshot, maxSteps },
        [fake.provider]: { baseURL: fake.baseURL },
      }),
    ),
    secrets: { [fake.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY']: fake.apiKey },
    envOverrides: [],
  };
}

/** A model that keeps acting with a realistic rationale (so the history has something to carry). */
const busyModel: FakePolicy = (turn) => ({
  kind: 'call',
  tool: 'press_key',
  args: { key: 'home' },
  text: `Turn ${turn.callIndex + 1}: the item I need is still not visible on this screen, so I go back to the home screen and look again from there.`,
});

const alwaysGoOn: SupervisorPort = { ask: async () => ({ reply: { kind: 'continue' }, by: 'preset' }) };

interface TurnTimes {
  total: number[];
  observe: number[];
  plan: number[];
  execute: number[];
}

/** Runs one long task and returns per-turn phase times (from the events) and the record. */
async function longTask(runner: TaskRunner, serial: string): Promise<{ times: TurnTimes; record: TaskRecord }> {
  const times: TurnTimes = { total: [], observe: [], plan: [], execute: [] };
  let turnStart = 0;
  const off = runner.on((event: TaskEvent) => {
    const now = performance.now();
    if (event.type === 'step.observed') {
      const observeStart = now - event.observeMs;
      if (turnStart) times.total.push(observeStart - turnStart);
      turnStart = observeStart;
      times.observe.push(event.observeMs);
    } else if (event.type === 'step.planned') times.plan.push(event.planMs);
    else if (event.type === 'step.executed') times.execute.push(event.executeMs);
  });
  try {
    const record = await runner.run({ serial, goal: 'Find the hidden setting (benchmark: never finishes)' });
    return { times, record };
  } finally {
    off();
  }
}

export default {
  name: 'runtime',
  async run(): Promise<BenchRow[]> {
    const rows: BenchRow[] = [];
    const harness = await startAdbHarness({ profile: 'instant' });
    let policy: FakePolicy = busyModel;
    const fake = await startProviderFake('anthropic', (turn) => policy(turn));
    try {
      const adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
      const executor = new Executor(adb);
      for (const sendScreenshot of [false, true]) {
        const observer = new Observer(adb, { screenshot: sendScreenshot ? { longEdge: 1456 } : false });
        // The busy model presses Home on the home screen: a loop the guard puts to the person every few turns;
        // here the person always says go on, so the task runs its 100 steps (the guard's cost stays in the turn).
        const runner = new TaskRunner({ observer, executor, plannerSource: async () => buildPlanner(configFor(fake, sendScreenshot, LONG_TASK_STEPS)), supervisor: alwaysGoOn });
        await harness.control('/reset', { body: {} });
        const firstRequest = fake.requests.length;
        const { times } = await longTask(runner, harness.serial);
        const label = sendScreenshot ? 'Scene + screenshot' : 'Scene only';
        // Whole turns, observe start to next observe start; warm-up turns skipped.
        const turns = times.total.slice(5);
        // The screenshot's capture (the in-process virtual device renders and sends ~10 MB of raw pixels) and
        // its sharp encode belong to perception; this row is the rest of the turn.
        const withoutObserve = turns.map((total, i) => total - times.observe[i + 5]!);
        rows.push(
          { case: 'runtime', metric: `host overhead per turn, median (${label})`, value: median(turns), unit: 'ms', goal: '< 25 ms' },
          { case: 'runtime', metric: `host overhead per turn, p95 (${label})`, value: percentile(turns, 95), unit: 'ms' },
          { case: 'runtime', metric: `  turn minus observe, median (${label})`, value: median(withoutObserve), unit: 'ms' },
          { case: 'runtime', metric: `  observe, median (${label})`, value: median(times.observe.slice(5)), unit: 'ms' },
          { case: 'runtime', metric: `  plan (prompt + SDK + loopback), median (${label})`, value: median(times.plan.slice(5)), unit: 'ms' },
          { case: 'runtime', metric: `  execute, median (${label})`, value: median(times.execute.slice(5)), unit: 'ms' },
        );
        const sizes = fake.requests.slice(firstRequest).map((r) => r.bytes);
        const at5 = sizes[4]!;
        const at100 = sizes[LONG_TASK_STEPS - 1]!;
        rows.push(
          { case: 'runtime', metric: `request size at step 5 (${label})`, value: at5 / 1024, unit: 'KiB' },
          { case: 'runtime', metric: `request size at step 100 (${label})`, value: at100 / 1024, unit: 'KiB' },
          { case: 'runtime', metric: `request size step 100 / step 5 (${label})`, value: at100 / at5, unit: 'x', goal: '<= 1.2x' },
        );
      }

      // Stop latency: Stop pressed while the model call is in flight (the provider never answers).
      policy = () => ({ kind: 'hang' });
      const runner = new TaskRunner({ observer: new Observer(adb, { screenshot: false }), executor, plannerSource: async () => buildPlanner(configFor(fake, false, 30)) });
      const latencies: number[] = [];
      for (let i = 0; i < STOPS; i += 1) {
        const before = fake.requests.length;
        const handle = await runner.start({ serial: harness.serial, goal: 'Wait for a model that never answers' });
        while (fake.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 2));
        const pressed = performance.now();
        handle.stop();
        const record = await handle.done;
        latencies.push(performance.now() - pressed);
        if (record.status !== 'cancelled') throw new Error(`stop ended the task ${record.status}`);
      }
      rows.push(
        { case: 'runtime', metric: 'stop latency mid-call, median', value: median(latencies), unit: 'ms', goal: '< 300 ms' },
        { case: 'runtime', metric: 'stop latency mid-call, max', value: Math.max(...latencies), unit: 'ms' },
      );
    } finally {
      await fake.close();
      await harness.stop();
    }
    return rows;
  },
} satisfies BenchCase;
