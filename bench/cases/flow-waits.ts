// A written flow on the realistic demo phone (uiautomator dump ~1.5 s, screencap ~0.4 s, input ~0.15 s, ±25%):
// the time per step against the phone's own floor (one layout read plus one input), what a dialog that shows 1 s
// late costs, and what waiting for a still screen costs. The flow runs as `amc flow run` runs it (replay planner,
// settled reads, waits by fingerprint), through the real adb server.
import { AdbClient } from '../../src/core/device/adb-client';
import { createHeadlessRunner } from '../../src/core/headless/headless-runner';
import { Observer } from '../../src/core/perception/observer';
import { Executor } from '../../src/core/tools/executor';
import { createFlowChecks } from '../../src/core/flows/flow-checks';
import { createReplayPlanner } from '../../src/core/flows/replay-planner';
import { FlowSchema, type Flow } from '../../src/shared/flow';
import type { TaskRecord } from '../../src/shared/task';
import { startAdbHarness, type AdbHarness } from '../../test/support/adb-harness';
import { median, type BenchCase, type BenchRow } from '../types';

const TWELVE_STEPS = FlowSchema.parse({
  goal: 'Twelve steps through Settings',
  steps: [
    { tool: 'launch_app', args: { app: 'Settings' } },
    { tool: 'tap', args: {}, target: { text: 'Network & internet' } },
    { tool: 'tap', args: {}, target: { text: 'Airplane mode' } },
    { tool: 'tap', args: {}, target: { text: 'Airplane mode' } },
    { tool: 'press_key', args: { key: 'back' } },
    { tool: 'tap', args: {}, target: { text: 'Connected devices' } },
    { tool: 'tap', args: {}, target: { text: 'Bluetooth' } },
    { tool: 'tap', args: {}, target: { text: 'Bluetooth' } },
    { tool: 'press_key', args: { key: 'back' } },
    { tool: 'tap', args: {}, target: { text: 'Display' } },
    { tool: 'tap', args: {}, target: { text: 'Dark theme' } },
    { tool: 'tap', args: {}, target: { text: 'Dark theme' } },
  ],
});

const LATE_DIALOG = FlowSchema.parse({ goal: 'Dismiss the warning', steps: [{ tool: 'launch_app', args: { app: 'Notes' } }, { tool: 'tap', args: {}, target: { text: 'OK' } }] });
const SETTLE = FlowSchema.parse({ goal: 'Wait for a still screen', steps: [{ tool: 'launch_app', args: { app: 'Notes' } }, { wait_for_settle: null }, { wait_for_settle: null }] });

async function runFlow(harness: AdbHarness, adb: AdbClient, flow: Flow): Promise<TaskRecord> {
  const runner = createHeadlessRunner(adb, {});
  const planner = createReplayPlanner({ flow, source: 'replayed', checks: createFlowChecks({ client: null }), onDivergence: 'fail' });
  const record = await runner.run({ serial: harness.serial, goal: flow.goal }, { planner: { planner, maxSteps: 60 } });
  if (record.status !== 'completed') throw new Error(`the flow "${flow.goal}" did not complete: ${record.failureReason}`);
  return record;
}

/** How these figures compare with Maestro's waits (its rule, not measured here). */
const MAESTRO_NOTE = [
  "flow-waits against Maestro's waits: after each action Maestro polls the screen every 200 ms, up to 10 times (up to 2 s),",
  'until two reads agree, and waits up to 500 ms for the app to go idle. amc sleeps for no fixed time: fingerprints follow one',
  'another while the layout is read and the closing one is timed to end with the read, so a still screen costs the "above the',
  'floor" figure below and no poll interval; a screen that moves stops the read at once and reads it again, so a late dialog',
  'costs the time until it shows plus about one read; a wait_for_settle on a screen already read settled costs nothing.',
].join('\n');

const durationOf = (record: TaskRecord) => (record.finishedAt ?? 0) - record.createdAt;

