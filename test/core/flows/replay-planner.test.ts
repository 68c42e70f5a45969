// The replay planner inside the real TaskRunner (its one supervised action path), with in-memory observer and
// executor: a flow's `ai` sub-goals go to the model until it says done, `assert` and `ask_ai` steps go to the
// injected FlowChecks, `${variables}` fill in, and a recorded task becomes a flow without Scene ids.
import { describe, expect, it } from 'vitest';
import { createReplayPlanner } from '../../../src/core/flows/replay-planner';
import { flowFromRecord, NothingToReplay } from '../../../src/core/flows/flow-from-record';
import { isQuestionGoal } from '../../../src/shared/verdict';
import { wordsFor } from '../../../src/shared/i18n/translate';
import { saidWords } from '../../../src/shared/supervision-words';
import { latinSentences } from '../../support/latin-sentences';
import type { FlowChecks } from '../../../src/core/flows/flow-checks-port';
import { TaskRunner, type SupervisorPort, type SupervisorRequest } from '../../../src/core/runtime/task-runner';
import { DEFAULT_TASK_POLICIES } from '../../../src/core/runtime/task-policies';
import { foldFlowRun } from '../../../src/core/flows/flow-run-fold';
import { FlowSchema, type Flow } from '../../../src/shared/flow';
import { newTaskRecord, type TaskEvent, type TaskRecord } from '../../../src/shared/task';
import type { Scene } from '../../../src/shared/scene';
import { act, FakeExecutor, FakeObserver, finished, ScriptedPlanner, sceneWith, step } from '../runtime/doubles';

const notesScene = (note: string): Scene => ({
  screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.example.notes', keyboardShown: false },
  elements: [
    { id: 'e1', type: 'EditText', hint: 'Title', editable: true, bounds: [0, 100, 1080, 200], ...(note && { text: note }) },
    { id: 'e2', type: 'Button', text: 'Save', bounds: [0, 300, 1080, 400], clickable: true },
  ],
});

const checks = (log: string[]): FlowChecks => ({
  assert: (scene, assertion) => {
    log.push(`assert ${JSON.stringify(assertion)}`);
    const shown = scene.elements.some((element) => element.text === assertion.visible);
    return shown ? { holds: true, fact: `"${assertion.visible}" is on screen` } : { holds: false, reason: `no "${assertion.visible}" on screen` };
  },
  ask: async (_scene, askAi) => {
    log.push(`ask ${askAi.question}`);
    return { kind: 'extract', value: 'Milk', usage: { inputTokens: 100, outputTokens: 5 } };
  },
});

async function runFlow(flow: Flow, scenes: Scene[], model?: ScriptedPlanner, log: string[] = []) {
  const executor = new FakeExecutor();
  const planner = createReplayPlanner({ flow, source: 'replayed', checks: checks(log), ...(model && { model }) });
  const runner = new TaskRunner({ observer: new FakeObserver(scenes), executor, plannerSource: async () => ({ planner, maxSteps: 10 }) });
  const record = await runner.run({ serial: 'phone', goal: flow.goal });
  return { record, executor, log };
}

