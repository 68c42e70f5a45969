// Replay and the plan cache on demo phones, with the scripted model (the loopback fake through the real SDK):
// every success of the suite replayed without the model; a second AI run of a goal following the cache on the
// realistic phone profile; and replays on phones whose lists were reordered or whose target was renamed, counting
// actions that landed on another element than the recorded one (judged from the phone's state).
import { AdbClient } from '../../src/core/device/adb-client';
import { buildPlanner } from '../../src/core/runtime/build-planner';
import { flowFromRecord } from '../../src/core/flows/flow-from-record';
import { createReplayPlanner } from '../../src/core/flows/replay-planner';
import { replayPlannerFor } from '../../src/core/flows/replay-task';
import { replaySuccesses } from '../../src/eval/replay-suite';
import { runSuite } from '../../src/eval/run-suite';
import { PHONE_TASKS, type PhoneTask } from '../../src/eval/tasks/index';
import { startAdbHarness } from '../../test/support/adb-harness';
import type { RuntimeConfig } from '../../src/core/runtime/config';
import { median, type BenchCase, type BenchRow } from '../types';
import { configFor, startScriptedModel } from './eval';

const modelCalls = (record: { steps: ReadonlyArray<{ planned: { usage: unknown } | null }> }) => record.steps.filter((step) => step.planned?.usage).length;
const taskById = (id: string) => PHONE_TASKS.find((task) => task.id === id)!;

/** The lists a perturbed task changes, as the seed and the phone's state hold them. */
type Lists = { contacts: ReadonlyArray<{ name: string }>; notes: ReadonlyArray<{ title: string }> };

/** The list tasks with their target renamed and their lists reversed; `names` reads the list from the phone's state. */
const PERTURBED: Array<{ id: string; target: string; renamed: string; names: (state: Lists) => string[] }> = [
  { id: 'contacts-delete-carol', target: 'Carol Williams', renamed: 'Caroline Williams', names: (state) => state.contacts.map((contact) => contact.name) },
  { id: 'notes-delete-ideas', target: 'Ideas', renamed: 'New ideas', names: (state) => state.notes.map((note) => note.title) },
];

function perturbed(task: PhoneTask, change: 'reversed' | 'renamed', target: string, renamed: string): PhoneTask {
  const seed = structuredClone(task.seed ?? {});
  if (seed.contacts) seed.contacts = change === 'reversed' ? seed.contacts.reverse() : seed.contacts.map((c) => (c.name === target ? { ...c, name: renamed } : c));
  if (seed.notes) seed.notes = change === 'reversed' ? seed.notes.reverse() : seed.notes.map((n) => (n.title === target ? { ...n, title: renamed } : n));
  return { ...task, id: `${task.id} (${change})`, seed };
}

/**
 * How long the model takes to answer in the realistic case: the low end of the 3-8 s of inference per step peers see
 * in the wild (reference/peers.md), with upload time left out.
 */
const REALISTIC_ANSWER_MS = 3_000;
const PLAN_CACHE_PAIRS = 3;

/** The same goal twice on the realistic phone profile: by the AI planner, then following the first run's flow as a cache. */
async function planCacheRuns(config: RuntimeConfig, adb: AdbClient, task: PhoneTask, newRun: () => Promise<void>) {
  const realistic = { config, adb, tasks: [task], parallel: 1, repeat: 1, profile: 'realistic' as const };
  await newRun();
  const [first] = await runSuite(realistic);
  const flow = flowFromRecord(first!.record);
  await newRun();
  const [second] = await runSuite({
    ...realistic,
    plannerFor: () => {
      const configured = buildPlanner(config);
      return { ...configured, planner: createReplayPlanner({ flow, source: 'cache', model: configured.planner }) };
    },
  });
  return { first: first!, second: second! };
}

