// TaskRunner mechanics with in-memory ports: short-circuits (D2/D3), failures (D7), capabilities (D8),
// budgets, Stop, Pause/Resume, events.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDeviceLocks, locksFolder } from '../../../src/core/storage/device-lock';
import { ToolCallUnavailable } from '@amc/provider-clients';
import { TaskEventSchema, TaskRecordSchema, type TaskEvent } from '../../../src/shared/task';
import { TaskRunner, TaskStartError, type ConfiguredPlanner } from '../../../src/core/runtime/task-runner';
import type { Planner } from '../../../src/core/runtime/planner';
import { createStubPlanner } from '../../../src/core/runtime/stub-planner';
import { buildPlanner } from '../../../src/core/runtime/build-planner';
import { DEFAULT_TASK_POLICIES } from '../../../src/core/runtime/task-policies';
import { resolveRuntimeConfig } from '../../../src/core/runtime/config';
import { DEFAULT_SCENE_TOKEN_BUDGET } from '../../../src/shared/scene';
import { wordSaid } from '../../../src/shared/said';
import { wordsFor } from '../../../src/shared/i18n/translate';
import { latinSentences } from '../../support/latin-sentences';
import { defaultSettings } from '../../../src/shared/settings';
import { findBytesInJson, findBytesInValue } from '../../support/byte-leak-scan';
import { act, done, FakeExecutor, FakeObserver, PNG_BYTES, ScriptedPlanner, never, sceneWith, step } from './doubles';

function runnerWith(planner: Planner, parts: { observer?: FakeObserver; executor?: FakeExecutor; maxSteps?: number; maxConsecutiveFailures?: number } = {}) {
  const observer = parts.observer ?? new FakeObserver();
  const executor = parts.executor ?? new FakeExecutor();
  const configured: ConfiguredPlanner = { planner, maxSteps: parts.maxSteps ?? 30 };
  const runner = new TaskRunner({
    observer,
    executor,
    plannerSource: async () => configured,
    ...(parts.maxConsecutiveFailures ? { maxConsecutiveFailures: parts.maxConsecutiveFailures } : {}),
  });
  const events: TaskEvent[] = [];
  runner.on((event) => events.push(event));
  return { runner, observer, executor, events };
}

const request = { serial: 'emulator-5554', goal: 'Turn on Wi-Fi' };
const types = (events: TaskEvent[]) => events.map((e) => e.type);

