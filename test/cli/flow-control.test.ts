// A flow's control flow as `amc flow run` carries it out on the demo phone (real adb server, no model): optional and
// conditional steps, another flow file with its variables, repeat, retry, scrolling to an element, stopping and
// clearing an app (clearing asks), and a written coordinate tap. What happened is read back with GET /state.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { runAmc } from '../support/cli';

let harness: AdbHarness;
let home: string;
let dir: string;

beforeAll(async () => {
  harness = await startAdbHarness();
  home = await mkdtemp(path.join(tmpdir(), 'amc-flow-control-home-'));
  dir = await mkdtemp(path.join(tmpdir(), 'amc-flow-control-files-'));
}, 60_000);

afterAll(async () => {
  await harness?.stop();
  for (const folder of [home, dir]) if (folder) await rm(folder, { recursive: true, force: true });
});

const aiOff = () => ({ ANDROID_ADB_SERVER_PORT: String(harness.adbPort), HOME: harness.env.HOME, AMC_HOME: home });

async function flowFile(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

const run = (file: string, ...extra: string[]) => runAmc(['flow', 'run', file, '-s', harness.serial, ...extra], { env: aiOff() });

describe('flow control', () => {
  it('Scenario: An optional step passes where a permission is already granted', async () => {
    const file = await flowFile('contacts.yaml', 'goal: See my contacts\nsteps:\n  - launch_app: Contacts\n  - tap: {text: Allow, optional: true, timeout: 1500}\n  - assert: {visible: Alice Johnson}\n');
    // First run: the permission is asked, and the optional step answers it.
    await harness.reset({ contactsPermission: 'ask' });
    const asked = await run(file);
    expect(asked.stdout).toMatch(/passed +2\. tap: \{ text: Allow, .*optional: true.* \} — the screen changed/);
    expect(asked.code).toBe(0);
    expect((await harness.state()).contactsPermission).toBe('granted');
    // Where it is granted already there is no dialog: the step is passed over and the flow goes on.
    await harness.reset({ contactsPermission: 'granted' });
    const granted = await run(file);
    expect(granted.stdout).toMatch(/passed +2\. tap: .* — optional, went on without it: no 'Allow' on this screen/);
    expect(granted.code).toBe(0);
  });

  it('Scenario: run_flow, when, retry and scroll_until_visible steer a flow on the screen it finds', async () => {
    await flowFile('open-page.yaml', 'goal: Open a Settings page\nvars:\n  page: Display\nsteps:\n  - launch_app: Settings\n  - tap: {text: "${page}"}\n');
    const file = await flowFile(
      'airplane.yaml',
      [
        'goal: Airplane mode on, then About phone',
        'steps:',
        '  - run_flow: open-page.yaml',
        '    vars: {page: "Network & internet"}',
        '  - tap: {text: Nowhere, when: {visible: Nowhere}}',
        '  - retry:',
        '      max: 2',
        '      steps:',
        '        - tap: {text: Airplane mode}',
        '        - assert: {checked: {text: Airplane mode}}',
        '          timeout: 1000',
        '  - press_key: back',
        '  - scroll_until_visible: {target: {text: About phone}, direction: down}',
        '  - tap: {text: About phone}',
        '  - assert: {visible: Android version}',
        '',
      ].join('\n'),
    );
    // Airplane mode is on: the retry's first tap turns it off, its check fails, and the second try turns it back on.
    await harness.reset({ settings: { airplaneMode: true } });
    const result = await run(file);
    expect(result.stdout).toMatch(/passed +1\. run_flow: .* — the steps of open-page\.yaml passed/);
    expect(result.stdout).toMatch(/passed +2\. tap: .* — skipped: only when "Nowhere" is on screen/);
    expect(result.stdout).toMatch(/passed +3\. retry: .* — passed on try 2/);
    expect(result.stdout).toMatch(/passed +5\. scroll_until_visible: .* — 'About phone' is on screen|passed +5\. scroll_until_visible: .* — .*About phone.* is on screen/);
    expect(result.code).toBe(0);
    expect((await harness.state()).settings.airplaneMode).toBe(true);
  });

  it('Scenario: repeat runs its steps a number of times', async () => {
    await harness.reset({ notes: [] });
    const file = await flowFile(
      'twice.yaml',
      [
        'goal: Write the same note twice',
        'steps:',
        '  - launch_app: Notes',
        '  - repeat:',
        '      times: 2',
        '      steps:',
        '        - tap: {desc: New note}',
        '        - type_text: {target: {resourceId: note_title}, text: Twice}',
        '        - press_key: back',
        '        - tap: {text: Save}',
        '',
      ].join('\n'),
    );
    const result = await run(file);
    expect(result.stdout).toMatch(/passed +2\. repeat: .* — repeated 2 times/);
    expect(result.code).toBe(0);
    expect((await harness.state()).notes.map((note) => note.title)).toEqual(['Twice', 'Twice']);
  });

  it('Scenario: stop_app and clear_app start a flow from a known state, clearing only with a yes', async () => {
    const file = await flowFile('fresh-notes.yaml', 'goal: Start Notes afresh\nsteps:\n  - launch_app: Notes\n  - clear_app: Notes\n  - stop_app: Notes\n  - launch_app: Notes\n  - assert: {absent: Shopping list}\n');
    await harness.reset({});
    // No one to say yes: clearing an app's data is refused, and nothing is lost.
    const refused = await run(file);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toMatch(/FAILED +2\. clear_app: Notes/);
    expect((await harness.state()).notes.length).toBeGreaterThan(0);
    const cleared = await run(file, '--yes');
    expect(cleared.code).toBe(0);
    expect((await harness.state()).notes).toEqual([]);
  });

  it('Scenario: A coordinate tap a person wrote passes flow check and runs', async () => {
    await harness.reset({});
    await harness.shell('am start -n com.android.settings/.Settings');
    const dump = (await harness.shell('uiautomator dump /dev/tty')).stdout;
    const bounds = /text="Network &amp; internet"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"/.exec(dump) ?? /bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"[^>]*text="Network &amp; internet"/.exec(dump);
    expect(bounds).not.toBeNull();
    const [x, y] = [(Number(bounds![1]) + Number(bounds![3])) >> 1, (Number(bounds![2]) + Number(bounds![4])) >> 1];
    const file = await flowFile('point.yaml', `goal: Open Network by its place\nsteps:\n  - launch_app: Settings\n  - tap: {x: ${x}, y: ${y}}\n  - assert: {visible: Airplane mode}\n`);
    const checked = await runAmc(['flow', 'check', file], { env: aiOff() });
    expect(checked.code).toBe(0);
    const result = await run(file);
    expect(result.stdout).toContain('3 of 3 steps passed');
    expect(result.code).toBe(0);
  });
});
