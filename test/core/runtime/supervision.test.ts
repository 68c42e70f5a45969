// The runner's supervision with in-memory ports: the loop guard, budgets (counting planner calls), verified
// outcomes, ask_user / hand_over, sensitive-action confirmations, resume notes, standing instructions and scope,
// and the events each decision leaves (who decided, when).
import { describe, expect, it } from 'vitest';
import type { Scene } from '../../../src/shared/scene';
import { TaskEventSchema, TaskRecordSchema, applyTaskEvent, newTaskRecord, type PersonReply, type PersonRequest, type PlannedStep, type TaskEvent } from '../../../src/shared/task';
import { TaskRunner, type ConfiguredPlanner } from '../../../src/core/runtime/task-runner';
import { isAction } from '../../../src/shared/turns';
import { presetSupervisor, type SupervisorPort, type SupervisorRequest } from '../../../src/core/runtime/supervisor';
import { DEFAULT_TASK_POLICIES, type TaskPolicies } from '../../../src/core/runtime/task-policies';
import type { Planner } from '../../../src/core/runtime/planner';
import { act, done, FakeExecutor, FakeObserver, ScriptedPlanner, sceneWith, step } from './doubles';
import { wordsFor } from '../../../src/shared/i18n/translate';
import { wordSaid } from '../../../src/shared/said';
import { guardMessage, loopDescription, saidWords, supervisionLines } from '../../../src/shared/supervision-words';

/** A person who answers from a script (one reply per request, the last repeating) and records what was asked. */
class ScriptedPerson implements SupervisorPort {
  asked: SupervisorRequest[] = [];
  constructor(private readonly replies: Array<PersonReply | ((request: SupervisorRequest) => PersonReply)>) {}
  async ask(request: SupervisorRequest) {
    this.asked.push(request);
    const next = this.replies[Math.min(this.asked.length - 1, this.replies.length - 1)]!;
    return { reply: typeof next === 'function' ? next(request) : next, by: 'person' as const };
  }
}

function runnerWith(planner: Planner, parts: { observer?: FakeObserver; executor?: FakeExecutor; policies?: Partial<TaskPolicies>; supervisor?: SupervisorPort; now?: () => number } = {}) {
  const observer = parts.observer ?? new FakeObserver();
  const executor = parts.executor ?? new FakeExecutor();
  const configured: ConfiguredPlanner = { planner, maxSteps: 30, policies: { ...DEFAULT_TASK_POLICIES, ...parts.policies } };
  const runner = new TaskRunner({ observer, executor, plannerSource: async () => configured, ...(parts.supervisor && { supervisor: parts.supervisor }), ...(parts.now && { now: parts.now }) });
  const events: TaskEvent[] = [];
  runner.on((event) => events.push(event));
  return { runner, observer, executor, events };
}

const request = { serial: 'emulator-5554', goal: 'Reply to Bob' };
const usage = { inputTokens: 1000, outputTokens: 100 };
const of = <T extends TaskEvent['type']>(events: TaskEvent[], type: T) => events.filter((e): e is Extract<TaskEvent, { type: T }> => e.type === type);

/** A planner whose every call costs `usage`, as the AI planner's calls do. */
function spendingPlanner(next: (turn: number) => PlannedStep | null) {
  return new ScriptedPlanner((input) => {
    const planned = next(input.step);
    if (planned) return act({ ...planned, usage });
    return { kind: 'finish', success: true, reason: 'done', call: { ...step('finish_task', { success: true, reason: 'done' }), usage } };
  });
}

/** Scenes that differ every observation (a long list scrolling): never a loop. */
function changingScenes(): FakeObserver {
  let n = 0;
  return new FakeObserver([() => sceneWith(`Item ${(n += 1)}`)]);
}

const messagesScene = (): Scene => ({
  screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.android.messaging', keyboardShown: true },
  elements: [
    { id: 'e1', type: 'EditText', text: 'Running late', resourceId: 'compose_message_text', bounds: [0, 2000, 900, 2100], editable: true, focused: true },
    { id: 'e2', type: 'ImageButton', desc: 'Send SMS', resourceId: 'send_message_button', bounds: [900, 2000, 1080, 2100], clickable: true },
  ],
});

