// One-off dialogs in a replay and in an exported flow, on the demo phone (real adb server, real adbkit) after `amc run`
// with a scripted model through the real Anthropic SDK: the recorded "Allow" of the Contacts permission is passed over
// where the permission is granted and tapped where it is asked; judged from the phone's own state (GET /state).
import { mkdtemp, rm } from 'node:fs/promises';
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
