// `amc flow run` as a CI job runs it: a child process against the real adb server and the demo phone (and, where the
// AI planner is on, a scripted model behind the real Anthropic SDK). Lookups and checks wait for the screen; a step
// that does not match fails there and says what it looked for and what the screen shows; the history, the HTML
// report, the JUnit file and the exit code agree. What happened is read back with GET /state.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { anthropicDirectEnv, runAmc } from '../support/cli';
import { findElement, finish, scriptedPolicy, startAnthropicFake, tapLabel, type AnthropicFake, type FakePolicy } from '../fakes/index';
import { applyTaskEvent, newTaskRecord, type TaskEvent, type TaskEventOf, type TaskRecord } from '../../src/shared/task';
import { renderTaskReport } from '../../src/core/storage/html-report';
import { TASKS_FOLDER } from '../../src/core/storage/task-store';

let harness: AdbHarness;
let fake: AnthropicFake;
// A model that would happily carry on in the flow's place: unless a test says otherwise, it must never be asked.
let policy: FakePolicy = () => finish(true, 'I did it my way');
let home: string;
let dir: string;

beforeAll(async () => {
  harness = await startAdbHarness();
  fake = await startAnthropicFake({ policy: (turn) => policy(turn) });
  home = await mkdtemp(path.join(tmpdir(), 'amc-flow-waits-home-'));
  dir = await mkdtemp(path.join(tmpdir(), 'amc-flow-waits-files-'));
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await harness?.stop();
  for (const folder of [home, dir]) if (folder) await rm(folder, { recursive: true, force: true });
});

beforeEach(async () => {
  await harness.control('/reset', { body: {} });
  fake.requests.length = 0;
  policy = () => finish(true, 'I did it my way');
});

const aiOn = () => anthropicDirectEnv(harness, home, fake.url);
const aiOff = () => ({ ANDROID_ADB_SERVER_PORT: String(harness.adbPort), HOME: harness.env.HOME, AMC_HOME: home });