describe('loop and stall guard', () => {
  it('Scenario: A repeated action that changes nothing is pointed out to the model', async () => {
    const planner = new ScriptedPlanner((input) => (input.step <= 3 ? act(step('launch_app', { app: 'Settings' })) : done()));
    const { runner, events } = runnerWith(planner, { policies: { loop: { warnAfter: 2, stopAfter: 5 } } });
    const record = await runner.run(request);
    expect(record.status).toBe('completed');
    // Turn 3 has seen two unchanged repeats: its prompt carries the warning, naming the action and the count.
    expect(planner.inputs[1]!.notices).toBeUndefined();
    expect(planner.inputs[2]!.notices?.[0]).toMatch(/you are in a loop \(Opened Settings 2 times in a row and the screen did not change\).*try something else/);
    const warned = of(events, 'guard.decided');
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ guard: 'loop', finding: 'repeat', decision: 'warn', by: 'runtime', step: 3 });
  });

  it('Scenario: Back and forth between two screens is pointed out to the model', async () => {
    const observer = new FakeObserver([sceneWith('List'), sceneWith('Alice'), sceneWith('List'), sceneWith('Alice'), sceneWith('List')]);
    const planner = new ScriptedPlanner((input) => (input.step <= 4 ? act(step(input.step % 2 ? 'tap' : 'press_key', input.step % 2 ? { element_id: 'e1' } : { key: 'back' })) : done()));
    const { runner, events } = runnerWith(planner, { observer, policies: { loop: { warnAfter: 2, stopAfter: 9 } } });
    await runner.run(request);
    expect(planner.inputs[3]!.notices?.[0]).toMatch(/going back and forth between the same two screens/);
    expect(of(events, 'guard.decided')[0]).toMatchObject({ guard: 'loop', finding: 'alternation', decision: 'warn' });
  });

  it('Scenario: A loop that goes on is put to the person, and fails the task when no one can answer', async () => {
    const planner = spendingPlanner(() => step('launch_app', { app: 'Settings' }));
    const { runner, events } = runnerWith(planner, { policies: { loop: { warnAfter: 2, stopAfter: 3 } } });
    const record = await runner.run(request);
    expect(record.status).toBe('failed');
    expect(record.failureReason).toBe('stopped a loop: Opened Settings 3 times in a row and the screen did not change; no person is present to answer');
    // Three actions, then the fourth observation finds the loop: no fourth model call.
    expect(planner.inputs).toHaveLength(3);
    expect(of(events, 'person.asked')[0]!.request).toEqual({
      kind: 'loop',
      description: 'Opened Settings 3 times in a row and the screen did not change',
      descriptionSaid: { code: 'loop.repeat', values: { action: 'Opened Settings', count: 3, actionCall: JSON.stringify({ tool: 'launch_app', args: { app: 'Settings' }, mood: 'done' }) } },
    });
    // A Chinese reader gets the action in Chinese words too, not the English "Opened Settings".
    expect(loopDescription(of(events, 'person.asked')[0]!.request as Extract<PersonRequest, { kind: 'loop' }>, wordsFor('zh-CN'))).toBe('打开了 Settings 连续 3 次，屏幕没有变化');
    expect(of(events, 'person.answered')[0]).toMatchObject({ by: 'no-one-present', reply: { kind: 'unanswered' } });
  });

  it('Scenario: The person lets a looping task go on', async () => {
    const person = new ScriptedPerson([{ kind: 'continue', note: 'The app is slow today, keep trying' }]);
    const planner = new ScriptedPlanner((input) => (input.step <= 4 ? act(step('wait', { seconds: 1 })) : done()));
    const { runner } = runnerWith(planner, { supervisor: person, policies: { loop: { warnAfter: 2, stopAfter: 3 } } });
    const record = await runner.run(request);
    expect(record.status).toBe('completed');
    expect(person.asked).toHaveLength(1);
    expect(planner.inputs[3]!.notices).toContain('The person saw you looping and said: "The app is slow today, keep trying"');
  });
});