export default {
  name: 'replay',
  async run(): Promise<BenchRow[]> {
    const rows: BenchRow[] = [];
    const harness = await startAdbHarness({ profile: 'instant' });
    const model = await startScriptedModel();
    try {
      const adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
      const config = configFor(model.address, true);

      // 1. The suite, then every success replayed on fresh phones without the model.
      await model.newRun();
      const suite = await runSuite({ config, adb, tasks: PHONE_TASKS, parallel: 2, repeat: 1 });
      const round = await replaySuccesses({ config, adb, parallel: 2 }, suite);
      const acted = round.attempts.length;
      rows.push({ case: 'replay', metric: `suite successes with actions replayed without the model, passed again (${round.passed}/${acted}; suite ${suite.filter((a) => a.success).length}/${suite.length})`, value: acted ? (100 * round.passed) / acted : 0, unit: '%', goal: '100%' });
      rows.push({ case: 'replay', metric: 'model calls made by those replays', value: round.modelCalls, unit: 'calls', goal: '0' });
      const failed = round.attempts.filter((attempt) => !attempt.success).map((attempt) => attempt.task.id);
      if (failed.length) rows.push({ case: 'replay', metric: `replays that did not pass: ${failed.join(', ')}`, value: failed.length, unit: 'tasks' });

      // 2. The plan cache: the same goal twice by the AI planner on the realistic phone profile, with a model that
      // answers at once (what is left is the phone's time) and with one that takes as long as inference does.
      const wifi = taskById('settings-wifi-off');
      for (const answerDelayMs of [0, REALISTIC_ANSWER_MS]) {
        // The phone's dumps take 1.5 s +-25% each: with a slow model the ratio is the median of a few pairs of runs.
        const pairs: Array<Awaited<ReturnType<typeof planCacheRuns>>> = [];
        for (let pair = 0; pair < (answerDelayMs ? PLAN_CACHE_PAIRS : 1); pair++) pairs.push(await planCacheRuns(config, adb, wifi, () => model.newRun(answerDelayMs)));
        const ratios = pairs.map(({ first, second }) => (100 * second.record.timings.totalMs) / first.record.timings.totalMs);
        const { first, second } = pairs[0]!;
        const modelSays = answerDelayMs ? `model answering in ${answerDelayMs / 1000} s` : 'instant model';
        const over = pairs.length > 1 ? `, median of ${pairs.length} pairs (${Math.min(...ratios).toFixed(0)}-${Math.max(...ratios).toFixed(0)}%)` : '';
        rows.push({ case: 'replay', metric: `plan cache (${modelSays}): model calls, first AI run of "${wifi.goal}" (${first.success ? 'passed' : 'failed'})`, value: modelCalls(first.record), unit: 'calls' });
        rows.push({ case: 'replay', metric: `plan cache (${modelSays}): model calls, second run following the cache (${second.success ? 'passed' : 'failed'})`, value: Math.max(...pairs.map((runs) => modelCalls(runs.second.record))), unit: 'calls', goal: '<= 1 where the first needed 4' });
        rows.push({ case: 'replay', metric: `plan cache (${modelSays}): task time, first run (median)`, value: median(pairs.map((runs) => runs.first.record.timings.totalMs)), unit: 'ms' });
        rows.push({ case: 'replay', metric: `plan cache (${modelSays}): task time of the second run / the first (realistic phone${over})`, value: median(ratios), unit: '%', goal: answerDelayMs ? '<= 40%' : undefined });
      }

      // 3. Replays on perturbed phones: lists reversed, targets renamed. An action on a wrong element shows as an item
      // other than the target gone from the list.
      let wrong = 0;
      let replays = 0;
      let followed = 0;
      for (const { id, target, renamed, names } of PERTURBED) {
        const task = taskById(id);
        const recorded = suite.find((attempt) => attempt.task.id === id && attempt.success);
        if (!recorded) continue;
        for (const change of ['reversed', 'renamed'] as const) {
          const variant = perturbed(task, change, target, renamed);
          const before = names({ contacts: variant.seed?.contacts ?? [], notes: variant.seed?.notes ?? [] });
          const statesAfter: string[][] = [];
          const [attempt] = await runSuite({
            config,
            adb,
            tasks: [{ ...variant, validate: (state) => (statesAfter.push(names(state)), { ok: true, why: '' }) }],
            parallel: 1,
            repeat: 1,
            plannerFor: () => replayPlannerFor(recorded.record, buildPlanner(config)),
          });
          replays += 1;
          const after = statesAfter[0] ?? before;
          const gone = before.filter((name) => !after.includes(name));
          wrong += gone.filter((name) => name !== target).length;
          if (attempt?.record.status === 'completed' && gone.includes(target)) followed += 1;
        }
      }
      rows.push({ case: 'replay', metric: `perturbed phones: actions on a wrong element over ${replays} replays (reordered lists, renamed targets)`, value: wrong, unit: 'actions', goal: '0' });
      rows.push({ case: 'replay', metric: 'perturbed phones: reordered replays that still reached the goal by the locator', value: followed, unit: `of ${replays / 2}` });
    } finally {
      await model.close();
      await harness.stop();
    }
    return rows;
  },
} satisfies BenchCase;