async function flowFile(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

/** The most recent task of this home, folded from its file as History reads it. */
async function lastTask(): Promise<TaskRecord> {
  const folder = path.join(home, TASKS_FOLDER);
  const files = await readdir(folder);
  const records = await Promise.all(
    files.map(async (file) => {
      const events = (await readFile(path.join(folder, file), 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as TaskEvent);
      const started = events[0] as TaskEventOf<'task.started'>;
      const first = newTaskRecord({ id: started.taskId, goal: started.goal, serial: started.serial, planner: started.planner, maxSteps: started.maxSteps, createdAt: started.at });
      return events.reduce((record, event) => applyTaskEvent(record, event), first);
    }),
  );
  return records.sort((a, b) => b.createdAt - a.createdAt)[0]!;
}

async function untilForeground(pkg: string): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
    if ((await harness.state()).foreground === pkg) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${pkg} never came to the front`);
}

describe('amc flow run waits for the screen', () => {
  it('Scenario: A step waits for a dialog that appears a second late', async () => {
    const file = await flowFile('late-dialog.yaml', 'goal: Dismiss the battery warning\nsteps:\n  - launch_app: Notes\n  - tap: {text: OK}\n  - assert: {absent: Battery is low}\n');
    const run = runAmc(['flow', 'run', file, '-s', harness.serial, '--yes'], { env: aiOff() });
    // The dialog shows a second after Notes is in front, as a permission or a warning does after an app's first frame.
    await untilForeground('com.amc.notes');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await harness.control('/faults', { body: { kind: 'popup-dialog' } });
    const result = await run;
    expect(result.stdout).toMatch(/passed +2\. tap: \{ text: OK \}/);
    expect(result.code).toBe(0);
    // The dialog was tapped away: no fault is left on the phone.
    expect((await harness.control<{ faults: unknown[] }>('/faults')).body.faults).toEqual([]);
  });

  it('Scenario: Written wait steps are not a loop', async () => {
    const file = await flowFile('three-waits.yaml', 'goal: Wait three times\nsteps:\n  - launch_app: Notes\n  - wait: 0.2\n  - wait: 0.2\n  - wait: 0.2\n  - wait: 0.2\n  - assert: {app: com.amc.notes}\n');
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial], { env: aiOff() });
    expect(result.stdout).toContain(`Flow ${file}: 6 of 6 steps passed`);
    expect(result.stdout).not.toContain('loop');
    expect(result.code).toBe(0);
  });

  it('Scenario: wait_until and wait_for_settle wait for the screen and fail with what it showed', async () => {
    const file = await flowFile(
      'wait-until.yaml',
      'goal: Open Notes and wait\nsteps:\n  - launch_app: Notes\n  - wait_for_settle:\n  - wait_until: {visible: Shopping list}\n  - wait_until: {visible: Meeting notes, timeout: 1200}\n  - tap: {text: Ideas}\n',
    );
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial], { env: aiOff() });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/passed +2\. wait_for_settle: .* — the screen settled/);
    expect(result.stdout).toMatch(/passed +3\. wait_until: \{ visible: Shopping list \} — "Shopping list" is on screen/);
    expect(result.stdout).toMatch(/FAILED +4\. wait_until: \{ visible: Meeting notes, timeout: 1200 \} — no "Meeting notes" on screen; it shows .*"Shopping list".* \(after waiting 1\.\d s for the screen\)/);
    expect(result.stdout).toContain('not run  5. tap: { text: Ideas }');
    // The tap after the failed wait never happened: Notes still shows its list.
    expect((await harness.state()).activity).toMatch(/NotesActivity$/);
  });
});

describe('amc flow run fails honestly', () => {
  it('Scenario: A step that does not match fails the run even with the AI planner on, and the model is not asked', async () => {
    await harness.control('/reset', { body: { notes: [{ title: 'Ideas', body: 'Learn to play the guitar' }] } });
    const junit = path.join(dir, 'honest.xml');
    const file = await flowFile(
      'honest.yaml',
      'goal: Open the shopping list\nsteps:\n  - launch_app: Notes\n  - tap: {text: Shopping list, timeout: 1500}\n  - assert: {visible: Milk}\n',
    );
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial, '--yes', '--junit', junit], { env: aiOn() });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAILED +2\. tap: \{ text: Shopping list, timeout: 1500 \} — no 'Shopping list' on this screen; I see: Ideas/);
    expect(result.stdout).toContain('not run  3. assert: { visible: Milk }');
    // The model never carried on in the flow's place.
    expect(fake.requests).toHaveLength(0);
    expect((await harness.state()).notes).toEqual([{ title: 'Ideas', body: 'Learn to play the guitar' }]);
    // History, the HTML report and the JUnit file say the same as the exit code.
    const record = await lastTask();
    expect(record.status).toBe('failed');
    expect(record.failureReason).toMatch(/Step 2: no 'Shopping list' on this screen/);
    const html = renderTaskReport(record);
    expect(html).toMatch(/<dd data-verdict="failed"><span class="err">/);
    const xml = await readFile(junit, 'utf8');
    expect(xml).toMatch(/<failure message="no &apos;Shopping list&apos; on this screen; I see: Ideas[^"]*"/);
    expect(xml).not.toContain('the screen differed from the flow');
  });

  it('Scenario: --junit writes into a folder that does not exist yet, and a flow that fails its check writes an error', async () => {
    const good = await flowFile('open-notes.yaml', 'goal: Open Notes\nsteps:\n  - launch_app: Notes\n  - assert: {visible: Shopping list}\n');
    const junit = path.join(dir, 'reports', 'nightly', 'notes.xml');
    const passing = await runAmc(['flow', 'run', good, '-s', harness.serial, '--junit', junit], { env: aiOff() });
    expect(passing.stderr).toBe('');
    expect(passing.code).toBe(0);
    expect(await readFile(junit, 'utf8')).toContain('<testsuite name="open-notes" tests="2" failures="0" errors="0" skipped="0"');
    const broken = await flowFile('broken.yaml', 'goal: Open Notes\nsteps:\n  - launch_app: Notes\n  - tap: {type: Button}\n');
    const errorJunit = path.join(dir, 'reports', 'check', 'broken.xml');
    const refused = await runAmc(['flow', 'run', broken, '-s', harness.serial, '--junit', errorJunit], { env: aiOff() });
    expect(refused.code).toBe(2);
    const xml = await readFile(errorJunit, 'utf8');
    expect(xml).toContain('tests="1" failures="0" errors="1" skipped="0"');
    expect(xml).toMatch(/<error message="[^"]*line 4, column 10: a locator needs at least one of resourceId, text, desc, hint or row" type="FlowFileProblem">/);
  });

});

const RENAMED = 'goal: Open the shopping list\nsteps:\n  # the list was renamed since this was written\n  - launch_app: Notes\n  - tap: {text: Shoping list, timeout: 1000}\n  - assert: {visible: "Milk, eggs"}\n';

describe('amc flow run --heal and amc flow heal', () => {
  it('Scenario: --heal lets the model repair the one step that does not match, marked healed', async () => {
    policy = scriptedPolicy([tapLabel(/^Shopping list/)]);
    const junit = path.join(dir, 'healed.xml');
    const file = await flowFile('renamed.yaml', RENAMED);
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial, '--heal', '--junit', junit], { env: aiOn() });
    expect(result.stdout).toContain(`Flow ${file}: 3 of 3 steps passed (1 healed by the model)`);
    expect(result.stdout).toMatch(/HEALED +2\. tap: \{ text: Shoping list, timeout: 1000 \} — repaired by the model in 1 action \(no 'Shoping list' on this screen/);
    expect(result.code).toBe(0);
    // One model turn to tap, one to say the step is done: never more, and the flow's own steps around it stayed the flow's.
    expect(fake.requests).toHaveLength(2);
    expect((await harness.state()).activity).not.toMatch(/NotesActivity$/);
    const xml = await readFile(junit, 'utf8');
    expect(xml).toMatch(/name="step 2: tap: \{ text: Shoping list, timeout: 1000 \}" time="[\d.]+">\n\s*<properties>\n\s*<property name="amc.healed" value="true"\/>/);
    expect(xml).toContain('failures="0" errors="0"');
  });

  it('Scenario: A model that keeps acting does not heal a step past three actions', async () => {
    // It taps the first row again and again and never says the step is done.
    policy = (turn) => {
      const row = turn.scene?.elements.find((element) => element.clickable && element.text);
      return row ? { kind: 'call', tool: 'tap', args: { element_id: row.id }, text: 'Trying again.' } : finish(false, 'nothing to tap');
    };
    const file = await flowFile('stubborn.yaml', RENAMED);
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial, '--heal', '--yes'], { env: aiOn() });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAILED +2\. tap: \{ text: Shoping list, timeout: 1000 \} — no 'Shoping list' on this screen.*the model did not repair it in 3 actions/);
    expect(result.stdout).toContain('not run  3.');
    expect(fake.requests).toHaveLength(3);
  });

  it("Scenario: A model acting in a failed step's place does the later steps' work, and the report still says they did not run", async () => {
    // Asked to repair step 3 only, the misbehaving model carries on with the flow's next steps itself: it types the
    // title, then hides the keyboard and saves as steps 4 and 5 would, never saying the step is done.
    let typed = false;
    policy = (turn) => {
      const title = findElement(turn.scene, /note_title$/);
      if (title && !typed) {
        typed = true;
        return { kind: 'call', tool: 'type_text', args: { element_id: title.id, text: 'Plums' }, text: 'Writing the title.' };
      }
      if (turn.scene?.screen.keyboardShown) return { kind: 'call', tool: 'press_key', args: { key: 'back' }, text: 'Hiding the keyboard, as the flow goes on to do.' };
      const save = findElement(turn.scene, 'Save');
      return save ? { kind: 'call', tool: 'tap', args: { element_id: save.id }, text: 'Saving, as the flow goes on to do.' } : finish(false, 'no Save button');
    };
    const file = await flowFile(
      'carries-on.yaml',
      'goal: Write the note Plums\nsteps:\n  - launch_app: Notes\n  - tap: {desc: New note}\n  - type_text: {target: {resourceId: note_titel}, text: Plums, timeout: 1000}\n  - press_key: back\n  - tap: {text: Save}\n  - assert: {visible: Plums}\n',
    );
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial, '--heal', '--yes', '--json'], { env: aiOn() });
    expect(result.code, result.stderr).toBe(1);
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string } & Record<string, unknown>);
    const report = lines.at(-1) as unknown as { type: string; passed: boolean; steps: Array<{ status: string; detail: string }> };
    expect(report.type).toBe('flow.finished');
    expect(report.passed).toBe(false);
    expect(report.steps.map((step) => step.status)).toEqual(['passed', 'passed', 'failed', 'not-run', 'not-run', 'not-run']);
    expect(report.steps[2]!.detail).toMatch(/the model did not repair it in 3 actions$/);
    expect(report.steps.slice(3).map((step) => step.detail)).toEqual(Array(3).fill('not run: an earlier step did not pass'));
    // The phone shows the model did what steps 4 and 5 were for: the note is saved and the list is back.
    const state = await harness.state();
    expect(state.notes.map((note) => note.title)).toContain('Plums');
    expect(state.activity).toMatch(/NotesActivity$/);
    // Every turn the model acted on is stamped as step 3's; none as a later step's.
    const planned = lines.filter((line) => line.type === 'step.planned') as unknown as TaskEventOf<'step.planned'>[];
    expect(planned.filter((event) => event.source === 'model').map((event) => event.flow?.step?.index)).toEqual([2, 2, 2]);
    expect(planned.some((event) => (event.flow?.step?.index ?? 0) > 2)).toBe(false);
    expect(fake.requests).toHaveLength(3);
  });

  it('Scenario: amc flow heal writes the repaired flow beside the file and prints the difference', async () => {
    policy = scriptedPolicy([tapLabel(/^Shopping list/)]);
    const file = await flowFile('to-heal.yaml', RENAMED);
    const result = await runAmc(['flow', 'heal', file, '-s', harness.serial], { env: aiOn() });
    expect(result.code).toBe(0);
    const healedFile = path.join(dir, 'to-heal.healed.yaml');
    expect(result.stdout).toContain(`Healed flow written to ${healedFile}`);
    expect(result.stdout).toContain('-   - tap: {text: Shoping list, timeout: 1000}');
    expect(result.stdout).toMatch(/\+ {3}- tap: \{ app: com\.amc\.notes, .*text: Shopping list \}/);
    const healed = await readFile(healedFile, 'utf8');
    // The person's comment and the other steps are as written; the file the person wrote is untouched.
    expect(healed).toContain('# the list was renamed since this was written');
    expect(healed).toContain("# healed: step 2 was `tap: {text: Shoping list, timeout: 1000}`; repaired by the model in 1 action (no 'Shoping list' on this screen");
    expect(healed).toContain('  - assert: {visible: "Milk, eggs"}\n');
    expect(await readFile(file, 'utf8')).toBe(RENAMED);
    // The healed file runs as it is, with the AI planner off.
    await harness.control('/reset', { body: {} });
    fake.requests.length = 0;
    const again = await runAmc(['flow', 'run', healedFile, '-s', harness.serial], { env: aiOff() });
    expect(again.stdout).toContain('3 of 3 steps passed');
    expect(again.code).toBe(0);
    expect(fake.requests).toHaveLength(0);
  });
});