describe('failure reasons in the window language', () => {
  it("Scenario: A task's failure reason carries its code, and a window in Chinese words it", async () => {
    const chinese = wordsFor('zh-CN');
    const spent = await runnerWith(spendingPlanner(() => step('swipe', { direction: 'up' })), { observer: changingScenes(), policies: { maxTokens: 5000 } }).runner.run(request);
    expect(spent.failureSaid).toEqual({ code: 'budget.tokensWouldPass', values: { used: '4,400', max: '5,000' } });
    expect(wordSaid(spent.failureReason!, spent.failureSaid, chinese)).toBe('token 预算已用完：已用 4,400 / 5,000 token（下一次调用模型就会超出）');

    const person = new ScriptedPerson([{ kind: 'stop' }]);
    const stopped = await runnerWith(spendingPlanner(() => step('launch_app', { app: 'Settings' })), { supervisor: person, policies: { loop: { warnAfter: 2, stopAfter: 3 } } }).runner.run(request);
    expect(stopped.status).toBe('cancelled');
    expect(stopped.failureReason).toBe('stopped by the user');
    expect(wordSaid(stopped.failureReason!, stopped.failureSaid, chinese)).toBe('你停止了任务');
    // A reason the runtime did not word (the model's own, giving up) keeps its words (and has no code).
    const gaveUp = await runnerWith(new ScriptedPlanner(() => ({ kind: 'finish', success: false, reason: 'Bob is not in the contacts', call: null }))).runner.run(request);
    expect(gaveUp.failureSaid).toBeUndefined();
    expect(wordSaid(gaveUp.failureReason!, gaveUp.failureSaid, chinese)).toBe('Bob is not in the contacts');
  });
});

describe('budgets', () => {
  it('Scenario: The token budget stops a task with no extra model call', async () => {
    const planner = spendingPlanner(() => step('swipe', { direction: 'up' }));
    const { runner, events } = runnerWith(planner, { observer: changingScenes(), policies: { maxTokens: 5000 } });
    const record = await runner.run(request);
    expect(record.status).toBe('failed');
    // 4 calls use 4,400 tokens; a fifth (1,100) would pass 5,000: it is not made.
    expect(planner.inputs).toHaveLength(4);
    expect(record.failureReason).toBe('token budget reached: 4,400 of 5,000 tokens used (the next model call would pass it)');
    expect(of(events, 'guard.decided').at(-1)).toMatchObject({ guard: 'budget', finding: 'tokens', decision: 'stop', by: 'runtime' });
    // The last planned step was executed: the task ended between turns, not by discarding a decision.
    expect(record.steps.filter((s) => s.planned && !s.outcome)).toEqual([]);
  });

  it('Scenario: The cost budget stops a task with no extra model call', async () => {
    const planner = spendingPlanner(() => step('swipe', { direction: 'up' }));
    // 1,000 in + 100 out at $3/$15 per million = $0.0045 per call; a cap of 1 cent allows two.
    const price = { model: 'scripted', input: 3, output: 15 };
    const { runner } = runnerWith(planner, { observer: changingScenes(), policies: { maxCostUsd: 0.01, price } });
    const record = await runner.run(request);
    expect(planner.inputs).toHaveLength(2);
    expect(record.failureReason).toBe('cost budget reached: $0.0090 of $0.010 spent (the next model call would pass it)');
    expect(record.costUsd).toBeCloseTo(0.009, 6);
    expect(record.steps.map((s) => s.planned?.costUsd)).toEqual([0.0045, 0.0045]);
  });

  it('Scenario: The time budget stops a task with no extra model call', async () => {
    let clock = 1_000_000;
    const planner = new ScriptedPlanner(() => {
      clock += 40_000; // each decision takes 40 s of the agent's time
      return act(step('swipe', { direction: 'up' }));
    });
    const { runner } = runnerWith(planner, { observer: changingScenes(), now: () => clock, policies: { maxDurationMs: 120_000 } });
    const record = await runner.run(request);
    expect(planner.inputs).toHaveLength(3);
    expect(record.failureReason).toBe('time budget reached: the agent worked 2 min of its 2 min');
  });

  it('time spent waiting for the person does not count against the time budget', async () => {
    let clock = 0;
    const person: SupervisorPort = {
      ask: async () => {
        clock += 10 * 60_000;
        return { reply: { kind: 'answer', text: 'Bob Smith' }, by: 'person' };
      },
    };
    const planner = new ScriptedPlanner((input) => (input.step === 1 ? act(step('ask_user', { question: 'Which Bob?' })) : done()));
    const { runner } = runnerWith(planner, { supervisor: person, now: () => clock, policies: { maxDurationMs: 60_000 } });
    expect((await runner.run(request)).status).toBe('completed');
  });

  it('Scenario: A model without a price has no cost', async () => {
    const planner = spendingPlanner((n) => (n === 1 ? step('swipe', { direction: 'up' }) : null));
    const { runner, events } = runnerWith(planner, { policies: { maxCostUsd: 0.01, price: null } });
    const record = await runner.run(request);
    expect(record.status).toBe('completed');
    expect(record.costUsd).toBeNull();
    expect(of(events, 'step.planned').map((e) => e.costUsd)).toEqual([null, null]);
    expect(of(events, 'guard.decided')[0]).toMatchObject({ guard: 'budget', finding: 'cost', decision: 'allow', message: expect.stringMatching(/scripted has no price in the price table/) });
  });
});

