// `amc run` with a person at the terminal (a real pseudo-terminal through util-linux `script`) and without one:
// the agent's questions, hand-overs and actions that need a yes, against the virtual phone and the Anthropic fake.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTaskStore } from '../../src/core/storage/task-store';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { amcBin, anthropicDirectEnv, jsonEvents, runAmc } from '../support/cli';
import { startInPty } from '../support/pty';
import { finish, findElement, startAnthropicFake, type AnthropicFake, type FakePolicy } from '../fakes/index';

let harness: AdbHarness;
let fake: AnthropicFake;
let home: string;
let policy: FakePolicy = () => finish(true, 'idle');

beforeAll(async () => {
  harness = await startAdbHarness();
  fake = await startAnthropicFake({ policy: (turn) => policy(turn) });
  home = await mkdtemp(path.join(tmpdir(), 'amc-run-supervision-'));
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

beforeEach(async () => {
  await harness.control('/reset', { body: {} });
});

const QUESTION = 'Which app should I open?';
const env = (extra: NodeJS.ProcessEnv = {}) => anthropicDirectEnv(harness, home, fake.url, extra);
/** Every action waits for a yes (step mode), so the CLI's confirmation does not hang on what the policy calls sensitive. */
const stepMode = () => env({ TASK_CONFIRM_ACTIONS: 'every' });
const foreground = async () => (await harness.control<{ foreground: string }>('/state')).body.foreground;
const amc = (args: string[]) => [process.execPath, amcBin, 'run', '-s', harness.serial, ...args];

/**
 * Asks which app to open, opens the one named in the answer (the answer must have reached the model), then
 * finishes. The model never guesses: without the answer in its history it asks again.
 */
const askThenOpen: FakePolicy = (turn) => {
  if (turn.scene?.screen.package.includes('contacts')) return finish(true, 'Contacts is open');
  if (!/contacts/i.test(turn.allText.replace(/<scene>[\s\S]*?<\/scene>/g, ''))) return { kind: 'call', tool: 'ask_user', args: { question: QUESTION } };
  const icon = findElement(turn.scene, 'Contacts');
  return { kind: 'call', tool: 'tap', args: { element_id: icon?.id ?? 'e1' }, text: 'The person said Contacts.' };
};

/** Opens Contacts from the launcher (one action), then finishes. */
const openContacts: FakePolicy = (turn) => {
  if (turn.scene?.screen.package.includes('contacts')) return finish(true, 'Contacts is open');
  const icon = findElement(turn.scene, 'Contacts');
  return { kind: 'call', tool: 'tap', args: { element_id: icon?.id ?? 'e1' }, text: 'Tapping Contacts.' };
};


describe('amc run with a person at the terminal', { timeout: 120_000 }, () => {
  it("Scenario: amc run asks the agent's question on the terminal and goes on with the answer", async () => {
    policy = askThenOpen;
    const session = startInPty(amc(['--goal', 'Open the app I tell you']), env());
    await session.waitFor(/Your answer: /);
    expect(session.output()).toContain(`The agent asks: ${QUESTION}`);
    session.type('Contacts, please\r');
    const { code, output } = await session.done;
    expect(output).toContain('-> Answered: Contacts, please (by the person)');
    // Tokens per turn and so far, priced by the default price table (the default model is in it).
    expect(output).toMatch(/tokens: [\d,]+ in \/ [\d,]+ out, [\d,]+ \/ [\d,]+ so far · cost \$[\d.]+, \$[\d.]+ so far/);
    expect(code).toBe(0);
    expect(await foreground()).toMatch(/contacts/);
  });

  it('Scenario: amc run asks before an action on the terminal, and a "no" keeps it from the phone', async () => {
    policy = (turn) => (turn.lastUserText.includes('denied') || turn.allText.includes('denied') ? finish(false, 'The person said no.') : openContacts(turn));
    const session = startInPty(amc(['--goal', 'Open Contacts']), stepMode());
    await session.waitFor(/Allow\? \[y\]es/);
    // The action in a person's words, with what it taps: no widget class, no JSON.
    expect(session.output()).toMatch(/The agent wants to: Tap 'Contacts'\r?\n/);
    session.type('n\r');
    const { code, output } = await session.done;
    expect(output).toMatch(/denied/i);
    expect(code).toBe(1);
    expect(await foreground()).not.toMatch(/contacts/);
  });

  it('Scenario: amc run asks before an action on the terminal, and a "yes" lets it run', async () => {
    policy = openContacts;
    const session = startInPty(amc(['--goal', 'Open Contacts']), stepMode());
    await session.waitFor(/Allow\? \[y\]es/);
    session.type('y\r');
    const { code } = await session.done;
    expect(code).toBe(0);
    expect(await foreground()).toMatch(/contacts/);
  });

  it('Scenario: amc run hands the phone over on the terminal and continues when the person presses Enter', async () => {
    let handedOver = false;
    policy = (turn) => {
      if (!handedOver) {
        handedOver = true;
        return { kind: 'call', tool: 'hand_over', args: { reason: 'Please open Contacts yourself' } };
      }
      return turn.scene?.screen.package.includes('contacts') ? finish(true, 'Contacts is open') : finish(false, 'Contacts is not open');
    };
    const session = startInPty(amc(['--goal', 'Open Contacts with my help']), env());
    await session.waitFor(/Press Enter to let the agent continue/);
    expect(session.output()).toContain('Your turn on the phone: Please open Contacts yourself');
    // The person does it on the phone meanwhile.
    await harness.adb(['-s', harness.serial, 'shell', 'monkey -p com.android.contacts 1']);
    await expect.poll(foreground, { timeout: 20_000 }).toMatch(/contacts/);
    session.type('I opened it\r');
    const { code, output } = await session.done;
    expect(output).toContain('-> Continue, with the note: I opened it (by the person)');
    // The person did it, not the agent: a hand-over is not an action, so the agent's success claim is not verified.
    expect(output).toMatch(/Done, not verified: no action was taken in this task.* \(0 actions, /);
    expect(code).toBe(4);
  });
});

describe('amc run stopped at a terminal prompt', { timeout: 120_000 }, () => {
  it("Scenario: Ctrl-C at the agent's question stops amc run with exit code 130", async () => {
    policy = () => ({ kind: 'call', tool: 'ask_user', args: { question: QUESTION } });
    const session = startInPty(amc(['--goal', 'Open the app I tell you']), env());
    await session.waitFor(/Your answer: /);
    session.type('\x03');
    const { code, output } = await session.done;
    expect(output).toMatch(/Stopped \(/);
    expect(output).not.toMatch(/Unanswered|Failed/);
    expect(code).toBe(130);
    const saved = (await createTaskStore(home).list()).tasks.find((task) => task.goal === 'Open the app I tell you' && task.status === 'cancelled');
    expect(saved).toBeDefined();
  });

  it('Scenario: Ctrl-C at the stuck-loop prompt stops amc run with exit code 130', async () => {
    policy = () => ({ kind: 'call', tool: 'press_key', args: { key: 'home' }, text: 'Going home.' });
    const session = startInPty(amc(['--goal', 'Go home forever']), env());
    await session.waitFor(/Press Enter to let the agent continue/);
    expect(session.output()).toContain('The agent seems stuck');
    session.type('\x03');
    const { code, output } = await session.done;
    expect(output).toMatch(/Stopped \(/);
    expect(code).toBe(130);
  });
});

describe('amc run without a person', { timeout: 120_000 }, () => {
  it("Scenario: --answer answers the agent's questions in advance", async () => {
    policy = askThenOpen;
    const result = await runAmc(['run', '-s', harness.serial, '--goal', 'Open the app I tell you', '--answer', 'Contacts'], { env: env() });
    expect(result.stdout).toContain('answered from --answer: Contacts');
    expect(result.code).toBe(0);
    expect(await foreground()).toMatch(/contacts/);
  });

  it('Scenario: A question answered, then success claimed without acting, is not verified: exit 4 and 0 actions', async () => {
    // "Call my friend": the model asks who, is told, and claims the call is made without touching the phone.
    policy = (turn) => (turn.callIndex === 0 || !turn.allText.includes('Zed Quill') ? { kind: 'call', tool: 'ask_user', args: { question: 'Which friend should I call?' } } : finish(true, 'Calling Zed Quill'));
    const result = await runAmc(['run', '-s', harness.serial, '--goal', 'Call my friend', '--answer', 'Zed Quill'], { env: env() });
    expect(result.stdout).toContain('answered from --answer: Zed Quill');
    expect(result.stdout).toMatch(/^Done, not verified: no action was taken in this task, so nothing confirms the goal was reached \(0 actions, .*\)\. The model said: Calling Zed Quill$/m);
    expect(result.stdout).not.toMatch(/^Done \(/m);
    expect(result.code).toBe(4);
    // History says the same: not verified, no action.
    const saved = (await createTaskStore(home).list()).tasks.find((task) => task.goal === 'Call my friend');
    expect(saved).toMatchObject({ status: 'completed', steps: 0, verification: { status: 'not-verified', check: 'action-taken' } });
    expect(await foreground()).toBe('com.android.launcher3');
  });

  it('Scenario: Without a terminal a question ends the task failed with the question as the reason', async () => {
    policy = askThenOpen;
    const result = await runAmc(['run', '-s', harness.serial, '--goal', 'Open the app I tell you'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/Failed .*Which app should I open\?/);
    expect(await foreground()).not.toMatch(/contacts/);
    const saved = (await createTaskStore(home).list()).tasks.find((task) => task.goal === 'Open the app I tell you' && task.status === 'failed');
    expect(saved?.failureReason).toContain(QUESTION);
  });

  it('Scenario: With --json a question ends the task failed even on a terminal', async () => {
    policy = askThenOpen;
    const session = startInPty(amc(['--goal', 'Open the app I tell you (json)', '--json']), env());
    const { code, output } = await session.done;
    expect(code).toBe(1);
    const finished = jsonEvents(output).find((event) => event.type === 'task.finished');
    expect(finished).toMatchObject({ status: 'failed' });
    expect(finished?.type === 'task.finished' && finished.failureReason).toContain(QUESTION);
    expect(output).not.toContain('Your answer:');
  });

  it('Scenario: --yes allows every action that needs a yes', async () => {
    policy = openContacts;
    const result = await runAmc(['run', '-s', harness.serial, '--goal', 'Open Contacts', '--yes'], { env: stepMode() });
    expect(result.code).toBe(0);
    expect(await foreground()).toMatch(/contacts/);
  });

  it('Scenario: Without a terminal and without --yes an action that needs a yes ends the task failed, naming the action', async () => {
    policy = openContacts;
    const result = await runAmc(['run', '-s', harness.serial, '--goal', 'Open Contacts'], { env: stepMode() });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/Failed .*Tap '[^']+' needs a person's yes/);
    expect(await foreground()).not.toMatch(/contacts/);
  });

  it('Scenario: --allow-app keeps the task to the listed apps and bad lists are usage errors', async () => {
    policy = (turn) =>
      turn.allText.includes('com.android.contacts') && turn.callIndex > 0 && !turn.scene?.screen.package.includes('contacts')
        ? finish(false, 'Contacts is not allowed')
        : { kind: 'call', tool: 'launch_app', args: { app: 'com.android.contacts' } };
    const result = await runAmc(['run', '-s', harness.serial, '--goal', 'Open Contacts', '--allow-app', 'com.android.settings'], { env: env() });
    expect(result.code).toBe(1);
    expect(await foreground()).not.toMatch(/contacts/);
    const empty = await runAmc(['run', '-s', harness.serial, '--goal', 'Open Contacts', '--allow-app', ','], { env: env() });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--allow-app needs app names or package names');
  });

  it('Scenario: --allow-app takes app names as the home screen shows them', async () => {
    // The model opens Contacts by name, then tries Settings; only "Contacts" is allowed, named as a person names it.
    policy = (turn) => {
      if (turn.allText.includes('not among this task') || turn.scene?.screen.package.includes('settings')) return finish(true, 'Done');
      if (turn.scene?.screen.package.includes('contacts')) return { kind: 'call', tool: 'launch_app', args: { app: 'Settings' } };
      return { kind: 'call', tool: 'launch_app', args: { app: 'Contacts' } };
    };
    const result = await runAmc(['run', '-s', harness.serial, '--goal', 'Open Contacts, then Settings', '--allow-app', 'Contacts', '--json'], { env: env() });
    const events = jsonEvents(result.stdout);
    const outcomes = events.filter((event) => event.type === 'step.executed').map((event) => event.outcome);
    expect(outcomes[0]).toMatchObject({ ok: true });
    expect(outcomes[1]).toMatchObject({ ok: false, error: expect.stringMatching(/com\.android\.settings is not among this task's allowed apps \(Contacts\)/) });
    expect(await foreground()).toMatch(/contacts/);
  });

  it("Scenario: amc run prints the runtime's Back as a turn of its own", async () => {
    // The model taps the browser's icon in a task limited to Settings, then (told why) claims success.
    policy = (turn) => (turn.allText.includes('not among this task') ? finish(true, 'Done') : { kind: 'call', tool: 'tap', args: { element_id: findElement(turn.scene, 'Chrome')?.id ?? 'e1' } });
    const result = await runAmc(['run', '-s', harness.serial, '--goal', 'Turn on dark theme', '--allow-app', 'com.android.settings'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\[1\] tap \{"element_id":"[^"]+"\}$/m);
    expect(result.stdout).toContain('[2] press_key {"key":"back"} (by the runtime: back out of an app outside the allowed apps)');
    expect(result.stdout).toMatch(/^\[3\] finish_task /m);
    expect(await foreground()).toMatch(/launcher/);
  });
});
