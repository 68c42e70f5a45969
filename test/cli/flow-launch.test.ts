// `amc flow run FILE --all` / `--group NAME` as a person runs them: three demo phones on one real adb server, the flow
// replayed without a model (the AI planner off). What each phone shows afterwards (GET /state) proves how its run ended.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callControlApi, startVirtualDevice, type PhoneState, type VirtualDevice } from '@amc/demo-phone';
import { createTaskStore } from '../../src/core/storage/task-store';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { runAmc, startAmc } from '../support/cli';


let harness: AdbHarness;
let extras: VirtualDevice[] = [];
let home: string;
let dir: string;

const serials = () => [harness.serial, ...extras.map((device) => device.adbAddress)];
const stateOf = (serial: string): Promise<PhoneState> => {
  const extra = extras.find((device) => device.adbAddress === serial);
  return extra ? callControlApi(extra.controlUrl, 'GET /state') : harness.state();
};
const resetPhone = async (serial: string, body: Record<string, unknown> = {}) => {
  const extra = extras.find((device) => device.adbAddress === serial);
  if (extra) await callControlApi(extra.controlUrl, 'POST /reset', body);
  else await harness.control('/reset', { body });
};
/** The AI planner off: no model may be called. The group "pair" is the first two phones. */
const env = () => ({
  ANDROID_ADB_SERVER_PORT: String(harness.adbPort),
  HOME: harness.env.HOME,
  AMC_HOME: home,
  AMC_DEVICE_GROUPS: `pair: ${serials()[0]} ${serials()[1]}`,
});

const NEW_NOTE = `goal: Write the note \${title}
vars:
  title: Groceries
steps:
  - launch_app: Notes
  - assert: {visible: Shopping list}
  - tap: {desc: New note}
  - type_text: {target: {resourceId: note_title}, text: "\${title}"}
  - press_key: back
  - tap: {text: Save}
  - assert: {visible: "\${title}", app: com.amc.notes}
`;

beforeAll(async () => {
  harness = await startAdbHarness();
  extras = [await startVirtualDevice({ port: 0, controlPort: 0 }), await startVirtualDevice({ port: 0, controlPort: 0 })];
  for (const extra of extras) await harness.adb(['connect', extra.adbAddress]);
  home = await mkdtemp(path.join(os.tmpdir(), 'amc-flow-launch-home-'));
  dir = await mkdtemp(path.join(os.tmpdir(), 'amc-flow-launch-files-'));
  await writeFile(path.join(dir, 'new-note.yaml'), NEW_NOTE);
}, 60_000);

afterAll(async () => {
  for (const extra of extras) await extra.close().catch(() => undefined);
  await harness?.stop();
  for (const folder of [home, dir]) if (folder) await rm(folder, { recursive: true, force: true });
});

beforeEach(async () => {
  for (const serial of serials()) await resetPhone(serial);
});

interface FlowLaunchLine {
  type: string;
  launchId: string;
  passed: boolean;
  phones: Array<{ row: { serial: string; taskId: string | null; outcome: string }; passed: boolean; steps: Array<{ status: string; detail: string }> }>;
}
const finishedLine = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!) as FlowLaunchLine;