describe("the runtime's own notes in the reader's language", () => {
  it("Scenario: The no-price note and a refusal to start on a busy phone carry codes a Chinese reader words", async () => {
    const zh = wordsFor('zh-CN');
    // A model without a price under a cost limit: the note keeps its English words and carries its code.
    const planner = spendingPlanner((n) => (n === 1 ? step('swipe', { direction: 'up' }) : null));
    const { runner, events } = runnerWith(planner, { policies: { maxCostUsd: 0.01, price: null } });
    const record = await runner.run(request);
    const note = record.supervisionLog.find((entry) => entry.type === 'guard.decided' && entry.guard === 'budget');
    expect(note).toMatchObject({ message: 'scripted has no price in the price table, so its cost is unknown and the cost limit cannot apply', said: { code: 'budget.noPrice', values: { model: 'scripted' } } });
    expect(note?.type === 'guard.decided' && guardMessage(note, zh)).toBe('价目表里没有 scripted 的价格，所以费用未知，费用上限无法生效');
    expect(of(events, 'guard.decided').filter((e) => e.guard === 'budget')).toHaveLength(1);

    // A second task on a phone a task still drives (its model never answers until stopped) is refused by code.
    const waiting = new ScriptedPlanner((_input, context) => new Promise<never>((_resolve, reject) => context.signal?.addEventListener('abort', () => reject(new Error('stopped')))));
    const busy = runnerWith(waiting).runner;
    const first = await busy.start(request);
    const refusal = await busy.start(request).then(
      () => null,
      (error: unknown) => error as { message: string; said?: { code: string; values: Record<string, string> } },
    );
    expect(refusal).toMatchObject({ message: `a task is already running on emulator-5554 (${first.id}); stop it first`, said: { code: 'taskStart.busy', values: { serial: 'emulator-5554', id: first.id } } });
    expect(wordSaid(refusal!.message, refusal!.said, zh)).toBe(`emulator-5554 上已有任务在运行（${first.id}）；请先停止它`);
    first.stop();
    expect((await first.done).status).toBe('cancelled');
  });
});

describe('verified outcomes', () => {
  it("Scenario: Verifications reach the turn's outcome and the planner's history", async () => {
    const before = messagesScene();
    const after: Scene = { ...before, elements: before.elements.map((e) => (e.id === 'e1' ? { ...e, text: 'Running late' } : e)) };
    const empty: Scene = { ...before, elements: before.elements.map((e) => (e.id === 'e1' ? { id: 'e1', type: 'EditText', resourceId: 'compose_message_text', bounds: e.bounds, editable: true, focused: true } : e)) };
    const observer = new FakeObserver([empty, after, after]);
    const planner = new ScriptedPlanner((input) => (input.step === 1 ? act(step('type_text', { text: 'Running late', element_id: 'e1' })) : input.step === 2 ? act(step('tap', { element_id: 'e1' })) : done()));
    const { runner, events } = runnerWith(planner, { observer, policies: { confirmation: 'off' } });
    const record = await runner.run(request);
    expect(of(events, 'step.verified').map((e) => [e.step, e.verification.status, e.verification.fact])).toEqual([
      [1, 'verified', 'EditText "Running late" shows "Running late"'],
      [2, 'not-verified', 'the screen did not change'],
    ]);
    expect(record.steps[0]!.outcome?.verification).toMatchObject({ status: 'verified', check: 'text-in-field', fact: 'EditText "Running late" shows "Running late"' });
    expect(planner.inputs[1]!.history![0]!.outcome.verification?.status).toBe('verified');
  });

  it('Scenario: A success claim with no action taken is completed as not verified', async () => {
    const planner = spendingPlanner(() => null);
    const { runner, events } = runnerWith(planner);
    const record = await runner.run(request);
    expect(record.status).toBe('completed');
    expect(planner.inputs).toHaveLength(1);
    expect(record.verification).toEqual({ status: 'not-verified', check: 'action-taken', fact: 'no action was taken in this task, so nothing confirms the goal was reached', said: { code: 'verify.noAction', values: {} } });
    expect(of(events, 'guard.decided')[0]).toMatchObject({ guard: 'completion', finding: 'no-action-taken', by: 'runtime' });
  });
});

