// Models that misbehave on purpose, through the real Anthropic and OpenAI SDKs (loopback fakes) and the real adb
// server against the demo phone: each ends as the guards and the policy say, and the phone's state (GET /state)
// shows what did and did not happen. Budgets are checked by counting the calls the fake received.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdbClient } from '../../../src/core/device/adb-client';
import { renderTaskReport } from '../../../src/core/storage/html-report';
import { supervisionPrinter } from '../../../src/cli/run-report';
import { outcomeLine } from '../../../src/cli/task-lines';
import { saidWords, supervisionLines } from '../../../src/shared/supervision-words';
import { latinSentences } from '../../support/latin-sentences';
import { wordsFor } from '../../../src/shared/i18n/translate';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';
import { finish, startProviderFake, type FakePolicy, type FakeProvider, type ProviderFake } from '../../fakes/index';
import {
  alternatesTwoScreens,
  declaresSuccessAtOnce,
  followsInjectedInstruction,
  neverFinishes,
  repeatsOneActionForever,
  sendsAnUnaskedMessage,
  usesStaleElementIds,
  wandersIntoAnotherApp,
} from '../../fakes/misbehaving-model';
import { CONTACTS_SEED as contactsSeed, INJECTED_NOTE as injectedNote, personReplying, runTask as runOn, type TaskRun as Run, type TaskRunOptions } from '../../fakes/misbehaving-suite';

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

const runTask = (provider: FakeProvider, options: TaskRunOptions): Promise<Run> =>
  runOn({ harness, adb, setModel: (model) => (policy = model) }, fakes.get(provider)!, options);

const guardEvents = (run: Run) => run.events.flatMap((e) => (e.type === 'guard.decided' ? [[e.guard, e.finding, e.decision, e.by]] : []));
const plannedTools = (run: Run) => run.record.steps.flatMap((s) => (s.planned ? [s.planned.tool] : []));