describe('amc flow run on several phones', { timeout: 120_000 }, () => {
  it('Scenario: A flow run on every phone passes on each, each with its own task and JUnit testsuite', async () => {
    const file = path.join(dir, 'new-note.yaml');
    const junit = path.join(dir, 'all.xml');
    const run = await runAmc(['flow', 'run', file, '--all', '--var', 'title=Plums', '--yes', '--json', '--junit', junit], { env: env(), timeoutMs: 90_000 });
    expect(run.stderr).toBe('');
    expect(run.code, run.stdout).toBe(0);
    const ended = finishedLine(run.stdout);
    expect(ended).toMatchObject({ type: 'flow.launch.finished', passed: true });
    expect(ended.phones.map((phone) => phone.row.serial).sort()).toEqual(serials().sort());
    for (const phone of ended.phones) {
      expect(phone.passed).toBe(true);
      expect(phone.steps.map((step) => step.status)).toEqual(Array(7).fill('passed'));
      expect((await stateOf(phone.row.serial)).notes.map((note) => note.title)).toContain('Plums');
    }
    // Three tasks, one per phone, under the launch in history.
    const saved = (await createTaskStore(home).list()).tasks.filter((task) => task.launchId === ended.launchId);
    expect(saved.map((task) => task.serial).sort()).toEqual(serials().sort());
    const xml = await readFile(junit, 'utf8');
    expect(xml).toContain('<testsuites name="amc flow" tests="21" failures="0" errors="0" skipped="0"');
    for (const serial of serials()) expect(xml).toContain(`<testsuite name="new-note on ${serial}" tests="7" failures="0"`);
  });

  it('Scenario: A flow on a device group fails where one phone fails a step, and the table says which phone and step', async () => {
    const [first, second, third] = serials() as [string, string, string];
    // The second phone has no shopping list: its assert fails there, and its later steps do not run.
    await resetPhone(second, { notes: [{ title: 'Ideas', body: 'Learn to play the guitar' }] });
    const run = await runAmc(['flow', 'run', path.join(dir, 'new-note.yaml'), '--group', 'pair', '--yes'], { env: env(), timeoutMs: 90_000 });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^Phone +Outcome +Steps +Tokens +Cost +Time$/m);
    const escaped = (serial: string) => serial.replace(/\./g, '\\.');
    expect(run.stdout).toMatch(new RegExp(`^Flow .*new-note\\.yaml on ${escaped(first)}: 7 of 7 steps passed$`, 'm'));
    expect(run.stdout).toMatch(new RegExp(`^Flow .*new-note\\.yaml on ${escaped(second)}: 1 of 7 steps passed \\(1 failed, 5 not run\\)$`, 'm'));
    expect(run.stdout).toMatch(/FAILED +2\. assert: \{ visible: Shopping list \} — no "Shopping list" on screen; it shows "Notes", "Ideas"/);
    expect(run.stdout).toContain('1 of 2 phones passed every step.');
    expect((await stateOf(first)).notes.map((note) => note.title)).toContain('Groceries');
    // The failing phone stopped at its assert: no note was written there; the phone outside the group was not touched.
    expect((await stateOf(second)).notes).toEqual([{ title: 'Ideas', body: 'Learn to play the guitar' }]);
    expect((await stateOf(third)).foreground).toBe('com.android.launcher3');
    expect(run.stdout).not.toContain(third);
  });

  it('Scenario: A flow run names its phones one way only, and a broken file runs on none', async () => {
    const both = await runAmc(['flow', 'run', path.join(dir, 'new-note.yaml'), '--all', '-s', serials()[0]!], { env: env() });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/name the phones with one of -s SERIAL, --all or --group NAME/);
    const broken = path.join(dir, 'broken.yaml');
    await writeFile(broken, 'goal: x\nsteps:\n  - tap: {type: Button}\n');
    const run = await runAmc(['flow', 'run', broken, '--all'], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('line 3, column 10: a locator needs at least one of resourceId, text, desc, hint or row');
    for (const serial of serials()) expect((await stateOf(serial)).foreground).toBe('com.android.launcher3');
  });

  // Last: it takes a phone away for good.
  it('Scenario: A phone that vanishes mid-flow fails only its own run, at the step it could not take', async () => {
    const file = path.join(dir, 'slow-note.yaml');
    await writeFile(file, NEW_NOTE.replace('  - tap: {desc: New note}\n', '  - wait: {seconds: 3}\n  - tap: {desc: New note}\n'));
    const gone = extras[1]!;
    const { child, output } = await startAmc(['flow', 'run', file, '--all', '--yes', '--json'], /"tool":"wait"/, { env: env() });
    // The third phone's first step has passed (its outcome checked: the wait step is planned), then it goes away.
    const events = () => output().split('\n').filter((line) => line.startsWith('{"type":')).map((line) => JSON.parse(line) as { type: string; taskId?: string; serial?: string; tool?: string });
    const waiting = () => {
      const taskId = events().find((event) => event.type === 'task.started' && event.serial === gone.adbAddress)?.taskId;
      return events().some((event) => event.type === 'step.planned' && event.taskId === taskId && event.tool === 'wait');
    };
    await expect.poll(waiting, { timeout: 60_000 }).toBe(true);
    await gone.close();
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
    expect(child.exitCode).toBe(1);
    const ended = finishedLine(output().split('\n').filter((line) => line.startsWith('{')).join('\n'));
    const vanished = ended.phones.find((phone) => phone.row.serial === gone.adbAddress)!;
    expect(vanished.passed).toBe(false);
    expect(vanished.row.outcome).toBe('failed');
    expect(vanished.steps[0]!.status).toBe('passed');
    const failed = vanished.steps.find((step) => step.status === 'failed')!;
    expect(failed.detail).toMatch(/is offline: it is not answering adb right now/);
    expect(vanished.steps.at(-1)!.status).toBe('not-run');
    for (const phone of ended.phones.filter((each) => each.row.serial !== gone.adbAddress)) {
      expect(phone.passed).toBe(true);
      expect((await stateOf(phone.row.serial)).notes.map((note) => note.title)).toContain('Groceries');
    }
  });
});