describe('the model asks the person', () => {
  it("Scenario: ask_user's answer joins the history and the task goes on", async () => {
    const person = new ScriptedPerson([{ kind: 'answer', text: 'Bob Smith, the one from work' }]);
    const planner = new ScriptedPlanner((input) => (input.step === 1 ? act(step('ask_user', { question: 'Which Bob?' })) : done()));
    const { runner, events, executor } = runnerWith(planner, { supervisor: person });
    const record = await runner.run(request);
    expect(record.status).toBe('completed');
    expect(executor.calls).toHaveLength(0);
    expect(person.asked[0]).toMatchObject({ step: 1, request: { kind: 'question', question: 'Which Bob?' } });
    expect(planner.inputs[1]!.history![0]!.outcome).toMatchObject({ ok: true, fromPerson: 'Bob Smith, the one from work' });
    const asked = of(events, 'person.asked')[0]!;
    const answered = of(events, 'person.answered')[0]!;
    expect(answered).toMatchObject({ requestId: asked.requestId, by: 'person', reply: { kind: 'answer' } });
    expect(record.pending).toBeNull();
  });

  it('Scenario: ask_user without a person present fails the task with the question', async () => {
    const planner = new ScriptedPlanner(() => act(step('ask_user', { question: 'What is your PIN?' })));
    const { runner } = runnerWith(planner);
    const record = await runner.run(request);
    expect(record.status).toBe('failed');
    expect(record.failureReason).toBe('the model asked "What is your PIN?" and no person is present to answer');
  });

  it('a reply that does not fit the request counts as unanswered', async () => {
    const person = new ScriptedPerson([{ kind: 'allow', scope: 'once' }]);
    const planner = new ScriptedPlanner(() => act(step('ask_user', { question: 'Which Bob?' })));
    const record = await runnerWith(planner, { supervisor: person }).runner.run(request);
    expect(record.failureReason).toBe('the model asked "Which Bob?" and the reply did not fit the question request');
  });

  it('Scenario: Why nobody answered carries its code with its values, and a Chinese reader words it', async () => {
    const zh = wordsFor('zh-CN');
    // A person whose reply does not fit the question, and a supervisor that cannot reach anyone.
    const unfit = await runnerWith(new ScriptedPlanner(() => act(step('ask_user', { question: 'Which Bob?' }))), { supervisor: new ScriptedPerson([{ kind: 'allow', scope: 'once' }]) }).runner.run(request);
    expect(unfit.failureSaid).toMatchObject({ code: 'refusal.questionUnanswered' });
    expect(saidWords(unfit.failureReason!, unfit.failureSaid, zh)).toBe('模型问了“Which Bob?”，但回复与所提的请求（question）不符');
    const answered = unfit.supervisionLog.find((entry) => entry.type === 'person.answered');
    expect(answered?.type === 'person.answered' && answered.reply).toMatchObject({ kind: 'unanswered', reasonSaid: { code: 'refusal.replyDidNotFit', values: { kind: 'question' } } });
    expect(supervisionLines(unfit.supervisionLog, zh).at(-1)?.text).toContain('回复与所提的请求（question）不符');

    const unreachable: SupervisorPort = { ask: async () => Promise.reject(new Error('the window closed')) };
    const lost = await runnerWith(new ScriptedPlanner(() => act(step('hand_over', { reason: 'Log in' }))), { supervisor: unreachable }).runner.run(request);
    expect(lost.failureReason).toBe('the model handed the phone over ("Log in") and the request could not reach a person (Error: the window closed)');
    expect(saidWords(lost.failureReason!, lost.failureSaid, zh)).toBe('模型把手机交给了你（“Log in”），但请求没能送到人那里（Error: the window closed）');
  });

  it('Scenario: hand_over waits for the person and resumes with a fresh observation', async () => {
    const observer = new FakeObserver([sceneWith('Sign in'), sceneWith('Inbox')]);
    const person = new ScriptedPerson([{ kind: 'continue', note: 'I logged in' }]);
    const planner = new ScriptedPlanner((input) => (input.step === 1 ? act(step('hand_over', { reason: 'Log in to your account' })) : done()));
    const { runner, events } = runnerWith(planner, { observer, supervisor: person });
    const record = await runner.run(request);
    expect(record.status).toBe('completed');
    expect(person.asked[0]!.request).toEqual({ kind: 'hand-over', reason: 'Log in to your account' });
    expect(planner.inputs[1]!.scene?.elements[0]?.text).toBe('Inbox');
    expect(planner.inputs[1]!.history![0]!.outcome.fromPerson).toBe('I logged in');
    expect(of(events, 'person.answered')[0]!.reply).toEqual({ kind: 'continue', note: 'I logged in' });
  });

  it('Stop during a hand-over ends the task cancelled', async () => {
    const person = new ScriptedPerson([{ kind: 'stop' }]);
    const planner = new ScriptedPlanner(() => act(step('hand_over', { reason: 'Solve the captcha' })));
    const record = await runnerWith(planner, { supervisor: person }).runner.run(request);
    expect(record.status).toBe('cancelled');
  });

  it('Scenario: A note given on resume reaches the planner', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const planner = new ScriptedPlanner(async (input) => {
      if (input.step === 1) {
        await gate;
        return act(step('swipe', { direction: 'up' }));
      }
      return done();
    });
    const { runner, events } = runnerWith(planner, { observer: changingScenes() });
    const handle = await runner.start(request);
    handle.pause();
    release();
    await expect.poll(() => events.some((e) => e.type === 'task.paused')).toBe(true);
    handle.resume('I logged in myself');
    const record = await handle.done;
    expect(record.status).toBe('completed');
    expect(of(events, 'task.resumed')[0]!.note).toBe('I logged in myself');
    expect(planner.inputs[1]!.notices).toEqual(['The person paused the task, may have used the phone, and resumed it saying: "I logged in myself"']);
    expect(record.supervisionLog.map((e) => e.type)).toEqual(['task.resumed']);
  });
});

