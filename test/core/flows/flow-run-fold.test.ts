// A flow run's report as a fold over its task's events: the replay planner inside the real TaskRunner (in-memory
// observer and executor) stamps each turn with the flow step it carries out and the steps whose result it knew; the
// report is read from the events alone. A model that takes over after a step failed never makes a flow step pass.
import { describe, expect, it } from 'vitest';
import { createReplayPlanner } from '../../../src/core/flows/replay-planner';
import { foldFlowRun } from '../../../src/core/flows/flow-run-fold';
import type { FlowChecks } from '../../../src/core/flows/flow-checks-port';
import { TaskRunner } from '../../../src/core/runtime/task-runner';
import type { Decision, Planner } from '../../../src/core/runtime/planner';
import { FlowSchema, type Flow } from '../../../src/shared/flow';
import type { TaskEvent, TaskEventOf } from '../../../src/shared/task';
import type { Scene } from '../../../src/shared/scene';
import { act, FakeExecutor, FakeObserver, finished, ScriptedPlanner, sceneWith, step } from '../runtime/doubles';

const checks: FlowChecks = {
  assert: (scene, assertion) => {
    const shown = scene.elements.some((element) => element.text === assertion.visible);
    return shown ? { holds: true, fact: `"${assertion.visible}" is on screen` } : { holds: false, reason: `no "${assertion.visible}" on screen` };
  },
  ask: async () => ({ kind: 'extract', value: '', usage: null }),
};

/** Runs the flow as a replay (no waiting for the screen: each turn shows the next scene) and keeps every event. */
async function replay(flow: Flow, scenes: Scene[], model?: Planner, onDivergence?: 'model' | 'fail') {
  const executor = new FakeExecutor();
  const planner = createReplayPlanner({ flow, source: 'replayed', checks, waits: false, ...(model && { model }), ...(onDivergence && { onDivergence }) });
  const runner = new TaskRunner({ observer: new FakeObserver(scenes), executor, plannerSource: async () => ({ planner, maxSteps: 10 }) });
  const events: TaskEvent[] = [];
  runner.on((event) => events.push(event));
  const record = await runner.run({ serial: 'phone', goal: flow.goal });
  return { record, events, executor, report: foldFlowRun(flow, events) };
}

const plannedEvents = (events: readonly TaskEvent[]) => events.filter((event): event is TaskEventOf<'step.planned'> => event.type === 'step.planned');
const tapOn = (scene: Scene | null, label: string): Decision => act(step('tap', { element_id: scene?.elements.find((element) => element.text === label)?.id ?? 'none' }, `Tapping ${label}.`));