describe('the replay planner', () => {
  it('Scenario: A flow asks the model a question and uses its answer in a later step', async () => {
    const flow = FlowSchema.parse({
      goal: 'Write down what to buy',
      steps: [{ ask_ai: { question: 'What is missing from the fridge?', kind: 'extract', into: 'item' } }, { tool: 'type_text', args: { text: 'Buy ${item}' }, target: { hint: 'Title' } }, { assert: { visible: 'Save' } }],
    });
    const { record, executor, log } = await runFlow(flow, [notesScene(''), notesScene('Buy Milk')]);
    expect(record.status).toBe('completed');
    expect(executor.calls.map(({ call }) => call)).toEqual([{ name: 'type_text', args: { text: 'Buy Milk', element_id: 'e1' } }]);
    expect(log).toEqual(['ask What is missing from the fridge?', 'assert {"visible":"Save"}']);
    // The question's tokens are the turn's, on the step it led to.
    expect(record.usage).toEqual({ inputTokens: 100, outputTokens: 5 });
    expect(record.result).toBe('every step of the flow is done; checked: "Save" is on screen');
  });

  it('Scenario: A sensitive step never acts on one of several look-alikes, however they are told apart', async () => {
    const notes: Scene = {
      screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.example.notes', keyboardShown: false },
      elements: [
        { id: 'e1', type: 'TextView', text: 'Old draft', bounds: [0, 100, 800, 200] },
        { id: 'e2', type: 'ImageButton', desc: 'Delete', bounds: [800, 100, 1080, 200], clickable: true },
        { id: 'e3', type: 'TextView', text: 'Groceries', bounds: [0, 300, 800, 400] },
        { id: 'e4', type: 'ImageButton', desc: 'Delete', bounds: [800, 300, 1080, 400], clickable: true },
      ],
    };
    const flow = FlowSchema.parse({ goal: 'Delete the old draft', steps: [{ tool: 'tap', target: { desc: 'Delete', distinguishedBy: { follows: 'Old draft' } } }] });
    const { record, executor } = await runFlow(flow, [notes]);
    expect(record.status).toBe('failed');
    expect(record.failureReason).toBe("Step 1: 2 elements match 'Delete', and a sensitive step is never taken on one of several look-alikes");
    expect(executor.calls).toEqual([]);
    // A step that is not sensitive does act on the one its facts single out.
    const open = FlowSchema.parse({ goal: 'Open the draft', steps: [{ tool: 'tap', target: { text: 'Open', distinguishedBy: { follows: 'Groceries' } } }] });
    const opening: Scene = { ...notes, elements: notes.elements.map((element) => (element.desc === 'Delete' ? { ...element, desc: undefined, text: 'Open' } : element)) };
    const opened = await runFlow(open, [opening, opening]);
    expect(opened.executor.calls.map(({ call }) => call)).toEqual([{ name: 'tap', args: { element_id: 'e4' } }]);
  });

  it('Scenario: A failed check fails the flow with the step and the reason', async () => {
    const flow = FlowSchema.parse({ goal: 'Check', steps: [{ assert: { visible: 'Saved' }, timeout: 300 }] });
    const { record, executor } = await runFlow(flow, [notesScene('')]);
    expect(record.status).toBe('failed');
    expect(record.failureReason).toMatch(/^Step 1: the check failed: no "Saved" on screen \(after waiting 0\.\d s for the screen\)$/);
    expect(executor.calls).toEqual([]);
  });

  it('Scenario: An ai step is a sub-goal the model reaches before the flow goes on', async () => {
    let turn = 0;
    const model = new ScriptedPlanner(() => {
      turn += 1;
      const usage = { inputTokens: 10, outputTokens: 1 };
      return turn === 1 ? act({ ...step('tap', { element_id: 'e1' }, 'Open it.'), usage }) : finished('opened', usage);
    });
    const flow = FlowSchema.parse({ goal: 'Open and save', steps: [{ ai: 'Open the note' }, { tool: 'tap', target: { text: 'Save' } }] });
    const { record, executor } = await runFlow(flow, [sceneWith('Note'), sceneWith('Save'), sceneWith('Saved')], model);
    expect(record.status).toBe('completed');
    expect(model.inputs.map((input) => input.goal)).toEqual(['Open the note', 'Open the note']);
    expect(executor.calls.map(({ call }) => call)).toEqual([
      { name: 'tap', args: { element_id: 'e1' } },
      { name: 'tap', args: { element_id: 'e1' } },
    ]);
    expect(record.steps.map((turnRecord) => turnRecord.planned?.source)).toEqual(['model', 'replayed', 'replayed']);
    expect(record.steps.map((turnRecord) => turnRecord.planned?.tool)).toEqual(['tap', 'tap', 'finish_task']);
    // The sub-goal's closing call is counted on the step that followed it.
    expect(record.usage).toEqual({ inputTokens: 20, outputTokens: 2 });
  });

  it('stops at an ai step when no model is set up', async () => {
    const flow = FlowSchema.parse({ goal: 'Needs a model', steps: [{ ai: 'Find the cheapest flight' }] });
    const { record } = await runFlow(flow, [sceneWith('Home')]);
    expect(record.failureReason).toBe('Step 1: this step is a goal for the model ("Find the cheapest flight"), and no AI planner is set up');
  });

  it('Scenario: A coordinate tap a person wrote runs as a checked action', async () => {
    // A recorded flow never keeps a point (flowFromRecord makes it a sub-goal); a point in a flow is a person's choice.
    const flow = FlowSchema.parse({ goal: 'Tap somewhere', steps: [{ tool: 'tap', args: { x: 10, y: 10 } }, { tool: 'tap', args: {}, point: '50%,25%' }] });
    const { record, executor } = await runFlow(flow, [sceneWith('Home'), sceneWith('Menu'), sceneWith('Open')]);
    expect(record.status).toBe('completed');
    expect(executor.calls.map(({ call }) => call)).toEqual([
      { name: 'tap', args: { x: 10, y: 10 } },
      { name: 'tap', args: { x: 540, y: 600 } },
    ]);
  });
});