describe('confirmation of sensitive actions', () => {
  const sendPlanner = () =>
    new ScriptedPlanner((input) => (input.history?.some((h) => h.tool === 'tap') ? done() : act(step('tap', { element_id: 'e2' }, 'Sending the reply.'))));

  it("Scenario: A denied action becomes the turn's outcome and the model goes on", async () => {
    const person = new ScriptedPerson([{ kind: 'deny' }]);
    const planner = sendPlanner();
    const { runner, executor, events } = runnerWith(planner, { observer: new FakeObserver([messagesScene()]), supervisor: person });
    const record = await runner.run(request);
    expect(executor.calls).toHaveLength(0);
    expect(record.status).toBe('completed');
    const asked = person.asked[0]!.request;
    expect(asked).toMatchObject({ kind: 'confirmation', tool: 'tap', rationale: 'Sending the reply.', target: { elementId: 'e2', bounds: [900, 2000, 1080, 2100] } });
    expect(asked.kind === 'confirmation' && asked.reasons).toEqual(['it taps ImageButton "Send SMS" (send)']);
    expect(planner.inputs[1]!.history![0]!.outcome).toMatchObject({ ok: false, error: 'the person denied this action' });
    expect(of(events, 'guard.decided')[0]).toMatchObject({ guard: 'policy', finding: 'sensitive-action', decision: 'ask', by: 'policy' });
  });

  it("Scenario: A denied action is not counted as an action, nor the person's time to decide as act time", async () => {
    // The person takes a moment to decide; the turn still records no act time, because nothing ran.
    const person = new ScriptedPerson([]);
    person.ask = async (asked) => {
      person.asked.push(asked);
      await new Promise((resolve) => setTimeout(resolve, 40));
      return { reply: { kind: 'deny' }, by: 'person' as const };
    };
    const { runner, events } = runnerWith(sendPlanner(), { observer: new FakeObserver([messagesScene()]), supervisor: person });
    const record = await runner.run(request);
    const denied = of(events, 'step.executed')[0]!;
    expect(denied.outcome).toMatchObject({ ok: false, error: 'the person denied this action', durationMs: 0 });
    expect(denied.executeMs).toBe(0);
    expect(record.timings.executeMs).toBe(0);
    expect(record.steps.filter(isAction)).toHaveLength(0);
  });

  it('Scenario: Deny and stop keeps the action from the phone and ends the task', async () => {
    const person = new ScriptedPerson([{ kind: 'stop' }]);
    const { runner, executor } = runnerWith(sendPlanner(), { observer: new FakeObserver([messagesScene()]), supervisor: person });
    const record = await runner.run(request);
    expect(person.asked[0]!.request.kind).toBe('confirmation');
    expect(executor.calls).toHaveLength(0);
    expect(record.status).toBe('cancelled');
  });

  it('Scenario: Allow for the rest of the task stops the questions', async () => {
    const person = new ScriptedPerson([{ kind: 'allow', scope: 'task' }]);
    const planner = new ScriptedPlanner((input) => (input.step === 2 ? act(step('press_key', { key: 'back' })) : input.step <= 3 ? act(step('tap', { element_id: 'e2' })) : done()));
    const { runner, executor, events } = runnerWith(planner, { observer: new FakeObserver([messagesScene(), sceneWith('Sent'), messagesScene(), sceneWith('Sent')]), supervisor: person });
    await runner.run(request);
    expect(person.asked).toHaveLength(1);
    expect(executor.calls.map((c) => c.call.name)).toEqual(['tap', 'press_key', 'tap']);
    expect(of(events, 'guard.decided').map((e) => [e.finding, e.decision, e.by])).toContainEqual(['allowed-for-task', 'allow', 'preset']);
  });

  it('Scenario: A sensitive action without a person present fails the task naming it', async () => {
    const { runner, executor } = runnerWith(sendPlanner(), { observer: new FakeObserver([messagesScene()]) });
    const record = await runner.run(request);
    expect(executor.calls).toHaveLength(0);
    expect(record.status).toBe('failed');
    expect(record.failureReason).toBe('Tap \'Send SMS\' needs a person\'s yes (it taps ImageButton "Send SMS" (send)) and no person is present to answer');
  });

  it('Scenario: Step mode asks before every action and off never asks', async () => {
    const planner = () => new ScriptedPlanner((input) => (input.step === 1 ? act(step('swipe', { direction: 'up' })) : done()));
    const stepMode = new ScriptedPerson([{ kind: 'allow', scope: 'once' }]);
    await runnerWith(planner(), { supervisor: stepMode, policies: { confirmation: 'every' } }).runner.run(request);
    expect(stepMode.asked.map((r) => r.request.kind === 'confirmation' && r.request.reasons)).toEqual([['step mode: every action waits for your yes']]);
    const off = new ScriptedPerson([{ kind: 'deny' }]);
    const { runner, executor } = runnerWith(sendPlanner(), { observer: new FakeObserver([messagesScene()]), supervisor: off, policies: { confirmation: 'off' } });
    await runner.run(request);
    expect(off.asked).toHaveLength(0);
    expect(executor.calls).toHaveLength(1);
  });

  it('answers given in advance decide as "preset"; the rest falls through to the person', async () => {
    const person = new ScriptedPerson([{ kind: 'continue' }]);
    const planner = new ScriptedPlanner((input) =>
      input.step === 1 ? act(step('ask_user', { question: 'Which Bob?' })) : input.step === 2 ? act(step('tap', { element_id: 'e2' })) : input.step === 3 ? act(step('hand_over', { reason: 'Log in' })) : done(),
    );
    const { runner, events, executor } = runnerWith(planner, { observer: new FakeObserver([messagesScene()]), supervisor: presetSupervisor({ allowActions: true, answers: ['Bob Smith'] }, person) });
    expect((await runner.run(request)).status).toBe('completed');
    expect(of(events, 'person.answered').map((e) => e.by)).toEqual(['preset', 'preset', 'person']);
    expect(executor.calls).toHaveLength(1);
  });
});