describe('TaskRunner', () => {
  it('Scenario: The stub planner completes after one describe_screen step', async () => {
    const { runner, executor, events } = runnerWith(createStubPlanner());
    const record = await runner.run(request);
    expect(record.status).toBe('completed');
    expect(executor.calls.map((c) => c.call.name)).toEqual(['describe_screen']);
    expect(types(events)).toEqual(['task.started', 'step.observed', 'step.planned', 'step.executed', 'step.observed', 'task.finished']);
    expect(record.planner.kind).toBe('stub');
  });

  it('re-observes every turn and passes each turn\'s Scene to the planner and the executor', async () => {
    const observer = new FakeObserver([sceneWith('A'), sceneWith('B'), sceneWith('C')]);
    const planner = new ScriptedPlanner((input) => (input.step < 3 ? act(step('tap', { element_id: 'e1' })) : done()));
    const { runner, executor } = runnerWith(planner, { observer });
    const record = await runner.run(request);
    expect(record.status).toBe('completed');
    expect(observer.calls).toBe(3);
    expect(planner.inputs.map((i) => i.scene?.elements[0]?.text)).toEqual(['A', 'B', 'C']);
    expect(executor.calls.map((c) => (c.context.scene as { elements: Array<{ text: string }> }).elements[0]!.text)).toEqual(['A', 'B']);
  });

  it('observes every turn within the Scene token budget Settings give the task', async () => {
    const config = resolveRuntimeConfig({ settings: defaultSettings(), secrets: {} }, { AMC_SCENE_TOKEN_BUDGET: '800' });
    const observer = new FakeObserver([sceneWith('Home'), sceneWith('Wi-Fi')]);
    const runner = new TaskRunner({ observer, executor: new FakeExecutor(), plannerSource: async () => buildPlanner(config) });
    expect((await runner.run(request)).status).toBe('completed');
    expect(observer.sceneTokenBudgets).toEqual([800, 800]);
    const defaults = new FakeObserver();
    await new TaskRunner({ observer: defaults, executor: new FakeExecutor(), plannerSource: async () => ({ planner: createStubPlanner(), maxSteps: 5 }) }).run(request);
    expect(defaults.sceneTokenBudgets[0]).toBe(DEFAULT_SCENE_TOKEN_BUDGET);
  });

  it('an empty plan completes the task even when the planner never reports goal reached (D2)', async () => {
    const planner = new ScriptedPlanner(() => done());
    const { runner, executor } = runnerWith(planner);
    const record = await runner.run(request);
    expect(record.status).toBe('completed');
    expect(executor.calls).toHaveLength(0);
  });

  it("Scenario: A planner's fail ends the task with its reason", async () => {
    const usage = { inputTokens: 40, outputTokens: 4 };
    const planner = new ScriptedPlanner((input) =>
      input.step === 1 ? act(step('tap', { element_id: 'e1' })) : { kind: 'fail', reason: 'Step 2: no "Saved" on screen', call: { ...step('ask_ai', { question: 'Saved?' }), usage } },
    );
    const { runner, executor, events } = runnerWith(planner);
    const record = await runner.run(request);
    expect(record).toMatchObject({ status: 'failed', failureReason: 'Step 2: no "Saved" on screen', usage });
    // The call the turn made is on its row, and nothing more is planned or done.
    expect(record.steps.map((s) => s.planned?.tool)).toEqual(['tap', 'ask_ai']);
    expect(executor.calls).toHaveLength(1);
    expect(planner.inputs).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'task.finished', status: 'failed' });
  });

  it('a finish without success fails the task with the planner\'s reason and plans nothing more', async () => {
    const planner = new ScriptedPlanner(() => ({ kind: 'finish', success: false, reason: 'There is no Wi-Fi option on this phone', call: step('finish_task', { success: false, reason: 'There is no Wi-Fi option on this phone' }) }));
    const { runner, events, executor } = runnerWith(planner);
    const record = await runner.run(request);
    expect(record.status).toBe('failed');
    expect(record.failureReason).toBe('There is no Wi-Fi option on this phone');
    expect(planner.inputs).toHaveLength(1);
    expect(executor.calls).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({ type: 'task.finished', status: 'failed' });
  });

  it('Scenario: Exceptions from observe or plan fail the task with their name and message: observe (D7)', async () => {
    class AdbError extends Error {
      override name = 'AdbError';
    }
    const observer = new FakeObserver([sceneWith('A')], { fail: (n) => (n === 1 ? new AdbError('device offline') : null) });
    const { runner } = runnerWith(createStubPlanner(), { observer });
    const first = await runner.run(request);
    expect(first.status).toBe('failed');
    expect(first.failureReason).toBe('AdbError: device offline');
    expect(runner.activeTasks()).toEqual([]);
    const second = await runner.run(request);
    expect(second.status).toBe('completed');
  });

  it('Scenario: Exceptions from observe or plan fail the task with their name and message: plan (D7)', async () => {
    const planner = new ScriptedPlanner(() => {
      throw new ToolCallUnavailable('Anthropic server error (HTTP 500); try again later');
    });
    const { runner } = runnerWith(planner);
    const handle = await runner.start(request);
    const record = await handle.done;
    expect(record.status).toBe('failed');
    expect(record.failureReason).toBe('ToolCallUnavailable: Anthropic server error (HTTP 500); try again later');
    expect(TaskRecordSchema.parse(record).status).not.toBe('running');
  });

  it('Scenario: Failed actions are fed back to the planner', async () => {
    const executor = new FakeExecutor((_call, n) => (n === 1 ? { ok: false, error: 'no element e9 in this Scene', attempts: 0, durationMs: 1 } : { ok: true, attempts: 1, durationMs: 1 }));
    const planner = new ScriptedPlanner((input) => (input.step <= 2 ? act(step('tap', { element_id: input.step === 1 ? 'e9' : 'e1' }, 'try')) : done()));
    const { runner } = runnerWith(planner, { executor });
    const record = await runner.run(request);
    expect(record.status).toBe('completed');
    const seen = planner.inputs[1]!.history!;
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ step: 1, tool: 'tap', args: { element_id: 'e9' }, rationale: 'try', outcome: { ok: false, error: 'no element e9 in this Scene' } });
  });

  it('an executor that throws (not an abort) becomes an error outcome', async () => {
    const executor = new FakeExecutor(() => {
      throw new RangeError('bad point');
    });
    const planner = new ScriptedPlanner((input) => (input.step === 1 ? act(step('tap', { x: 1, y: 1 })) : done()));
    const { runner, events } = runnerWith(planner, { executor });
    const record = await runner.run(request);
    expect(record.status).toBe('completed');
    expect(events.find((e) => e.type === 'step.executed')).toMatchObject({ outcome: { ok: false, error: 'RangeError: bad point' } });
  });

  it('Scenario: Repeated action failures end the task', async () => {
    const executor = new FakeExecutor(() => ({ ok: false, error: 'adb: device not found', attempts: 3, durationMs: 1 }));
    const planner = new ScriptedPlanner(() => act(step('tap', { element_id: 'e1' })));
    const { runner } = runnerWith(planner, { executor });
    const record = await runner.run(request);
    expect(record.status).toBe('failed');
    expect(record.failureReason).toBe('3 actions in a row failed; the last one: adb: device not found');
    // A window in another language words it by its code; the phone's own error stays as it came.
    expect(record.failureSaid).toEqual({ code: 'stop.failuresInARow', values: { failures: 3, errorSaid: JSON.stringify([{ code: 'input.verbatim', values: { text: 'adb: device not found' } }]) } });
    expect(executor.calls).toHaveLength(3);
  });

  it('Scenario: The step budget ends a task that does not finish', async () => {
    const planner = new ScriptedPlanner(() => act(step('swipe', { direction: 'up' })));
    // Every swipe reveals new items: a long list, not a loop.
    let shown = 0;
    const { runner, executor } = runnerWith(planner, { maxSteps: 4, observer: new FakeObserver([() => sceneWith(`Item ${(shown += 1)}`)]) });
    const record = await runner.run(request);
    expect(record.status).toBe('failed');
    expect(record.failureReason).toBe('reached the maximum of 4 steps without finishing the goal');
    expect(executor.calls).toHaveLength(4);
    // Decided before the fifth turn: no fifth plan whose action would be thrown away.
    expect(planner.inputs).toHaveLength(4);
    const single = await runnerWith(new ScriptedPlanner(() => act(step('swipe', { direction: 'up' }))), { maxSteps: 1 }).runner.run(request);
    expect(single.failureReason).toBe('reached the maximum of 1 step without finishing the goal');
  });

  it('a per-task maxSteps wins over the configured one', async () => {
    const planner = new ScriptedPlanner(() => act(step('swipe', { direction: 'up' })));
    const { runner, executor } = runnerWith(planner, { maxSteps: 30 });
    const record = await runner.run({ ...request, maxSteps: 2 });
    expect(record.maxSteps).toBe(2);
    expect(executor.calls).toHaveLength(2);
  });

  it('Scenario: A planner only gets what it declares it accepts (D8)', async () => {
    const observer = new FakeObserver([sceneWith('A')], { screenshot: true });
    const blind = new ScriptedPlanner((input) => (input.step < 3 ? act(step('tap', { element_id: 'e1' })) : done()), { screenshot: false, history: false });
    await runnerWith(blind, { observer }).runner.run(request);
    expect(blind.inputs).toHaveLength(3);
    for (const input of blind.inputs) {
      expect(input).not.toHaveProperty('screenshot');
      expect(input).not.toHaveProperty('history');
    }
    const seeing = new ScriptedPlanner((input) => (input.step < 3 ? act(step('tap', { element_id: 'e1' })) : done()), { screenshot: true, history: true });
    await runnerWith(seeing, { observer: new FakeObserver([sceneWith('A')], { screenshot: true }) }).runner.run(request);
    expect(seeing.inputs[2]!.screenshot!.bytes).toBe(PNG_BYTES);
    expect(seeing.inputs[2]!.history).toHaveLength(2);
  });

  it('Scenario: The observation is told whether to take a screenshot', async () => {
    // A careless observer that sends an image though told not to: a planner that takes none still gets none.
    const careless = new FakeObserver([sceneWith('A')], { screenshot: true });
    const blind = new ScriptedPlanner((input) => (input.step < 3 ? act(step('tap', { element_id: 'e1' })) : done()), { screenshot: false, history: true });
    await runnerWith(blind, { observer: careless }).runner.run(request);
    expect(careless.screenshotsTold).toEqual([false, false, false]);
    expect(blind.inputs.filter((input) => 'screenshot' in input)).toEqual([]);
    // A planner that takes one: every look is told to, at the size its policies carry, the looks within a turn too.
    const seeingObserver = new FakeObserver([sceneWith('A'), sceneWith('B')], { screenshot: true });
    const seeing = new ScriptedPlanner(
      async (input, context) => {
        if (input.step === 1) await context.lookAgain?.(Date.now() + 5_000);
        return input.step < 3 ? act(step('tap', { element_id: 'e1' })) : done();
      },
      { screenshot: true, history: true },
    );
    const runner = new TaskRunner({ observer: seeingObserver, executor: new FakeExecutor(), plannerSource: async () => ({ planner: seeing, maxSteps: 30, policies: { ...DEFAULT_TASK_POLICIES, screenshotLongEdge: 800 } }) });
    await runner.run(request);
    expect(seeingObserver.screenshotsTold).toEqual([{ longEdge: 800 }, { longEdge: 800 }, { longEdge: 800 }, { longEdge: 800 }]);
    expect(seeing.inputs.map((input) => input.screenshot?.bytes)).toEqual([PNG_BYTES, PNG_BYTES, PNG_BYTES]);
  });

  it('Scenario: No other consumer receives raw screenshot bytes', async () => {
    const observer = new FakeObserver([sceneWith('A'), sceneWith('B')], { screenshot: true });
    const planner = new ScriptedPlanner((input) => (input.step === 1 ? act(step('tap', { element_id: 'e1' })) : done()));
    const { runner, executor, events } = runnerWith(planner, { observer });
    const record = await runner.run(request);
    // The planner got the bytes; the executor, the events (UI, CLI, storage) and the record did not.
    expect(planner.inputs[0]!.screenshot!.bytes).toBe(PNG_BYTES);
    expect(Object.keys(executor.calls[0]!.context).sort()).toEqual(['scene', 'serial', 'signal']);
    // Scanned as the objects listeners get (IPC sends them as is) and as the JSON the CLI and storage write.
    const scan = { knownBytes: [PNG_BYTES] };
    expect(events.flatMap((event, i) => findBytesInValue(event, `event ${i} (${event.type})`, scan))).toEqual([]);
    expect(events.flatMap((event, i) => findBytesInJson(JSON.stringify(event), `event ${i} as JSON`, scan))).toEqual([]);
    expect(findBytesInValue(record, 'record', scan)).toEqual([]);
    expect(record.steps[0]!.screenshot).toEqual({ mediaType: 'image/png', width: 540, height: 1200, bytes: PNG_BYTES.byteLength });
  });

  it('tells the planner whether the previous action changed the screen', async () => {
    const observer = new FakeObserver([sceneWith('A'), sceneWith('A'), sceneWith('B')]);
    const planner = new ScriptedPlanner((input) => (input.step < 3 ? act(step('tap', { element_id: 'e1' })) : done()));
    const { runner, events } = runnerWith(planner, { observer });
    await runner.run(request);
    const history = planner.inputs[2]!.history!;
    expect(history.map((h) => h.screenChanged)).toEqual([false, true]);
    expect(events.filter((e) => e.type === 'step.observed').map((e) => (e as { screenChanged: boolean | null }).screenChanged)).toEqual([null, false, true]);
  });

  it('does not count a clock or battery tick in the status bar as a screen change', async () => {
    const at = (time: string, battery: number, text = 'A') => {
      const scene = sceneWith(text);
      return { ...scene, screen: { ...scene.screen, status: { time, battery } } };
    };
    const observer = new FakeObserver([at('21:47', 62), at('21:48', 61), at('21:48', 61, 'B')]);
    const planner = new ScriptedPlanner((input) => (input.step < 3 ? act(step('tap', { element_id: 'e1' })) : done()));
    const { runner } = runnerWith(planner, { observer });
    await runner.run(request);
    expect(planner.inputs[2]!.history!.map((h) => h.screenChanged)).toEqual([false, true]);
    // The planner still reads the time as it was.
    expect(planner.inputs[1]!.scene!.screen.status).toEqual({ time: '21:48', battery: 61 });
  });

  it('Scenario: Events match the shared schema and fold into the record', async () => {
    const planner = new ScriptedPlanner((input) => {
      if (input.step === 1) return act({ ...step('tap', { element_id: 'e1' }, 'Tap A'), usage: { inputTokens: 100, outputTokens: 10 } });
      return { kind: 'finish', success: true, reason: 'Wi-Fi is on', call: { ...step('finish_task', { success: true, reason: 'Wi-Fi is on' }), usage: { inputTokens: 120, outputTokens: 12 } } };
    });
    const { runner, events } = runnerWith(planner);
    const record = await runner.run(request);
    for (const event of events) expect(TaskEventSchema.parse(event)).toEqual(event);
    expect(record).toMatchObject({ status: 'completed', result: 'Wi-Fi is on', usage: { inputTokens: 220, outputTokens: 22 } });
    expect(record.steps).toHaveLength(2);
    expect(record.steps[0]!.planned).toMatchObject({ tool: 'tap', rationale: 'Tap A', usage: { inputTokens: 100, outputTokens: 10 } });
    expect(record.steps[1]!.planned).toMatchObject({ tool: 'finish_task', args: { success: true, reason: 'Wi-Fi is on' } });
    expect(record.steps[1]!.outcome).toBeNull();
    expect(events.at(-1)).toMatchObject({ type: 'task.finished', steps: 1, usage: { inputTokens: 220, outputTokens: 22 } });
    TaskRecordSchema.parse(record);
  });

  it('Scenario: Stop cancels an in-flight model call (even one that ignores the signal)', async () => {
    const planner = new ScriptedPlanner(() => never());
    const { runner, events } = runnerWith(planner);
    const handle = await runner.start(request);
    await expect.poll(() => planner.contexts.length).toBe(1);
    handle.stop();
    const record = await handle.done;
    expect(record.status).toBe('cancelled');
    expect(record.failureReason).toBe('stopped by the user');
    expect(planner.contexts[0]!.signal.aborted).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'task.finished', status: 'cancelled' });
  });

  it('Scenario: Stop cancels an in-flight adb command', async () => {
    let executorSignal: AbortSignal | undefined;
    const executor = new FakeExecutor(() => never());
    const original = executor.execute.bind(executor);
    executor.execute = (call, context) => {
      executorSignal = context.signal;
      return original(call, context);
    };
    const planner = new ScriptedPlanner(() => act(step('tap', { element_id: 'e1' })));
    const { runner } = runnerWith(planner, { executor });
    const handle = await runner.start(request);
    await expect.poll(() => executor.calls.length).toBe(1);
    handle.stop();
    expect((await handle.done).status).toBe('cancelled');
    expect(executorSignal?.aborted).toBe(true);
  });

  it('Stop during observe ends the task cancelled', async () => {
    const observer = new FakeObserver([sceneWith('A')], { hang: true });
    const { runner } = runnerWith(createStubPlanner(), { observer });
    const handle = await runner.start(request);
    await expect.poll(() => observer.calls).toBe(1);
    handle.stop();
    expect((await handle.done).status).toBe('cancelled');
    expect(observer.signals[0]!.aborted).toBe(true);
  });

  it('Scenario: Pause holds the task between turns', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const planner = new ScriptedPlanner(async (input) => {
      if (input.step === 1) {
        await gate;
        return act(step('tap', { element_id: 'e1' }));
      }
      return input.step < 3 ? act(step('tap', { element_id: 'e1' })) : done();
    });
    const { runner, observer, events } = runnerWith(planner);
    const handle = await runner.start(request);
    await expect.poll(() => planner.inputs.length).toBe(1);
    handle.pause();
    release();
    await expect.poll(() => types(events)).toContain('task.paused');
    expect(observer.calls).toBe(1);
    expect(events.find((e) => e.type === 'task.paused')).toMatchObject({ step: 1 });
    handle.resume();
    const record = await handle.done;
    expect(record.status).toBe('completed');
    expect(types(events)).toContain('task.resumed');
    expect(observer.calls).toBe(3);
  });

  it('Stop while paused ends the task cancelled', async () => {
    const planner = new ScriptedPlanner(() => act(step('tap', { element_id: 'e1' })));
    const { runner, events } = runnerWith(planner);
    const handle = await runner.start(request);
    handle.pause();
    await expect.poll(() => types(events)).toContain('task.paused');
    handle.stop();
    expect((await handle.done).status).toBe('cancelled');
  });

  it('one task per device at a time; another device may run alongside', async () => {
    const planner = new ScriptedPlanner(() => never());
    const { runner } = runnerWith(planner);
    const first = await runner.start(request);
    await expect(runner.start(request)).rejects.toThrow(TaskStartError);
    const other = await runner.start({ ...request, serial: '127.0.0.1:5601' });
    expect(runner.activeTasks().map((t) => t.serial).sort()).toEqual(['127.0.0.1:5601', 'emulator-5554']);
    first.stop();
    other.stop();
    await Promise.all([first.done, other.done]);
    expect(runner.activeTasks()).toEqual([]);
  });

  it('Scenario: A phone is free for other processes once its task ends (cancelled, completed or failed)', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'amc-runner-lock-'));
    try {
      const lockedRunner = (planner: Planner, observer = new FakeObserver()) =>
        new TaskRunner({ observer, executor: new FakeExecutor(), plannerSource: async () => ({ planner, maxSteps: 30 }), deviceLock: createDeviceLocks(home) });
      const held = () => readdir(locksFolder(home));
      // Another runner (as another process would) is refused while the first task runs, naming it.
      const first = await lockedRunner(new ScriptedPlanner(() => never())).start(request);
      expect(await held()).toHaveLength(1);
      const other = lockedRunner(createStubPlanner());
      await expect(other.start({ ...request, goal: 'Something else' })).rejects.toThrow(TaskStartError);
      await expect(other.start({ ...request, goal: 'Something else' })).rejects.toThrow(/being driven by another task \(goal "Turn on Wi-Fi"/);
      first.stop();
      expect((await first.done).status).toBe('cancelled');
      expect(await held()).toEqual([]);
      // Completed, and failed by an exception from observe: released both times.
      expect((await other.run(request)).status).toBe('completed');
      const failing = lockedRunner(createStubPlanner(), new FakeObserver(undefined, { fail: () => new Error('boom') }));
      expect((await failing.run(request)).status).toBe('failed');
      expect(await held()).toEqual([]);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('the device is free when task.finished is heard: a listener may start the next task at once', async () => {
    const { runner, events } = runnerWith(createStubPlanner());
    const next: Array<Promise<unknown>> = [];
    const off = runner.on((event) => {
      if (event.type === 'task.finished') {
        off();
        next.push(runner.run(request));
      }
    });
    await runner.run(request);
    expect(next).toHaveLength(1);
    await expect(next[0]).resolves.toMatchObject({ status: 'completed' });
    expect(events.filter((e) => e.type === 'task.finished')).toHaveLength(2);
  });

  it('a request without a goal is refused before anything runs', async () => {
    const { runner, observer } = runnerWith(createStubPlanner());
    await expect(runner.start({ serial: 'x', goal: '   ' })).rejects.toThrow(/goal/);
    expect(observer.calls).toBe(0);
  });

  it('a listener that throws does not stop the task', async () => {
    const { runner } = runnerWith(createStubPlanner());
    runner.on(() => {
      throw new Error('window closed');
    });
    expect((await runner.run(request)).status).toBe('completed');
  });
});

