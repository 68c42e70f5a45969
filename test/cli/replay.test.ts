// `amc replay TASK_ID` against the virtual phone (real adb server, real adbkit) after `amc run` with a scripted model
// through the real Anthropic SDK and the loopback fake: replayed without a model call, skipped where the outcome
// already holds, following the locator or stopping where the screen changed, and still asking the person. Every
// outcome is judged from the phone's own state (GET /state).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskEvent, TaskEventOf } from '../../src/shared/task';
import { PHONE_TASKS } from '../../src/eval/tasks/index';
import type { PhoneSeed } from '@amc/demo-phone';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { anthropicDirectEnv, jsonEvents, runAmc } from '../support/cli';
import { finish, findElement, startAnthropicFake, type AnthropicFake, type FakePolicy } from '../fakes/index';
import { labelParts } from '../../src/shared/scene';
import { stepsPolicy, SUITE_SCRIPTS } from '../fakes/suite-agent';
import { latinSentences } from '../support/latin-sentences';

let harness: AdbHarness;
let fake: AnthropicFake;
let home: string;
let policy: FakePolicy = () => finish(true, 'idle');

beforeAll(async () => {
  harness = await startAdbHarness();
  fake = await startAnthropicFake({ policy: (turn) => policy(turn) });
  home = await mkdtemp(path.join(tmpdir(), 'amc-replay-'));
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

const env = () => anthropicDirectEnv(harness, home, fake.url);
const suiteTask = (id: string) => PHONE_TASKS.find((task) => task.id === id)!;
const planned = (all: TaskEvent[]) => all.filter((event): event is TaskEventOf<'step.planned'> => event.type === 'step.planned');
const contactNames = async () => (await harness.state()).contacts.map((contact) => contact.name).sort();

/** Runs a suite task once with the scripted model (allowing its sensitive actions) and returns the recorded task's id. */
async function recordRun(id: string): Promise<string> {
  const task = suiteTask(id);
  await harness.reset(task.seed);
  policy = stepsPolicy(SUITE_SCRIPTS[id]!());
  const run = await runAmc(['run', '-s', harness.serial, '--goal', task.goal, '--json', '--yes'], { env: env() });
  expect(run.code, run.stderr).toBe(0);
  const started = jsonEvents(run.stdout).find((event) => event.type === 'task.started');
  return started!.taskId;
}

async function replay(taskId: string, seed: PhoneSeed, extra: string[] = []) {
  await harness.reset(seed);
  const calls = fake.requests.length;
  const result = await runAmc(['replay', taskId, '-s', harness.serial, '--json', ...extra], { env: env() });
  return { ...result, events: jsonEvents(result.stdout), modelCalls: fake.requests.length - calls };
}

describe('amc replay', { timeout: 120_000 }, () => {
  let wifiOff: string;
  let deleteCarol: string;

  beforeAll(async () => {
    wifiOff = await recordRun('settings-wifi-off');
    deleteCarol = await recordRun('contacts-delete-carol');
  }, 120_000);

  it('Scenario: A successful run is replayed on a reset phone without the model', async () => {
    const result = await replay(wifiOff, suiteTask('settings-wifi-off').seed!);
    expect(result.code, result.stderr).toBe(0);
    expect(result.modelCalls).toBe(0);
    expect((await harness.state()).settings.wifi).toBe(false);
    expect(result.events.find((event) => event.type === 'task.started')).toMatchObject({ planner: { kind: 'replay' } });
    expect(planned(result.events).filter((step) => step.tool !== 'finish_task').map((step) => [step.tool, step.source])).toEqual([
      ['launch_app', 'replayed'],
      ['tap', 'replayed'],
      ['tap', 'replayed'],
    ]);
  });

  it('Scenario: A step whose outcome already holds is skipped, not undone', async () => {
    const result = await replay(wifiOff, { settings: { wifi: false } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.modelCalls).toBe(0);
    // Nothing toggled Wi-Fi back on.
    expect((await harness.state()).settings.wifi).toBe(false);
    const skipped = planned(result.events).find((step) => step.source === 'skipped');
    expect(skipped).toMatchObject({ tool: 'tap', rationale: "Skipped: already done ('Wi-Fi' is off)." });
    const executed = result.events.find((event): event is TaskEventOf<'step.executed'> => event.type === 'step.executed' && event.step === skipped!.step);
    expect(executed?.outcome.attempts).toBe(0);
  });

  it('Scenario: A replay follows the locator when the list order changed', async () => {
    const reordered = [
      { name: 'Carol Williams', phone: '+1 555-0103' },
      { name: 'Aaron Abbott', phone: '+1 555-0100' },
      { name: 'Bob Smith', phone: '+1 555-0102' },
      { name: 'Alice Johnson', phone: '+1 555-0101' },
    ];
    const result = await replay(deleteCarol, { contacts: reordered, contactsPermission: 'granted' }, ['--yes']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.modelCalls).toBe(0);
    expect(await contactNames()).toEqual(['Aaron Abbott', 'Alice Johnson', 'Bob Smith']);
  });

  it('Scenario: A replay without a model stops where a label changed and acts on nothing else', async () => {
    const renamed = [
      { name: 'Alice Johnson', phone: '+1 555-0101' },
      { name: 'Bob Smith', phone: '+1 555-0102' },
      { name: 'Caroline Williams', phone: '+1 555-0103' },
    ];
    const result = await replay(deleteCarol, { contacts: renamed, contactsPermission: 'granted' }, ['--yes', '--planner', 'stub']);
    expect(result.code).toBe(1);
    expect(result.modelCalls).toBe(0);
    const finished = result.events.find((event) => event.type === 'task.finished');
    expect(finished).toMatchObject({ status: 'failed' });
    expect(finished?.type === 'task.finished' && finished.failureReason).toMatch(/^Step 2: no 'Carol Williams' on this screen; I see: .*Caroline Williams/);
    expect(await contactNames()).toEqual(['Alice Johnson', 'Bob Smith', 'Caroline Williams']);
  });

  it('Scenario: Run again without the model never calls the model, even with the AI planner on', async () => {
    const renamed = [
      { name: 'Alice Johnson', phone: '+1 555-0101' },
      { name: 'Bob Smith', phone: '+1 555-0102' },
      { name: 'Caroline Williams', phone: '+1 555-0103' },
    ];
    // The AI planner is on (the environment's settings), and the model would gladly take over: it is never asked.
    policy = () => finish(true, 'Deleted Caroline Williams.');
    const result = await replay(deleteCarol, { contacts: renamed, contactsPermission: 'granted' }, ['--yes']);
    expect(result.modelCalls).toBe(0);
    expect(result.code).toBe(1);
    expect(result.events.find((event) => event.type === 'task.finished')).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/^Step 2: no 'Carol Williams' on this screen/) });
    expect(planned(result.events).map((event) => event.source)).not.toContain('model');
    expect(await contactNames()).toEqual(['Alice Johnson', 'Bob Smith', 'Caroline Williams']);
  });

  it('Scenario: A replay hands a step that diverged to the model, with the flow as a hint', async () => {
    const renamed = [
      { name: 'Alice Johnson', phone: '+1 555-0101' },
      { name: 'Bob Smith', phone: '+1 555-0102' },
      { name: 'Caroline Williams', phone: '+1 555-0103' },
    ];
    policy = () => finish(false, 'There is no contact named Carol Williams here.');
    // "Run again, let the model fix differences": only this asks the model, and the steps it planned say so.
    const result = await replay(deleteCarol, { contacts: renamed, contactsPermission: 'granted' }, ['--yes', '--let-model-fix']);
    expect(result.modelCalls).toBe(1);
    expect(planned(result.events).at(-1)).toMatchObject({ tool: 'finish_task', source: 'fixed' });
    expect(result.stdout).not.toContain('"source":"model"');
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain("A recorded flow for this goal was followed until here and cannot go on: Step 2: no 'Carol Williams' on this screen");
    expect(result.events.find((event) => event.type === 'task.finished')).toMatchObject({ status: 'failed', failureReason: 'There is no contact named Carol Williams here.' });
    expect(await contactNames()).toEqual(['Alice Johnson', 'Bob Smith', 'Caroline Williams']);
  });

  it("Scenario: A replay never taps the page title for the recorded row of that name", async () => {
    // Recorded: in Settings, the row "Network & internet" is tapped, which opens that page (titled the same).
    await harness.reset({});
    policy = (turn) => {
      if (turn.scene?.screen.package !== 'com.android.settings') return { kind: 'call', tool: 'launch_app', args: { app: 'com.android.settings' } };
      const row = turn.scene.elements.find((element) => element.clickable && element.text?.startsWith('Network & internet'));
      return row ? { kind: 'call', tool: 'tap', args: { element_id: row.id } } : finish(true, 'Network & internet is open');
    };
    const run = await runAmc(['run', '-s', harness.serial, '--goal', 'Open Network & internet', '--json'], { env: env() });
    expect(run.code, run.stdout).toBe(0);
    const taskId = jsonEvents(run.stdout).find((event) => event.type === 'task.started')!.taskId;
    const page = async () => (await harness.state()).activity;
    const onPage = await page();

    // Replayed with the phone still on that page: its title reads "Network & internet", but it is not the row.
    const calls = fake.requests.length;
    const result = await runAmc(['replay', taskId, '-s', harness.serial, '--json', '--planner', 'stub'], { env: env() });
    expect(fake.requests.length).toBe(calls);
    const all = jsonEvents(result.stdout);
    const taps = all.filter((event): event is TaskEventOf<'step.executed'> => event.type === 'step.executed' && Boolean(event.outcome.target?.label?.includes('Network & internet')));
    const title = all.find((event): event is TaskEventOf<'step.observed'> => event.type === 'step.observed')?.scene?.elements.find((element) => element.text === 'Network & internet' && !element.clickable);
    expect(title, 'the page shows its title').toBeDefined();
    // Nothing was tapped: what shows that name here is another kind of element than the one recorded.
    expect(taps).toEqual([]);
    expect(result.code).toBe(1);
    expect(all.find((event) => event.type === 'task.finished')).toMatchObject({
      status: 'failed',
      failureReason: expect.stringMatching(/'Network & internet' is not on this screen: what shows that name here is a TextView, not the LinearLayout the flow recorded, so it is not acted on/),
    });
    expect(await page()).toBe(onPage);
  });

  it('Scenario: A sensitive step in a replay still asks the person', async () => {
    // --json without --yes: nobody can answer the confirmation, so the delete never runs.
    const result = await replay(deleteCarol, suiteTask('contacts-delete-carol').seed!);
    expect(result.code).toBe(1);
    const asked = result.events.find((event) => event.type === 'person.asked');
    expect(asked?.type === 'person.asked' && asked.request.kind).toBe('confirmation');
    expect(await contactNames()).toEqual(['Alice Johnson', 'Bob Smith', 'Carol Williams']);
  });

  it("Scenario: A replayed turn's finish is worded in a Chinese terminal", async () => {
    const seed = suiteTask('settings-wifi-off').seed!;
    const lines = async (LANG: string) => {
      await harness.reset(seed);
      const result = await runAmc(['replay', wifiOff, '-s', harness.serial], { env: { ...env(), LANG, LC_ALL: '', LC_MESSAGES: '' } });
      expect(result.code, result.stderr).toBe(0);
      return result.stdout.split('\n').filter((line) => /^\[\d+\] /.test(line));
    };
    // Our own tool's call in words, the reason the replay wrote in Chinese too: no JSON, no English framing.
    const chinese = (await lines('zh_CN.UTF-8')).at(-1)!;
    expect(chinese).toMatch(/^\[\d+\] 结束：目标已达成，理由：流程的每一步都完成了 \(已回放\)$/);
    expect(latinSentences(chinese)).toEqual([]);
    // An English terminal keeps the call as it was.
    expect((await lines('en_US.UTF-8')).at(-1)).toMatch(/^\[\d+\] finish_task \{"success":true,"reason":"every step of the flow is done"\} \(replayed\)$/);
    expect((await harness.state()).settings.wifi).toBe(false);
  });

  it('refuses a task that is not in history, in plain words', async () => {
    const result = await runAmc(['replay', 'no-such-task', '-s', harness.serial], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('there is no task no-such-task in history');
  });
});

/** Two contacts of one name: the list shows only the names, so nothing but their order tells the rows apart. */
const ANN_0222 = { name: 'Ann Lee', phone: '+1 555-0222' };
const ANN_0111 = { name: 'Ann Lee', phone: '+1 555-0111' };
const BOB = { name: 'Bob Smith', phone: '+1 555-0102' };

/**
 * The model deletes the Ann Lee whose number ends in 0222: it opens the rows one by one until the details show that
 * number, deletes it, and reports it as "the second Ann Lee" (which it was on this phone).
 */
function deletesAnnLee0222(): FakePolicy {
  let opened = 0;
  return (turn) => {
    const scene = turn.scene;
    if (scene?.screen.package !== 'com.android.contacts') return { kind: 'call', tool: 'launch_app', args: { app: 'Contacts' }, text: 'Opening Contacts.' };
    const confirm = scene.elements.find((element) => element.window === 'dialog' && element.text === 'Delete');
    if (confirm) return { kind: 'call', tool: 'tap', args: { element_id: confirm.id }, text: 'Confirming the delete.' };
    const details = findElement(scene, /^\+1 555-0\d{3}$/);
    if (details) {
      if (details.text === ANN_0222.phone) return { kind: 'call', tool: 'tap', args: { element_id: findElement(scene, 'Delete')!.id }, text: 'This is the Ann Lee ending 0222: deleting it.' };
      return { kind: 'call', tool: 'press_key', args: { key: 'back' }, text: 'Not this one; back to the list.' };
    }
    const rows = scene.elements.filter((element) => element.clickable && element.text !== undefined && labelParts(element.text)[0] === 'Ann Lee');
    if (opened >= rows.length) return finish(true, 'Deleted the second Ann Lee (+1 555-0222).');
    return { kind: 'call', tool: 'tap', args: { element_id: rows[opened++]!.id }, text: 'Opening an Ann Lee to see the number.' };
  };
}

describe('look-alike rows', { timeout: 120_000 }, () => {
  it('Scenario: A replay on a reordered list of look-alike rows never deletes the other one nor repeats the old answer', async () => {
    await harness.reset({ contacts: [ANN_0111, ANN_0222, BOB], contactsPermission: 'granted' });
    policy = deletesAnnLee0222();
    const recorded = await runAmc(['run', '-s', harness.serial, '--goal', 'Delete the Ann Lee ending 0222', '--json', '--yes'], { env: env() });
    expect(recorded.code, recorded.stderr).toBe(0);
    expect((await harness.state()).contacts).toEqual([ANN_0111, BOB]);
    const taskId = jsonEvents(recorded.stdout).find((event) => event.type === 'task.started')!.taskId;

    // The same two names, the other way round: the 0222 one is now first.
    const result = await replay(taskId, { contacts: [ANN_0222, ANN_0111, BOB], contactsPermission: 'granted' }, ['--yes', '--planner', 'stub']);
    expect(result.code).toBe(1);
    expect(result.modelCalls).toBe(0);
    const finished = result.events.find((event) => event.type === 'task.finished');
    expect(finished).toMatchObject({ status: 'failed', result: null });
    expect(finished?.type === 'task.finished' && finished.failureReason).toBe(`Step 2: this step is a goal for the model ("Tap 'Ann Lee'"), and no AI planner is set up`);
    expect(result.stdout).not.toContain('0222)');
    // Nobody was deleted: both Ann Lees are still there, in their order.
    expect((await harness.state()).contacts).toEqual([ANN_0222, ANN_0111, BOB]);
  });
});

describe('the plan cache', { timeout: 120_000 }, () => {
  it('Scenario: A second AI run of a goal follows the earlier successful run and calls the model only where needed', async () => {
    const task = suiteTask('settings-dark-theme-on');
    await recordRun('settings-dark-theme-on');
    const firstCalls = fake.requests.length;
    await harness.reset(task.seed);
    policy = stepsPolicy(SUITE_SCRIPTS['settings-dark-theme-on']!());
    const calls = fake.requests.length;
    const second = await runAmc(['run', '-s', harness.serial, '--goal', ' switch the phone to the  dark theme', '--json', '--yes'], { env: { ...env(), AI_PLANNER_REUSE_RUNS: 'true' } });
    expect(second.code, second.stderr).toBe(0);
    expect((await harness.state()).settings.darkTheme).toBe(true);
    // The first run needed a model call per step and one to finish; the second none: its end (the switch on) is checked in code.
    expect(firstCalls).toBeGreaterThanOrEqual(4);
    expect(fake.requests.length - calls).toBe(0);
    expect(planned(jsonEvents(second.stdout)).filter((step) => step.tool !== 'finish_task').map((step) => step.source)).toEqual(['cache', 'cache', 'cache']);
  });

  it('Scenario: With "Reuse successful runs" off, the model plans every step', async () => {
    const task = suiteTask('settings-dark-theme-on');
    await harness.reset(task.seed);
    policy = stepsPolicy(SUITE_SCRIPTS['settings-dark-theme-on']!());
    const calls = fake.requests.length;
    const run = await runAmc(['run', '-s', harness.serial, '--goal', task.goal, '--json', '--yes'], { env: { ...env(), AI_PLANNER_REUSE_RUNS: 'false' } });
    expect(run.code, run.stderr).toBe(0);
    expect(fake.requests.length - calls).toBe(4);
    expect(planned(jsonEvents(run.stdout)).every((step) => step.source === 'model')).toBe(true);
  });
});