describe('standing instructions and scope', () => {
  it('Scenario: Standing instructions reach every prompt apart from the goal', async () => {
    const planner = new ScriptedPlanner((input) => (input.step === 1 ? act(step('swipe', { direction: 'up' })) : done()));
    const { runner, executor } = runnerWith(planner, { observer: changingScenes(), policies: { standingInstructions: 'My name is Ana. Never buy anything.' } });
    await runner.run({ ...request, allowedApps: ['com.example'] });
    expect(planner.inputs.map((i) => [i.standingInstructions, i.allowedApps, i.goal])).toEqual([
      ['My name is Ana. Never buy anything.', ['com.example'], 'Reply to Bob'],
      ['My name is Ana. Never buy anything.', ['com.example'], 'Reply to Bob'],
    ]);
    expect(executor.calls[0]!.context.allowedApps).toEqual(['com.example']);
  });

  it('Scenario: Acting in an app outside the allowed apps needs a yes', async () => {
    const person = new ScriptedPerson([{ kind: 'deny' }]);
    const planner = new ScriptedPlanner((input) => (input.step === 1 ? act(step('tap', { element_id: 'e1' })) : done()));
    const { runner, events } = runnerWith(planner, { supervisor: person });
    await runner.run({ ...request, allowedApps: ['com.android.contacts'] });
    expect(of(events, 'guard.decided')[0]).toMatchObject({ guard: 'scope', finding: 'outside-allowed-apps', decision: 'ask' });
    expect(person.asked[0]!.request).toMatchObject({ reasons: ["it acts in com.example, which is not among this task's allowed apps"] });
  });

  it('an entry that is neither an app name nor a package name is refused before the task starts', async () => {
    const { runner } = runnerWith(new ScriptedPlanner(() => done()));
    await expect(runner.run({ ...request, allowedApps: ['$(reboot)'] })).rejects.toThrow(/allowedApps\.0: must be an app name such as Contacts or a package name/);
  });

  it('Scenario: An allowed app given by its name counts as its package', async () => {
    const person = new ScriptedPerson([{ kind: 'deny' }]);
    const planner = new ScriptedPlanner((input) => (input.step === 1 ? act(step('tap', { element_id: 'e1' })) : done()));
    // The Scene's app is com.example: "Example" names it, "Contacts" does not.
    const allowed = runnerWith(planner, { supervisor: person });
    await allowed.runner.run({ ...request, allowedApps: ['Example'] });
    expect(of(allowed.events, 'guard.decided')).toEqual([]);
    const other = runnerWith(new ScriptedPlanner((input) => (input.step === 1 ? act(step('tap', { element_id: 'e1' })) : done())), { supervisor: new ScriptedPerson([{ kind: 'deny' }]) });
    await other.runner.run({ ...request, allowedApps: ['Contacts'] });
    expect(of(other.events, 'guard.decided')[0]).toMatchObject({ finding: 'outside-allowed-apps' });
  });
});