describe('a task record as a flow', () => {
  const scene: Scene = {
    screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.android.settings', keyboardShown: false },
    elements: [{ id: 'e3', type: 'LinearLayout', text: 'Wi-Fi | Off', bounds: [0, 252, 1080, 452], clickable: true, checked: false }],
  };
  const after: Scene = { ...scene, elements: [{ ...scene.elements[0]!, text: 'Wi-Fi | On', checked: true }] };
  const record = (): TaskRecord => ({
    ...newTaskRecord({ id: 't1', goal: 'Turn on Wi-Fi', serial: 'p', planner: { kind: 'ai', exposesReasoning: true }, maxSteps: 5, createdAt: 0 }),
    status: 'completed',
    steps: [
      { step: 1, scene, sceneError: null, screenshot: null, screenChanged: null, planned: { ...step('describe_screen'), rationale: 'Look.' }, outcome: { ok: true, attempts: 0, durationMs: 0 }, timings: { observeMs: 1, planMs: 1, executeMs: 0 } },
      {
        step: 2,
        scene,
        sceneError: null,
        screenshot: null,
        screenChanged: false,
        planned: step('tap', { element_id: 'e3' }, 'The Wi-Fi row.'),
        outcome: { ok: true, attempts: 1, durationMs: 5, target: { x: 540, y: 352, elementId: 'e3' }, verification: { status: 'verified', check: 'checked-flipped', fact: 'on' } },
        timings: { observeMs: 1, planMs: 1, executeMs: 5 },
      },
      { step: 3, scene: after, sceneError: null, screenshot: null, screenChanged: true, planned: null, outcome: null, timings: { observeMs: 1, planMs: null, executeMs: null } },
    ],
  });

  it('Scenario: A finished task becomes a flow of located, checked steps', () => {
    expect(flowFromRecord(record())).toEqual({
      version: 1,
      goal: 'Turn on Wi-Fi',
      app: 'com.android.settings',
      vars: {},
      recordedFrom: 't1',
      steps: [{ tool: 'tap', args: {}, target: { app: 'com.android.settings', type: 'LinearLayout', text: 'Wi-Fi' }, before: { checked: false }, expect: { checked: true }, why: 'The Wi-Fi row.' }],
    });
  });

  it('Scenario: A run that began on the home screen replays by opening its app, never by tapping the launcher', () => {
    const home: Scene = {
      screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.android.launcher3', keyboardShown: false },
      elements: [{ id: 'e1', type: 'TextView', desc: 'Settings', bounds: [0, 1800, 270, 2000], clickable: true }],
    };
    const recorded = record();
    const fromHome: TaskRecord = {
      ...recorded,
      steps: [
        { step: 0, scene: home, sceneError: null, screenshot: null, screenChanged: null, planned: step('tap', { element_id: 'e1' }, 'The Settings icon.'), outcome: { ok: true, attempts: 1, durationMs: 5, target: { x: 135, y: 1900, elementId: 'e1' }, verification: { status: 'verified', check: 'screen-changed', fact: 'the screen changed' } }, timings: { observeMs: 1, planMs: 1, executeMs: 5 } },
        ...recorded.steps.map((turn) => ({ ...turn })),
      ],
    };
    const flow = flowFromRecord(fromHome);
    expect(flow.steps[0]).toEqual({ tool: 'launch_app', args: { app: 'com.android.settings' }, expect: { app: 'com.android.settings' }, why: 'Open com.android.settings, the app the recorded run worked in.' });
    // The icon's tap is gone: the rest is the run in its app.
    expect(flow.steps.slice(1)).toEqual(flowFromRecord(recorded).steps);
    expect(flow.steps.some((flowStep) => 'tool' in flowStep && flowStep.target?.app === 'com.android.launcher3')).toBe(false);
  });

  it('refuses a task that did nothing on the phone', () => {
    const looked = { ...record(), steps: record().steps.slice(0, 1) };
    expect(() => flowFromRecord(looked)).toThrow(NothingToReplay);
  });
});