/** The popup shows `lateMs` after Notes is in front (0: as soon as it is). */
async function popupAfter(harness: AdbHarness, lateMs: number): Promise<void> {
  for (let tries = 0; tries < 2000; tries++) {
    if ((await harness.state()).foreground === 'com.amc.notes') break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  if (lateMs) await new Promise((resolve) => setTimeout(resolve, lateMs));
  await harness.control('/faults', { body: { kind: 'popup-dialog' } });
}

export default {
  name: 'flow-waits',
  async run(): Promise<BenchRow[]> {
    const rows: BenchRow[] = [];
    const harness = await startAdbHarness({ profile: 'realistic' });
    try {
      const adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });

      // The phone's floor: one layout read (the Observer's plain observation) and one input, as one step needs at least.
      // Measured in turns with the flow's runs (4 of each before every run), so a busy machine weighs on both alike.
      const observer = new Observer(adb, { screenshot: false });
      const executor = new Executor(adb);
      const reads: number[] = [];
      const inputs: number[] = [];
      const perStep: number[] = [];
      for (let round = 0; round < 3; round++) {
        await harness.reset({});
        for (let sample = 0; sample < 4; sample++) {
          let started = performance.now();
          await observer.observe(harness.serial);
          reads.push(performance.now() - started);
          started = performance.now();
          await executor.execute({ name: 'press_key', args: { key: 'home' } }, { serial: harness.serial, scene: null });
          inputs.push(performance.now() - started);
        }
        await harness.reset({});
        const record = await runFlow(harness, adb, TWELVE_STEPS);
        perStep.push(durationOf(record) / TWELVE_STEPS.steps.length);
      }
      const floor = median(reads) + median(inputs);
      rows.push({ case: 'flow-waits', metric: "phone's floor per step: one layout read + one input (median of 12 each)", value: floor, unit: 'ms' });
      rows.push({ case: 'flow-waits', metric: '12-step flow, time per step (median of 3 runs; includes the final check turn)', value: median(perStep), unit: 'ms' });
      rows.push({ case: 'flow-waits', metric: '12-step flow, time per step / floor', value: median(perStep) / floor, unit: 'x', goal: '<= 1.25x' });
      rows.push({ case: 'flow-waits', metric: '12-step flow, time per step above the floor (settling, closing fingerprint, the final check turn)', value: median(perStep) - floor, unit: 'ms' });

      // A dialog that shows 1 s after the app is in front, against one that shows at once.
      const dialogRun = async (lateMs: number) => {
        await harness.reset({});
        const [record] = await Promise.all([runFlow(harness, adb, LATE_DIALOG), popupAfter(harness, lateMs)]);
        return durationOf(record);
      };
      const atOnce: number[] = [];
      const late: number[] = [];
      // Five of each: where the dialog falls in a read, and each read's own ±25%, make a single run vary by half a read.
      for (let round = 0; round < 5; round++) {
        atOnce.push(await dialogRun(0));
        late.push(await dialogRun(1000));
      }
      rows.push({ case: 'flow-waits', metric: 'dialog 1 s late: run time added against a dialog there at once (median of 5)', value: (median(late) - median(atOnce)) / 1000, unit: 's', goal: '<= 1.4 s' });

      // Waiting for a still screen where the turn already read it still: no look, no sleep.
      await harness.reset({});
      const settled = await runFlow(harness, adb, SETTLE);
      const settleTurnMs = settled.steps.at(-1)!.timings.planMs ?? 0;
      const prints: number[] = [];
      for (let round = 0; round < 5; round++) {
        const started = performance.now();
        await observer.screenFingerprint(harness.serial);
        prints.push(performance.now() - started);
      }
      rows.push({ case: 'flow-waits', metric: 'two wait_for_settle on a screen the turn read settled (their turn planning time; no sleep, no look)', value: settleTurnMs, unit: 'ms' });
      rows.push({ case: 'flow-waits', metric: 'one screencap fingerprint on this phone (median of 5): what a wait costs when the screen was not yet seen still', value: median(prints), unit: 'ms' });
      console.log(MAESTRO_NOTE);
    } finally {
      await harness.stop();
    }
    return rows;
  },
} satisfies BenchCase;
