// Supervision (issue 12): what the guards cost and what they catch.
// - Host overhead per turn of the loop guard + the sensitive-action policy + outcome verification + the budget
//   checks, on the task-suite screens (the turns of every suite task, recorded from a real run on the demo phone).
// - The misbehaving-model suite through both SDKs: scenarios that end as the guards must, and the tokens a loop
//   costs before it is stopped, in turns' worth.
import { AdbClient } from '../../src/core/device/adb-client';
import { Observer } from '../../src/core/perception/observer';
import { Executor } from '../../src/core/tools/executor';
import { TaskRunner } from '../../src/core/runtime/task-runner';
import { buildPlanner } from '../../src/core/runtime/build-planner';
import { presetSupervisor } from '../../src/core/runtime/supervisor';
import { decideAction } from '../../src/core/runtime/action-policy';
import { actionKeyOf, findLoop, type GuardedTurn } from '../../src/core/runtime/loop-guard';
import { verifyAction } from '../../src/core/runtime/verify-outcome';
import { budgetExceeded } from '../../src/core/runtime/budgets';
import { DEFAULT_TASK_POLICIES } from '../../src/core/runtime/task-policies';
import type { RuntimeConfig } from '../../src/core/runtime/config';
import { defaultSettings, mergeSettings, SettingsSchema } from '../../src/shared/settings';
import { sceneFingerprint, type Scene } from '../../src/shared/scene';
import type { StepOutcome } from '../../src/shared/action';
import type { TaskEvent } from '../../src/shared/task';
import { PHONE_TASKS } from '../../src/eval/tasks/index';
import { startAdbHarness } from '../../test/support/adb-harness';
import { startProviderFake, type FakePolicy, type ProviderFake } from '../../test/fakes/index';
import { SUITE_SCRIPTS, stepsPolicy } from '../../test/fakes/suite-agent';
import { MISBEHAVIOUR_SCENARIOS, runTask, type PhoneRig } from '../../test/fakes/misbehaving-suite';
import { median, type BenchCase, type BenchRow } from '../types';

/** One executed turn of a suite task: the screens around the action, the action and its outcome. */
interface RecordedTurn {
  before: Scene | null;
  after: Scene | null;
  tool: string;
  args: Record<string, unknown>;
  outcome: StepOutcome;
  /** The task's turns before this one, as the loop guard holds them. */
  earlier: GuardedTurn[];
  screens: (string | null)[];
}

const REPEATS = 200;