describe('supervision events', () => {
  it('Scenario: Every supervision decision is an event with who decided and when', async () => {
    const person = new ScriptedPerson([{ kind: 'answer', text: 'Bob Smith' }, { kind: 'deny' }]);
    const planner = new ScriptedPlanner((input) => (input.step === 1 ? act(step('ask_user', { question: 'Which Bob?' })) : input.step === 2 ? act(step('tap', { element_id: 'e2' })) : done()));
    const { runner, events } = runnerWith(planner, { observer: new FakeObserver([messagesScene()]), supervisor: person });
    const record = await runner.run(request);
    for (const event of events) expect(TaskEventSchema.safeParse(event).success, event.type).toBe(true);
    const folded = events.reduce(applyTaskEvent, newTaskRecord({ id: record.id, goal: record.goal, serial: record.serial, planner: record.planner, maxSteps: 30, createdAt: record.createdAt }));
    expect(TaskRecordSchema.parse(folded)).toEqual(record);
    expect(record.supervisionLog.map((e) => [e.type, 'by' in e ? e.by : null])).toEqual([
      ['person.asked', null],
      ['person.answered', 'person'],
      ['guard.decided', 'policy'],
      ['person.asked', null],
      ['person.answered', 'person'],
    ]);
    expect(record.supervisionLog.every((e) => e.at > 0)).toBe(true);
    expect(record.supervision).toEqual({ allowedApps: null, confirmation: 'sensitive', standingInstructions: '' });
    expect(record.limits).toEqual({ maxSteps: 30, maxTokens: null, maxCostUsd: null, maxDurationMs: null });
  });

  it('a question still waiting is the record\'s pending request', async () => {
    let answer: (reply: PersonReply) => void = () => undefined;
    const person: SupervisorPort = { ask: () => new Promise((resolve) => (answer = (reply) => resolve({ reply, by: 'person' }))) };
    const planner = new ScriptedPlanner((input) => (input.step === 1 ? act(step('ask_user', { question: 'Which Bob?' })) : done()));
    const { runner } = runnerWith(planner, { supervisor: person });
    const handle = await runner.start(request);
    await expect.poll(() => runner.activeTasks()[0]?.pending?.request).toEqual({ kind: 'question', question: 'Which Bob?' });
    answer({ kind: 'answer', text: 'Bob Smith' });
    expect((await handle.done).pending).toBeNull();
  });

  it('Stop while waiting for a person ends the task cancelled at once', async () => {
    const person: SupervisorPort = { ask: () => new Promise(() => undefined) };
    const planner = new ScriptedPlanner(() => act(step('ask_user', { question: 'Which Bob?' })));
    const { runner } = runnerWith(planner, { supervisor: person });
    const handle = await runner.start(request);
    await expect.poll(() => runner.activeTasks()[0]?.pending).not.toBeNull();
    handle.stop();
    const record = await handle.done;
    expect(record.status).toBe('cancelled');
    expect(record.pending).toBeNull();
  });
});