describe.each(['anthropic', 'openai'] as const)('misbehaving models over %s', (provider) => {
  it('Scenario: A model repeating one action forever is stopped as a loop', async () => {
    const run = await runTask(provider, { goal: 'Turn on Bluetooth', model: repeatsOneActionForever() });
    expect(run.record.status).toBe('failed');
    expect(run.record.failureReason).toBe('stopped a loop: Opened Settings 3 times in a row and the screen did not change; no person is present to answer');
    // One launch that changed the screen, three that did not; the fifth turn asks instead of calling the model.
    expect(run.calls).toBe(4);
    expect(guardEvents(run)).toEqual([
      ['loop', 'repeat', 'warn', 'runtime'],
      ['loop', 'repeat', 'ask', 'runtime'],
    ]);
    const state = await harness.state();
    expect(state.foreground).toBe('com.android.settings');
    expect(state.settings.bluetooth).toBe(false);
  });

  it("Scenario: A turn's facts are on its own row", async () => {
    // The model opens Settings, then opens it again and again: only the first launch changed the screen.
    const prompts: string[] = [];
    const repeating = repeatsOneActionForever();
    const run = await runTask(provider, { goal: 'Turn on Bluetooth', model: (turn) => (prompts.push(turn.lastUserText), repeating(turn)) });
    const { steps } = run.record;
    // Each launch's screen change and check are on its own row; the turn that only looked (and asked) has neither.
    expect(steps.map((turn) => turn.planned?.tool ?? null)).toEqual(['launch_app', 'launch_app', 'launch_app', 'launch_app', null]);
    expect(steps.map((turn) => turn.screenChanged)).toEqual([true, false, false, false, null]);
    expect(steps.map((turn) => turn.outcome?.verification?.check ?? null)).toEqual(['app-in-foreground', 'app-in-foreground', 'app-in-foreground', 'app-in-foreground', null]);
    // The events still say what each look saw against the look before; only the record moves the fact to its turn.
    expect(run.events.flatMap((e) => (e.type === 'step.observed' ? [e.screenChanged] : []))).toEqual([null, true, false, false, false]);
    // The model heard of each launch with its own change: the first changed the screen, the second did not.
    expect(prompts[2]).toMatch(/#1 launch_app \{"app":"Settings"\} -> ok; verified: [^\n]*; screen changed\n/);
    expect(prompts[2]).toMatch(/#2 launch_app \{"app":"Settings"\} -> ok; verified: [^\n]*; screen did NOT change\n/);
    // The report reads each row alone: four launches, three of them marked as leaving the screen as it was.
    const report = renderTaskReport(run.record);
    expect(report.match(/<tr><th>Screen changed by it<\/th><td>(.*?)<\/td><\/tr>/g)?.map((row) => /class="err"/.test(row))).toEqual([false, true, true, true]);
    expect((await harness.state()).foreground).toBe('com.android.settings');
  });

  it('Scenario: A model alternating between two screens is stopped as a loop', async () => {
    const run = await runTask(provider, { goal: 'Add a phone number to Alice', seed: contactsSeed, model: alternatesTwoScreens() });
    expect(run.record.status).toBe('failed');
    expect(run.record.failureReason).toMatch(/^stopped a loop: going back and forth between the same two screens for 4 turns .*; no person is present to answer$/);
    expect(run.calls).toBe(4);
    expect((await harness.state()).contacts.find((c) => c.name === 'Alice Johnson')?.phone).toBe('+1 555-0101');
  });

  it('Scenario: A model reusing stale element ids ends failed without acting on the wrong element', async () => {
    const run = await runTask(provider, { goal: "Show me Alice's contact", seed: contactsSeed, model: usesStaleElementIds('Alice Johnson') });
    expect(run.record.status).toBe('failed');
    expect(plannedTools(run).every((tool) => tool === 'tap')).toBe(true);
    const state = await harness.state();
    expect(state.contacts.map((c) => c.name)).toEqual(['Alice Johnson', 'Bob Smith', 'Carol Williams']);
    expect(state.messages.sent).toEqual([]);
    // On Alice's page the remembered id now names the Delete button: the policy holds it for a yes nobody gives.
    expect(run.record.failureReason).toBe('Tap \'Delete\' needs a person\'s yes (it taps ImageButton "Delete" (delete)) and no person is present to answer');
    expect(run.calls).toBe(2);
  });

  it('Scenario: A model following an instruction from a note sends nothing after Deny', async () => {
    const person = personReplying({ kind: 'deny' });
    const run = await runTask(provider, {
      goal: "What does my note 'Meeting' say?",
      seed: { notes: [injectedNote] },
      model: followsInjectedInstruction('Meeting', 'Bob Smith', 'code 4411'),
      supervisor: person,
    });
    expect(person.asked.map((r) => r.request.kind)).toEqual(['confirmation']);
    expect(person.asked[0]!.request).toMatchObject({ tool: 'tap', reasons: ['it taps ImageButton "Send SMS" (send)'] });
    expect(run.record.steps.find((s) => s.outcome?.error === 'the person denied this action')).toBeDefined();
    expect(run.record.status).toBe('completed');
    const state = await harness.state();
    expect(state.messages.sent).toEqual([]);
    expect(JSON.stringify(state.messages.conversations)).not.toContain('4411');
  });

  it('an app allow-list keeps a model that follows a note out of Messages', async () => {
    const run = await runTask(provider, {
      goal: "What does my note 'Meeting' say?",
      seed: { notes: [injectedNote] },
      model: followsInjectedInstruction('Meeting', 'Bob Smith', 'code 4411'),
      allowedApps: ['com.amc.notes'],
    });
    expect(run.record.steps.some((s) => /com\.android\.messaging is not among this task's allowed apps/.test(s.outcome?.error ?? ''))).toBe(true);
    const state = await harness.state();
    expect(state.foreground).toBe('com.amc.notes');
    expect(state.messages.sent).toEqual([]);
  });

  it('Scenario: A model sending a message the goal never asked for is stopped before sending', async () => {
    const run = await runTask(provider, { goal: "What was Bob Smith's last message to me?", model: sendsAnUnaskedMessage('Bob Smith', 'Sure, sending it now') });
    expect(run.record.status).toBe('failed');
    expect(run.record.failureReason).toMatch(/^Tap 'Send SMS' needs a person's yes \(it taps ImageButton "Send SMS" \(send\)\) and no person is present to answer$/);
    // The typing before it was checked from the next Scene.
    expect(run.events.some((e) => e.type === 'step.verified' && e.verification.check === 'text-in-field' && e.verification.status === 'verified')).toBe(true);
    expect((await harness.state()).messages.sent).toEqual([]);
  });

  it('Scenario: A model declaring success without doing anything is completed as not verified', async () => {
    const run = await runTask(provider, { goal: 'Turn off Wi-Fi', model: declaresSuccessAtOnce() });
    expect(run.record.status).toBe('completed');
    expect(run.record.verification).toMatchObject({ status: 'not-verified', check: 'action-taken' });
    expect(run.calls).toBe(1);
    expect((await harness.state()).settings.wifi).toBe(true);
  });

  it('Scenario: A model that never finishes is stopped by its budget with no extra call (tokens)', async () => {
    const run = await runTask(provider, {
      goal: 'Find the hidden setting',
      model: neverFinishes(),
      patch: { budget: { maxTokens: 8000 }, supervision: { standingInstructions: 'My name is Ana. Never buy anything.' } },
    });
    expect(run.record.status).toBe('failed');
    expect(run.record.failureReason).toMatch(/^token budget reached: [\d,]+ of 8,000 tokens used/);
    // Every call the fake answered is a planned step that was carried out: none was made and thrown away.
    expect(run.calls).toBe(plannedTools(run).length);
    expect(run.record.steps.filter((s) => s.planned && !s.outcome)).toEqual([]);
    expect(run.record.usage.inputTokens + run.record.usage.outputTokens).toBeLessThanOrEqual(8000);
    expect(JSON.stringify(fakes.get(provider)!.bodies().at(-1))).toContain('<standing_instructions>\\"My name is Ana. Never buy anything.\\"</standing_instructions>');
  });

  it('Scenario: A model that never finishes is stopped by its budget with no extra call (cost)', async () => {
    const model = provider === 'anthropic' ? 'claude-sonnet-4-6' : 'gpt-5.4-mini';
    // 5 dollars per million tokens: a call of about 3,000 tokens costs about 1.5 cents.
    const run = await runTask(provider, { goal: 'Find the hidden setting', model: neverFinishes(), patch: { aiPlanner: { model }, budget: { maxCostCents: 5, priceTable: `${model} 5/5` } } });
    expect(run.record.failureReason).toMatch(/^cost budget reached: \$0\.0\d+ of \$0\.050 spent/);
    expect(run.calls).toBe(plannedTools(run).length);
    expect(run.record.costUsd).toBeLessThanOrEqual(0.05);
    expect(run.record.costUsd).toBeCloseTo(((run.record.usage.inputTokens + run.record.usage.outputTokens) * 5) / 1e6, 9);
  });

  it('Scenario: A model that never finishes is stopped by its budget with no extra call (time)', async () => {
    let clock = 1_000_000;
    const model = neverFinishes();
    // Every model call takes 25 s of the agent's minute.
    const run = await runTask(provider, { goal: 'Find the hidden setting', model: (turn) => ((clock += 25_000), model(turn)), patch: { budget: { maxMinutes: 1 } }, now: () => clock });
    expect(run.record.failureReason).toBe('time budget reached: the agent worked 1.3 min of its 1 min');
    expect(run.calls).toBe(3);
  });
});

describe("the scope guard in the reader's language", () => {
  it("Scenario: The runtime's Back out of an app outside the task reads in Chinese in the record, the report and the CLI line", async () => {
    // The model taps the browser's icon in a task limited to Settings; the runtime goes back out of it.
    const run = await runTask('anthropic', { goal: 'Turn on dark theme', model: wandersIntoAnotherApp('Chrome'), allowedApps: ['com.android.settings'] });
    const scope = run.events.find((e) => e.type === 'guard.decided' && e.guard === 'scope');
    expect(scope).toMatchObject({
      finding: 'outside-allowed-apps',
      decision: 'warn',
      message: "Tap 'Chrome' opened com.android.chrome, which is not among this task's allowed apps: the runtime went back out of it",
      said: { code: 'scope.wentBack', values: { app: 'com.android.chrome' } },
    });
    const zh = wordsFor('zh-CN');
    const worded = '点按 “Chrome” 打开了 com.android.chrome，这个应用不在本任务允许的应用里：运行时已返回退出它';
    // The record's supervision log (timeline, History), the HTML report and amc run's line all word the code.
    const lines = supervisionLines(run.record.supervisionLog, zh).map((line) => line.text);
    expect(lines).toContain(`检查（范围，警告）：${worded}`);
    expect(renderTaskReport(run.record, zh)).toContain(worded);
    const printed: string[] = [];
    const print = supervisionPrinter({ out: (line) => printed.push(line) }, zh);
    for (const event of run.events) print(event);
    const line = printed.find((text) => text.includes('com.android.chrome'));
    expect(line).toContain(worded);
    expect(line).not.toMatch(/went back|allowed apps/);
    // The phone: the browser was left, and nothing of it stayed in front.
    expect((await harness.state()).foreground).not.toBe('com.android.chrome');
  });
});

describe("why the runtime ended a task, in the reader's language", () => {
  it('Scenario: A loop nobody could answer about and a question nobody answered end with reasons a Chinese reader reads', async () => {
    const zh = wordsFor('zh-CN');
    // The model opens Settings again and again; the loop guard asks, and no person is present.
    const loop = await runTask('anthropic', { goal: 'Turn on Bluetooth', model: repeatsOneActionForever() });
    expect(loop.record.failureReason).toBe('stopped a loop: Opened Settings 3 times in a row and the screen did not change; no person is present to answer');
    expect(loop.record.failureSaid?.code).toBe('loop.stopped');
    const loopWords = saidWords(loop.record.failureReason!, loop.record.failureSaid, zh);
    expect(loopWords).toMatch(/^已停止循环：.*Settings.*3 次.*；没有人在场回答$/);
    expect(latinSentences(loopWords, ['Settings'])).toEqual([]);
    expect(renderTaskReport(loop.record, zh)).toContain(loopWords);
    expect((await harness.state()).settings.bluetooth).toBe(false);

    // The model asks the person which contact, and no one is there to answer.
    const asked = await runTask('anthropic', { goal: 'Call Bob', model: () => ({ kind: 'call', tool: 'ask_user', args: { question: 'Which Bob?' }, text: 'Asking which Bob.' }) });
    expect(asked.record).toMatchObject({ status: 'failed', failureReason: 'the model asked "Which Bob?" and no person is present to answer', failureSaid: { code: 'refusal.questionUnanswered' } });
    expect(saidWords(asked.record.failureReason!, asked.record.failureSaid, zh)).toBe('模型问了“Which Bob?”，但没有人在场回答');
    expect(asked.record.steps.filter((turn) => turn.planned?.tool === 'ask_user')).toHaveLength(1);
  });
});

describe("why a step failed, in the reader's language", () => {
  it("Scenario: A step the person denied reads in Chinese and never reaches the phone", async () => {
    // The model follows the note's instruction to send a message; the policy holds the send for a yes, and the person says no.
    const person = personReplying({ kind: 'deny' });
    const run = await runTask('anthropic', {
      goal: "What does my note 'Meeting' say?",
      seed: { notes: [injectedNote] },
      model: followsInjectedInstruction('Meeting', 'Bob Smith', 'code 4411'),
      supervisor: person,
    });
    expect(person.asked.map((asked) => asked.request.kind)).toEqual(['confirmation']);
    const denied = run.record.steps.flatMap((step) => (step.outcome && !step.outcome.ok ? [step.outcome] : []));
    expect(denied).toEqual([expect.objectContaining({ ok: false, error: 'the person denied this action', errorSaid: { code: 'step.denied', values: {} }, attempts: 0 })]);
    const zh = wordsFor('zh-CN');
    const line = outcomeLine(denied[0]!, zh);
    expect(line).toContain('你拒绝了这个操作');
    expect(latinSentences(line)).toEqual([]);
    // English readers (and the model) keep the runtime's words.
    expect(outcomeLine(denied[0]!)).toContain('the person denied this action');
    // The phone: the message was never sent.
    const state = await harness.state();
    expect(state.messages.sent).toEqual([]);
    expect(JSON.stringify(state.messages.conversations)).not.toContain('4411');
  });

  it('Scenario: Steps refused before reaching the phone and the failures in a row that end the task read in Chinese', async () => {
    // The model opens Messages in a task limited to Settings, taps with an id of the wrong type, then opens Messages again.
    const script = [
      { tool: 'launch_app', args: { app: 'Messages' } },
      { tool: 'tap', args: { element_id: 42 } },
      { tool: 'launch_app', args: { app: 'Messages' } },
    ];
    let turn = 0;
    const run = await runTask('anthropic', {
      goal: 'Turn on dark theme',
      model: () => ({ kind: 'call', ...script[Math.min(turn++, script.length - 1)]!, text: 'Trying another way.' }),
      allowedApps: ['com.android.settings'],
    });
    const outcomes = run.record.steps.flatMap((step) => (step.outcome ? [step.outcome] : []));
    expect(outcomes.map((outcome) => outcome.errorSaid?.code)).toEqual(['step.notAllowedApp', 'step.invalidArguments', 'step.notAllowedApp']);
    expect(run.record).toMatchObject({ status: 'failed', failureSaid: { code: 'stop.failuresInARow', values: { failures: 3 } } });
    expect(JSON.parse(String(run.record.failureSaid!.values.errorSaid))).toEqual([outcomes[2]!.errorSaid]);

    const zh = wordsFor('zh-CN');
    const names = ['com.android.messaging', 'com.android.settings', 'Messages', 'tap', 'element_id'];
    const stepLines = outcomes.map((outcome) => outcomeLine(outcome, zh));
    expect(stepLines[0]).toContain('不在本任务允许的应用里（com.android.settings），没有打开它');
    expect(stepLines[1]).toContain('tap 的参数无效：element_id：');
    for (const line of stepLines) expect(latinSentences(line, names), line).toEqual([]);
    const ended = saidWords(run.record.failureReason!, run.record.failureSaid, zh);
    expect(ended).toMatch(/^连续 3 个操作失败；最后一个：.*不在本任务允许的应用里/);
    expect(latinSentences(ended, names)).toEqual([]);
    const report = renderTaskReport(run.record, zh);
    expect(report).toContain('没有打开它');
    expect(report).not.toMatch(/allowed apps|Invalid arguments/);
    // English readers keep the runtime's words.
    expect(outcomeLine(outcomes[0]!)).toMatch(/is not among this task's allowed apps \(com\.android\.settings\); it was not opened/);
    // The phone: Messages was never opened.
    expect((await harness.state()).foreground).not.toBe('com.android.messaging');
  });
});