function configFor(fake: ProviderFake): RuntimeConfig {
  return {
    settings: SettingsSchema.parse(mergeSettings(defaultSettings(), { aiPlanner: { enabled: true, provider: fake.provider, transport: 'direct', sendScreenshot: false }, [fake.provider]: { baseURL: fake.baseURL } })),
    secrets: { [fake.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY']: fake.apiKey },
    envOverrides: [],
  };
}

/** Runs every suite task with its script and keeps each executed turn with the Scenes before and after it. */
async function recordSuiteTurns(rig: PhoneRig, fake: ProviderFake): Promise<RecordedTurn[]> {
  const runner = new TaskRunner({
    observer: new Observer(rig.adb, { screenshot: false }),
    executor: new Executor(rig.adb),
    plannerSource: async () => buildPlanner(configFor(fake)),
    supervisor: presetSupervisor({ allowActions: true }),
  });
  const turns: RecordedTurn[] = [];
  for (const task of PHONE_TASKS) {
    await rig.harness.control('/reset', { body: task.seed ?? {} });
    for (const fault of task.faults ?? []) await rig.harness.control('/faults', { body: fault });
    rig.setModel(stepsPolicy(SUITE_SCRIPTS[task.id]!()));
    const events: TaskEvent[] = [];
    const off = runner.on((event) => events.push(event));
    await runner.run({ serial: rig.harness.serial, goal: task.goal });
    off();
    const scenes = events.flatMap((e) => (e.type === 'step.observed' ? [e.scene] : []));
    const planned = new Map(events.flatMap((e) => (e.type === 'step.planned' ? [[e.step, e]] : [])));
    const guarded: GuardedTurn[] = [];
    for (const executed of events) {
      if (executed.type !== 'step.executed') continue;
      const plan = planned.get(executed.step)!;
      const before = scenes[executed.step - 1] ?? null;
      const after = scenes[executed.step] ?? null;
      turns.push({ before, after, tool: plan.tool, args: plan.args, outcome: executed.outcome, earlier: [...guarded], screens: scenes.slice(0, executed.step).map((s) => (s ? sceneFingerprint(s) : null)) });
      guarded.push({ actionKey: actionKeyOf(plan.tool, plan.args, executed.outcome.target?.label), actionText: plan.tool, screenChanged: null });
    }
  }
  return turns;
}

/** What the runner adds per turn: policy before the action, loop guard, verification and budget checks after. */
function supervise(turn: RecordedTurn): void {
  decideAction({ call: { name: turn.tool, args: turn.args }, scene: turn.before, mode: 'sensitive', allowedApps: ['com.android.settings', 'com.android.contacts'] });
  const changed = turn.before && turn.after ? sceneFingerprint(turn.before) !== sceneFingerprint(turn.after) : null;
  verifyAction({ tool: turn.tool, args: turn.args, outcome: turn.outcome, before: turn.before, after: turn.after, screenChanged: changed });
  const key = actionKeyOf(turn.tool, turn.args, turn.outcome.target?.label);
  findLoop([...turn.earlier, { actionKey: key, actionText: turn.tool, screenChanged: changed }], turn.screens, DEFAULT_TASK_POLICIES.loop);
  const state = { turns: turn.earlier.length, usage: { inputTokens: 40_000, outputTokens: 900 }, lastCall: { inputTokens: 4000, outputTokens: 90 }, costUsd: 0.12, agentMs: 60_000 };
  const policies = { ...DEFAULT_TASK_POLICIES, maxTokens: 1_000_000, maxCostUsd: 5, maxDurationMs: 3_600_000, price: { model: 'm', input: 3, output: 15 } };
  budgetExceeded(state, 30, policies);
  budgetExceeded(state, 30, policies);
}

export default {
  name: 'supervision',
  async run(): Promise<BenchRow[]> {
    const rows: BenchRow[] = [];
    const harness = await startAdbHarness({ profile: 'instant' });
    let model: FakePolicy = () => ({ kind: 'http-error', status: 500 });
    const fakes = [await startProviderFake('anthropic', (turn) => model(turn)), await startProviderFake('openai', (turn) => model(turn))];
    try {
      const adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
      const rig: PhoneRig = { harness, adb, setModel: (next) => (model = next) };

      const turns = await recordSuiteTurns(rig, fakes[0]!);
      for (let i = 0; i < 20; i += 1) turns.forEach(supervise); // warm-up
      const perTurn = turns.map((turn) => {
        const start = performance.now();
        for (let i = 0; i < REPEATS; i += 1) supervise(turn);
        return (performance.now() - start) / REPEATS;
      });
      rows.push(
        { case: 'supervision', metric: `guard + policy + verification per turn, median (${turns.length} task-suite turns)`, value: median(perTurn), unit: 'ms', goal: '< 2 ms' },
        { case: 'supervision', metric: 'guard + policy + verification per turn, max', value: Math.max(...perTurn), unit: 'ms' },
      );

      let guarded = 0;
      let total = 0;
      for (const fake of fakes) {
        for (const scenario of MISBEHAVIOUR_SCENARIOS) {
          const run = await runTask(rig, fake, scenario.task());
          const problem = scenario.judge(run, await harness.state());
          total += 1;
          if (problem === null) guarded += 1;
          else process.stderr.write(`  not guarded: ${scenario.name} (${fake.provider}): ${problem}\n`);
          if (scenario.loop) {
            const calls = run.events.flatMap((e) => (e.type === 'step.planned' && e.usage ? [e.usage.inputTokens + e.usage.outputTokens] : []));
            const spent = run.record.usage.inputTokens + run.record.usage.outputTokens;
            rows.push(
              { case: 'supervision', metric: `tokens before the loop is stopped: ${scenario.name} (${fake.provider})`, value: spent, unit: 'tokens' },
              // A turn's worth: the loop's own first call (later prompts carry more history, so this over-counts).
              { case: 'supervision', metric: `  in turns' worth (${fake.provider})`, value: spent / calls[0]!, unit: 'turns', goal: '< 5 turns' },
            );
          }
        }
      }
      rows.push({ case: 'supervision', metric: `guarded outcomes / misbehaving scenarios (${total}, both providers)`, value: (100 * guarded) / total, unit: '%', goal: '100%' });
    } finally {
      await Promise.all(fakes.map((fake) => fake.close()));
      await harness.stop();
    }
    return rows;
  },
} satisfies BenchCase;