describe('a question replayed', () => {
  const aboutPhone = (version: string | null): Scene => ({
    screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.android.settings', keyboardShown: false },
    elements: [
      { id: 'e1', type: 'TextView', text: 'About phone', bounds: [0, 0, 1080, 90] },
      ...(version ? [{ id: 'e2', type: 'LinearLayout', text: `Android version | ${version}`, bounds: [0, 100, 1080, 190] as [number, number, number, number], clickable: true as const }] : []),
      { id: 'e3', type: 'LinearLayout', text: 'Model | Pixel 8', bounds: [0, 200, 1080, 290], clickable: true as const },
    ],
  });
  const home = () => sceneWith('Settings', 'Clock');

  /** A task that opens Settings and answers from the About phone screen, as a model did it. */
  async function recordedQuestion(goal = 'What Android version is this phone running?'): Promise<TaskRecord> {
    let turn = 0;
    const model = new ScriptedPlanner(() => {
      turn += 1;
      return turn === 1 ? act(step('tap', { element_id: 'e1' }, 'Open Settings.')) : finished('This phone runs Android 14.');
    });
    const runner = new TaskRunner({ observer: new FakeObserver([home(), aboutPhone('14')]), executor: new FakeExecutor(), plannerSource: async () => ({ planner: model, maxSteps: 10 }) });
    return runner.run({ serial: 'phone', goal });
  }

  it('Scenario: Only a goal that asked a question keeps an answer, and only such a replay says one', async () => {
    // The same run under a goal that asks for something to be done: its closing words are no answer to keep.
    const done = flowFromRecord(await recordedQuestion('Open the About phone page'));
    expect(done.answer).toBeUndefined();
    // A flow that carries one anyway (a hand-written file) says only what it did.
    const asked = flowFromRecord(await recordedQuestion());
    const { record } = await runFlow({ ...asked, goal: 'Open the About phone page' }, [home(), aboutPhone('15')]);
    expect(record.status).toBe('completed');
    expect(record.result).toBe('every step of the flow is done');
    for (const goal of ['What Android version is this phone running?', 'How many eggs does my pancake recipe need?', 'Is Wi-Fi on', 'Tell me the build number', '这部手机是什么版本？']) {
      expect(isQuestionGoal(goal), goal).toBe(true);
    }
    for (const goal of ['Delete the Ann Lee ending 0222', 'Turn on Bluetooth.', 'Send the message "What time?" to Bob']) expect(isQuestionGoal(goal), goal).toBe(false);
  });

  it('Scenario: A replayed question answers with what its own phone shows where the answer was read', async () => {
    const recorded = await recordedQuestion();
    expect(recorded.status).toBe('completed');
    const flow = flowFromRecord(recorded);
    expect(flow.answer).toEqual({ text: 'This phone runs Android 14.', from: { app: 'com.android.settings', type: 'LinearLayout', text: 'Android version' }, part: 1, read: '14' });

    const { record } = await runFlow(flow, [home(), aboutPhone('15')]);
    expect(record.status).toBe('completed');
    expect(record.result).toMatch(/^This phone runs Android 15\. \(read on this screen from /);
    expect(record.result).not.toMatch(/\b14\b/);
  });

  it('Scenario: A replayed question whose answer is not on the screen never gives the recorded answer', async () => {
    const flow = flowFromRecord(await recordedQuestion());
    const { record } = await runFlow(flow, [home(), aboutPhone(null)]);
    expect(record.result).not.toMatch(/\b14\b/);
    expect(record.result).toMatch(/the answer was read from .*Android version/);

    // With a model set up, the model answers from the screen instead.
    const model = new ScriptedPlanner((input) => finished(`I see ${input.scene?.elements.length} rows and no Android version.`));
    const withModel = await runFlow(flow, [home(), aboutPhone(null)], model);
    expect(withModel.record.result).toBe('I see 2 rows and no Android version.');
    expect(model.inputs.at(-1)?.notices?.join(' ')).toMatch(/the answer cannot be read again/);
  });
  it("Scenario: A replayed question's answer sentence is in the reader's language", async () => {
    const chinese = wordsFor('zh-CN');
    const flow = flowFromRecord(await recordedQuestion());
    const { record } = await runFlow(flow, [home(), aboutPhone('15')]);
    expect(record.status).toBe('completed');
    // The answer stays the screen's words; what is said around it is Chinese, and English keeps its sentence.
    const worded = saidWords(record.result!, record.resultSaid, chinese);
    expect(worded).toMatch(/^This phone runs Android 15\.（在这个屏幕上从 “Android version” 读到；流程的每一步都完成了）$/);
    expect(latinSentences(worded.replace('This phone runs Android 15.', ''))).toEqual([]);
    expect(saidWords(record.result!, record.resultSaid, wordsFor('en'))).toBe(record.result);

    // Not on the screen any more: why is Chinese too (the locator's own reason carried by its code).
    const lost = await runFlow(flow, [home(), aboutPhone(null)]);
    const lostWorded = saidWords(lost.record.result!, lost.record.resultSaid, chinese);
    expect(lostWorded).toMatch(/^流程的每一步都完成了；答案原本是从 “Android version” 读到的：/);
    expect(latinSentences(lostWorded, ['Model', 'About phone']), lostWorded).toEqual([]);
  });

  it('Scenario: wait_for_settle passes at once on a screen the turn read settled, and looks once otherwise', async () => {
    const flow = FlowSchema.parse({ goal: 'Wait for a still screen', steps: [{ wait_for_settle: null }, { wait_for_settle: null }, { assert: { visible: 'Save' } }] });
    const looks = async (screenSettled: boolean) => {
      let looked = 0;
      const planner = createReplayPlanner({ flow, source: 'replayed', checks: checks([]) });
      const input = { goal: flow.goal, step: 1, scene: notesScene(''), sceneError: null, history: [], ...(screenSettled && { screenSettled }) };
      const decision = await planner.plan(input, {
        signal: new AbortController().signal,
        // The screen stays as it was: no fresh look comes back.
        lookAgain: async () => {
          looked += 1;
          return null;
        },
      });
      expect(decision).toMatchObject({ kind: 'finish', success: true });
      return looked;
    };
    // The turn's read settled: neither wait looks again. Not known settled: the first looks once, the second trusts it.
    expect(await looks(true)).toBe(0);
    expect(await looks(false)).toBe(1);
  });

  it('Scenario: A retry goes round again when its last action fails on the next look, but never asks a person twice', async () => {
    const flow = FlowSchema.parse({ goal: 'Save the note', steps: [{ retry: { max: 2, steps: [{ tool: 'tap', target: { text: 'Save' } }] } }, { assert: { visible: 'Save' } }] });
    const retried = (person?: SupervisorPort) => {
      const planner = createReplayPlanner({ flow, source: 'replayed', checks: checks([]) });
      // The first tap does not reach the phone; the second does, and the note is saved.
      let saved = false;
      const executor = new FakeExecutor((_call, n) => {
        if (n === 1) return { ok: false, attempts: 1, durationMs: 1, error: 'the phone did not answer' };
        saved = true;
        return { ok: true, attempts: 1, durationMs: 1 };
      });
      const screen = () => (saved ? notesScene('Saved') : notesScene(''));
      const policies = { ...DEFAULT_TASK_POLICIES, confirmation: person ? ('every' as const) : DEFAULT_TASK_POLICIES.confirmation };
      const runner = new TaskRunner({ observer: new FakeObserver([screen]), executor, plannerSource: async () => ({ planner, maxSteps: 10, policies }), ...(person && { supervisor: person }) });
      const events: TaskEvent[] = [];
      runner.on((event) => events.push(event));
      return { executor, events, done: runner.run({ serial: 'phone', goal: flow.goal }) };
    };
    // The tap was the retry's last step, so planning it closed the block: the failure seen on the next look still retries.
    const failingOnce = retried();
    const record = await failingOnce.done;
    expect(failingOnce.executor.calls.map(({ call }) => call.name)).toEqual(['tap', 'tap']);
    expect(record.status).toBe('completed');
    const steps = foldFlowRun(flow, failingOnce.events).steps;
    expect(steps.map((result) => [result.status, result.detail])).toEqual([
      ['passed', 'passed on try 2'],
      ['passed', '"Save" is on screen'],
    ]);
    // A person who says no is not asked again by the retry: the flow stops at the step.
    const asked: SupervisorRequest[] = [];
    const sayingNo: SupervisorPort = {
      ask: async (request) => {
        asked.push(request);
        return { reply: { kind: 'deny' }, by: 'person' };
      },
    };
    const refusedOnce = retried(sayingNo);
    const refused = await refusedOnce.done;
    expect(asked).toHaveLength(1);
    expect(refusedOnce.executor.calls).toEqual([]);
    expect(refused.status).toBe('failed');
  });
});
