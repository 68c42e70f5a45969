// One-off dialogs in a replay and in an exported flow, on the demo phone (real adb server, real adbkit) after `amc run`
// with a scripted model through the real Anthropic SDK: the recorded "Allow" of the Contacts permission is passed over
// where the permission is granted and tapped where it is asked; judged from the phone's own state (GET /state).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE_TASKS } from '../../src/eval/tasks/index';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { anthropicDirectEnv, jsonEvents, runAmc } from '../support/cli';
import type { TaskEventOf } from '../../src/shared/task';
import { finish, startAnthropicFake, type AnthropicFake, type FakePolicy } from '../fakes/index';
import { stepsPolicy, SUITE_SCRIPTS } from '../fakes/suite-agent';

let harness: AdbHarness;
let fake: AnthropicFake;
let home: string;
let policy: FakePolicy = () => finish(true, 'idle');

beforeAll(async () => {
  harness = await startAdbHarness();
  fake = await startAnthropicFake({ policy: (turn) => policy(turn) });
  home = await mkdtemp(path.join(tmpdir(), 'amc-oneoff-'));
}, 60_000);
afterAll(async () => {
  await fake?.close();
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});
const env = () => anthropicDirectEnv(harness, home, fake.url);
/** The AI planner off: no model may be called. */
const aiOff = () => ({ ANDROID_ADB_SERVER_PORT: String(harness.adbPort), HOME: harness.env.HOME, AMC_HOME: home });

const addDave = PHONE_TASKS.find((task) => task.id === 'contacts-add-dave')!;
const daveSaved = async () => (await harness.state()).contacts.some((contact) => contact.name === 'Dave Brown' && contact.phone === '555-0199');

/** Records contacts-add-dave on a phone that asks for the Contacts permission (the run taps Allow); its task id. */
async function recordAddDave(): Promise<string> {
  await harness.reset(addDave.seed);
  policy = stepsPolicy(SUITE_SCRIPTS['contacts-add-dave']!());
  const run = await runAmc(['run', '-s', harness.serial, '--goal', addDave.goal, '--json', '--yes'], { env: env() });
  expect(run.code, run.stderr).toBe(0);
  expect((await harness.state()).contactsPermission).toBe('granted');
  return jsonEvents(run.stdout).find((event) => event.type === 'task.started')!.taskId;
}

const tapsOn = (stdout: string, label: string) =>
  jsonEvents(stdout).filter((event): event is TaskEventOf<'step.executed'> => event.type === 'step.executed' && event.outcome.attempts > 0 && event.outcome.target?.label === `Button "${label}"`);

describe('one-off dialogs in a replay', { timeout: 120_000 }, () => {
  let recorded: string;
  beforeAll(async () => {
    recorded = await recordAddDave();
  }, 60_000);

  it('Scenario: A replay passes over a permission already granted and taps Allow where it is asked', async () => {
    // The permission granted: no dialog, so the recorded Allow is passed over and the contact is made.
    await harness.reset({ ...addDave.seed, contactsPermission: 'granted' });
    const calls = fake.requests.length;
    const granted = await runAmc(['replay', recorded, '-s', harness.serial, '--json'], { env: env() });
    expect(granted.code, granted.stdout).toBe(0);
    expect(fake.requests.length).toBe(calls);
    expect(tapsOn(granted.stdout, 'Allow')).toEqual([]);
    expect(await daveSaved()).toBe(true);
    expect((await harness.state()).contactsPermission).toBe('granted');

    // Asked again: the dialog is there, and the replay answers it as recorded.
    await harness.reset(addDave.seed);
    const asked = await runAmc(['replay', recorded, '-s', harness.serial, '--json'], { env: env() });
    expect(asked.code, asked.stdout).toBe(0);
    expect(fake.requests.length).toBe(calls);
    expect(tapsOn(asked.stdout, 'Allow')).toHaveLength(1);
    expect(await daveSaved()).toBe(true);
    expect((await harness.state()).contactsPermission).toBe('granted');

    // Refused before: the list asks for access with its own "Allow access" button, which the replay never taps instead.
    await harness.reset({ ...addDave.seed, contactsPermission: 'denied' });
    const denied = await runAmc(['replay', recorded, '-s', harness.serial, '--json', '--planner', 'stub'], { env: env() });
    expect(denied.code).toBe(1);
    expect(tapsOn(denied.stdout, 'Allow access')).toEqual([]);
    expect(await harness.state()).toMatchObject({ contactsPermission: 'denied' });
    expect(await daveSaved()).toBe(false);
  });
});