describe("A task that cannot start, in the reader's language", () => {
  const zh = wordsFor('zh-CN');
  const refusalOf = async (start: Promise<unknown>): Promise<TaskStartError> => {
    const error = await start.then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TaskStartError);
    return error as TaskStartError;
  };

  it("Scenario: A phone another process drives and a request that is not valid are refused in the reader's language", async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'amc-runner-words-'));
    try {
      const lockedRunner = (planner: Planner) =>
        new TaskRunner({ observer: new FakeObserver(), executor: new FakeExecutor(), plannerSource: async () => ({ planner, maxSteps: 30 }), deviceLock: createDeviceLocks(home) });
      const first = await lockedRunner(new ScriptedPlanner(() => never())).start(request);
      const busy = await refusalOf(lockedRunner(createStubPlanner()).start({ ...request, goal: 'Something else' }));
      // English as before; Chinese from the code, with the holder's goal kept as it was typed.
      expect(busy.message).toMatch(/^Phone emulator-5554 is being driven by another task \(goal "Turn on Wi-Fi", started \d\d:\d\d, process \d+\)\. Stop that task first\.$/);
      const chinese = wordSaid(busy.message, busy.said, zh);
      expect(chinese).toMatch(/^手机 emulator-5554 正由另一个任务（目标“Turn on Wi-Fi”，开始于 \d\d:\d\d，进程 \d+）操控。请先停止那个任务。$/);
      expect(latinSentences(chinese, ['Turn on Wi-Fi'])).toEqual([]);
      first.stop();
      await first.done;

      const invalid = await refusalOf(lockedRunner(createStubPlanner()).start({ serial: 'emulator-5554', goal: '' }));
      expect(invalid.message).toMatch(/^goal: /);
      const invalidWords = wordSaid(invalid.message, invalid.said, zh);
      expect(invalidWords).toMatch(/^goal：/);
      expect(latinSentences(invalidWords)).toEqual([]);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