describe('a flow run folded from its events', () => {
  it('Scenario: Each replayed turn is stamped with the flow step it carries out', async () => {
    const flow = FlowSchema.parse({
      goal: 'Sign in from Settings',
      steps: [{ tool: 'tap', args: {}, target: { text: 'Settings' } }, { run_flow: { file: 'login.yaml', steps: [{ tool: 'tap', args: {}, target: { text: 'Sign in' } }] } }, { assert: { visible: 'Welcome' } }],
      lines: [2, 4, 8],
    });
    const { record, events, report } = await replay(flow, [sceneWith('Settings'), sceneWith('Sign in'), sceneWith('Welcome')]);
    expect(record.status).toBe('completed');
    const planned = plannedEvents(events);
    expect(planned.map((event) => event.flow?.step)).toEqual([{ index: 0, line: 2 }, { index: 1, line: 4, file: 'login.yaml' }, undefined]);
    // What a turn knew: the tap before it verified (its outcome is known once the next turn looks), the block and the check.
    expect(planned.map((event) => event.flow?.settled.map((mark) => `${mark.index}:${mark.status}`))).toEqual([[], ['0:passed'], ['1:passed', '2:passed']]);
    expect(report.steps.map((result) => [result.label, result.status])).toEqual([
      ['line 2: tap: { text: Settings }', 'passed'],
      ['line 4: run_flow: { steps: [ { tap: { text: Sign in } } ] }', 'passed'],
      ['line 8: assert: { visible: Welcome }', 'passed'],
    ]);
    expect(report.steps[1]!.detail).toBe('the steps of login.yaml passed');
  });

  it('Scenario: A model that takes over after a step failed leaves the steps it never ran not run, never passed', async () => {
    // The misbehaving model carries on in the flow's place: it taps what steps 3 and 4 would have tapped, then claims the goal.
    const model = new ScriptedPlanner((input) => {
      if (input.scene?.elements.some((element) => element.text === 'Network')) return tapOn(input.scene, 'Network');
      if (input.scene?.elements.some((element) => element.text === 'Off')) return tapOn(input.scene, 'Off');
      return finished('Wi-Fi is off, as the flow wanted');
    });
    const flow = FlowSchema.parse({
      goal: 'Turn Wi-Fi off',
      steps: [
        { tool: 'tap', args: {}, target: { text: 'Settings' } },
        { tool: 'tap', args: {}, target: { text: 'Wi-Fi' } },
        { tool: 'tap', args: {}, target: { text: 'Off' } },
        { assert: { visible: 'Wi-Fi is off' } },
      ],
    });
    const scenes = [sceneWith('Settings'), sceneWith('Network', 'Bluetooth'), sceneWith('Wi-Fi', 'Off'), sceneWith('Wi-Fi is off')];
    const { events, executor, report } = await replay(flow, scenes, model);
    // The phone saw the model tap what the flow's later steps would have: that is still not the flow's steps running.
    expect(executor.calls.map(({ call }) => call.args.element_id)).toEqual(['e1', 'e1', 'e2']);
    expect(report.steps.map((result) => result.status)).toEqual(['passed', 'failed', 'not-run', 'not-run']);
    expect(report.steps[1]!.detail).toMatch(/^no 'Wi-Fi' on this screen/);
    expect(report.steps.slice(2).map((result) => result.detail)).toEqual(['not run: an earlier step did not pass', 'not run: an earlier step did not pass']);
    // The model's turns carry no flow step; the first of them says which step failed before it.
    const byModel = plannedEvents(events).filter((event) => event.source === 'fixed');
    expect(byModel).toHaveLength(3);
    expect(byModel.map((event) => event.flow?.step)).toEqual([undefined, undefined, undefined]);
    expect(byModel[0]!.flow?.settled.map((mark) => `${mark.index}:${mark.status}`)).toEqual(['0:passed', '1:failed']);
  });

  it('Scenario: A failure carries its step and its words, and the report never takes a sentence apart', async () => {
    // The model's own words start like a step's number: they are quoted whole on the step's line.
    const model = new ScriptedPlanner(() => ({ kind: 'finish', success: false, reason: 'Step 1: the list is gone', call: { ...step('finish_task', { success: false }), source: 'model' } }));
    const flow = FlowSchema.parse({ goal: 'Open the list', steps: [{ ai: 'Open the shopping list' }, { assert: { visible: 'Milk' } }] });
    const { record, events, report } = await replay(flow, [sceneWith('Notes')], model, 'fail');
    expect(record.status).toBe('failed');
    expect(record.failureReason).toBe('Step 1: Step 1: the list is gone');
    expect(report.steps.map((result) => [result.status, result.detail])).toEqual([
      ['failed', 'Step 1: the list is gone'],
      ['not-run', 'not run: an earlier step did not pass'],
    ]);
    // The failing turn had no plan of its own: its marks are on the task's end.
    const end = events.find((event): event is TaskEventOf<'task.finished'> => event.type === 'task.finished')!;
    const quoted = { code: 'flowFile.verbatim', values: { text: 'Step 1: the list is gone' } };
    expect(end.flow?.settled).toEqual([{ index: 0, status: 'failed', detail: 'Step 1: the list is gone', said: quoted }]);
    // The run's reason names the step around the model's words, by code: nothing to take apart again.
    expect(record.failureSaid?.code).toBe('flowRun.stepFailed');
    expect(JSON.parse(String(record.failureSaid?.values.reasonSaid))).toEqual([quoted]);
    expect(report.steps[0]!.said).toEqual(quoted);
  });

  it('Scenario: A model call that throws during a step keeps what the turn knew of the steps before it', async () => {
    // The tap's result is known on the turn the model's call for the ai step fails: the error ends the task, not the tap's pass.
    const model = new ScriptedPlanner(() => {
      throw new Error('the provider answered 529: overloaded');
    });
    const flow = FlowSchema.parse({ goal: 'Tap, then ask', steps: [{ tool: 'tap', args: {}, target: { text: 'One' } }, { ai: 'Open the list' }, { assert: { visible: 'Milk' } }] });
    const { record, events, report } = await replay(flow, [sceneWith('One'), sceneWith('Two')], model, 'fail');
    expect(record.status).toBe('failed');
    expect(report.steps.map((result) => result.status)).toEqual(['passed', 'failed', 'not-run']);
    expect(report.steps[1]!.detail).toBe('the provider answered 529: overloaded');
    const end = events.find((event): event is TaskEventOf<'task.finished'> => event.type === 'task.finished')!;
    expect(end.flow?.settled.map((mark) => `${mark.index}:${mark.status}`)).toEqual(['0:passed']);
  });

  it("Scenario: A run that ends while a step is under way fails that step with the run's reason", async () => {
    // The task's step budget runs out after the first tap: its turn never learns whether the tap went through.
    const flow = FlowSchema.parse({ goal: 'Two taps', steps: [{ tool: 'tap', args: {}, target: { text: 'One' } }, { tool: 'tap', args: {}, target: { text: 'Two' } }] });
    const planner = createReplayPlanner({ flow, source: 'replayed', checks, waits: false });
    const runner = new TaskRunner({ observer: new FakeObserver([sceneWith('One', 'Two')]), executor: new FakeExecutor(), plannerSource: async () => ({ planner, maxSteps: 1 }) });
    const events: TaskEvent[] = [];
    runner.on((event) => events.push(event));
    const record = await runner.run({ serial: 'phone', goal: flow.goal });
    expect(record.status).toBe('failed');
    const { steps } = foldFlowRun(flow, events);
    expect(steps.map((result) => result.status)).toEqual(['failed', 'not-run']);
    expect(steps[0]!.detail).toBe(record.failureReason);
    expect(steps[0]!.said).toEqual(record.failureSaid);
  });
});