describe('amc flow export for CI', { timeout: 180_000 }, () => {
  let recorded: string;
  let dir: string;
  beforeAll(async () => {
    recorded = await recordAddDave();
    dir = await mkdtemp(path.join(tmpdir(), 'amc-oneoff-files-'));
  }, 60_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('Scenario: An exported run opens its app, makes its one-off dialog optional and its typed values vars, and asserts its outcome', async () => {
    const exported = await runAmc(['flow', 'export', recorded], { env: env() });
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    const text = exported.stdout;
    // Values typed are variables declared at the top, the goal and every step referring to them.
    expect(text).toMatch(/\nvars:\n {2}editor_name: Dave Brown\n {2}editor_phone: 555-0199\n/);
    expect(text).toContain('goal: Add a new contact named ${editor_name} with the phone number ${editor_phone}.');
    expect(text).not.toMatch(/steps:[\s\S]*(Dave Brown|555-0199)/);
    // It opens the app first, the permission's Allow is optional, no model reason is written, and it ends on the outcome.
    const steps = text.slice(text.indexOf('\nsteps:\n'));
    expect(steps).toMatch(/^\nsteps:\n {2}- launch_app: \{ app: Contacts, expect: \{ app: com\.android\.contacts \} \}\n {2}- tap: \{ app: com\.android\.contacts, text: Allow, type: Button, optional: true \}\n/);
    expect(text).not.toContain('why:');
    expect(text.trimEnd().split('\n').at(-1)).toBe('  - assert: { visible: "${editor_name}" }');
    const file = path.join(dir, 'add-contact.yaml');
    await writeFile(file, text);
    const checked = await runAmc(['flow', 'check', file], { env: env() });
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);

    // The file runs on a reset phone with the model off, with other values; the permission asked or already granted.
    await harness.reset(addDave.seed);
    const asked = await runAmc(['flow', 'run', file, '-s', harness.serial, '--yes', '-e', 'editor_name=Erin Moss', '-e', 'editor_phone=555-0123'], { env: aiOff() });
    expect(asked.code, asked.stdout).toBe(0);
    expect(asked.stdout).toMatch(/passed +2\. tap: \{ app: com\.android\.contacts, text: Allow, type: Button, optional: true \} — the screen changed/);
    expect(asked.stdout).toMatch(/passed +7\. assert: \{ visible: Erin Moss \} — "Erin Moss" is on screen/);
    expect(await harness.state()).toMatchObject({ contactsPermission: 'granted' });
    expect((await harness.state()).contacts).toContainEqual({ name: 'Erin Moss', phone: '555-0123' });
    await harness.reset({ ...addDave.seed, contactsPermission: 'granted' });
    const granted = await runAmc(['flow', 'run', file, '-s', harness.serial, '--yes'], { env: aiOff() });
    expect(granted.code, granted.stdout).toBe(0);
    expect(granted.stdout).toMatch(/passed +2\. tap: .*optional: true.* — optional, went on without it: no 'Allow' button on this screen/);
    expect(await daveSaved()).toBe(true);

    // With --why the model's reasons are kept; as a Maestro file the values are its env and it runs back here.
    const withWhy = await runAmc(['flow', 'export', recorded, '--why'], { env: env() });
    expect(withWhy.stdout).toContain('why: Typing "Dave Brown".');
    const maestro = await runAmc(['flow', 'export', recorded, '--format', 'maestro'], { env: env() });
    expect(maestro.code, maestro.stderr).toBe(0);
    expect(maestro.stdout).toMatch(/^appId: com\.android\.contacts\nname: Add a new contact named \$\{editor_name\} with the phone number \$\{editor_phone\}\.\nenv:\n {2}editor_name: Dave Brown\n {2}editor_phone: 555-0199\n---\n- launchApp:/);
    expect(maestro.stdout).toMatch(/- tapOn:\n {4}text: Allow\n {4}optional: true\n/);
    expect(maestro.stdout.trimEnd().split('\n').at(-1)).toBe('- assertVisible: ${editor_name}');
    const maestroFile = path.join(dir, 'add-contact.maestro.yaml');
    await writeFile(maestroFile, maestro.stdout);
    await harness.reset({ ...addDave.seed, contactsPermission: 'granted' });
    const maestroRun = await runAmc(['flow', 'run', maestroFile, '-s', harness.serial, '--yes', '-e', 'editor_name=Fay Lu'], { env: aiOff() });
    expect(maestroRun.code, maestroRun.stdout).toBe(0);
    expect((await harness.state()).contacts).toContainEqual({ name: 'Fay Lu', phone: '555-0199' });
  });
});
