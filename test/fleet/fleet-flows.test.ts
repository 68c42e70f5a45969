// Flows on the fleet end to end: a real redis-server, an `amc worker` offering two demo phones on its adb server, its
// AI planner talking to a scripted model through the real Anthropic SDK, and `amc submit --flow`, `amc fleet` and
// `amc schedule` as a person runs them. What each phone shows afterwards (GET /state) is the proof.
import { mkdtemp, rm, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FleetClient } from '../../src/fleet/client';
import { connectRedis, FLEET_PREFIX, phoneQueue } from '../../src/fleet/redis';
import { callControlApi, startVirtualDevice, type PhoneState, type VirtualDevice } from '@amc/demo-phone';
import { finish, startAnthropicFake, type AnthropicFake, type FakePolicy } from '../fakes/index';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { anthropicDirectEnv, childEnv, runAmc } from '../support/cli';
import { startAmcWorker, stopAmcWorker, writeFileIn, type AmcWorker } from '../support/fleet-worker';
import { startTestRedis, type TestRedis } from '../support/redis-server';

const NEW_NOTE = `goal: Write the note \${title}
vars:
  title: Groceries
steps:
  - launch_app: Notes
  - tap: {desc: New note}
  - type_text: {target: {resourceId: note_title}, text: "\${title}"}
  - press_key: back
  - tap: {text: Save}
  - assert: {visible: "\${title}", app: com.amc.notes}
`;

/** The same note written in Maestro's syntax, as a QA team keeps it: the header's env gives the title, `-e` another. */
const MAESTRO_NOTE = `appId: com.amc.notes
name: Write a fleet note
env:
  TITLE: Groceries
---
- launchApp
- tapOn: "New note"
- tapOn:
    id: "com.amc.notes:id/note_title"
- inputText: \${TITLE}
- back
- tapOn: Save
- assertVisible: \${TITLE}
`;

let redis: TestRedis;
let fake: AnthropicFake;
let policy: FakePolicy = () => finish(true, 'idle');
let harness: AdbHarness;
let extra: VirtualDevice;
let home: string;
let dir: string;
let worker: AmcWorker | null = null;
let client: FleetClient;

const redisUrl = () => `redis://127.0.0.1:${redis.port}`;
const serials = () => [harness.serial, extra.adbAddress];
const stateOf = (serial: string): Promise<PhoneState> => (serial === harness.serial ? harness.state() : callControlApi(extra.controlUrl, 'GET /state'));
const flowFile = (name: string, text: string) => writeFileIn(dir, name, text);

beforeAll(async () => {
  redis = await startTestRedis();
  fake = await startAnthropicFake({ policy: (turn) => policy(turn) });
  harness = await startAdbHarness();
  extra = await startVirtualDevice({ port: 0, controlPort: 0 });
  await harness.adb(['connect', extra.adbAddress]);
  home = await mkdtemp(path.join(os.tmpdir(), 'amc-fleet-flows-home-'));
  dir = await mkdtemp(path.join(os.tmpdir(), 'amc-fleet-flows-files-'));
  const env = childEnv(anthropicDirectEnv(harness, home, fake.url));
  worker = await startAmcWorker(['--redis', redisUrl(), '--name', 'host-a', '--group', 'lab'], env);
  client = await FleetClient.open(new URL(redisUrl()));
}, 120_000);

afterAll(async () => {
  await client?.close();
  await stopAmcWorker(worker, 'SIGKILL');
  await extra?.close();
  await harness?.stop();
  await fake?.close();
  await redis?.dispose();
  for (const folder of [home, dir]) if (folder) await rm(folder, { recursive: true, force: true });
});

beforeEach(async () => {
  policy = () => finish(true, 'idle');
  await harness.reset({});
  await callControlApi(extra.controlUrl, 'POST /reset', {});
});

describe('flows on the fleet', { timeout: 180_000 }, () => {
  it('Scenario: A flow submitted to a group runs on every phone of the group, and the results carry each step', async () => {
    const file = await flowFile('new-note.yaml', NEW_NOTE);
    const submitted = await runAmc(['submit', '--redis', redisUrl(), '--flow', file, '--var', 'title=Plums', '--group', 'lab', '--yes', '--wait'], { timeoutMs: 120_000 });
    expect(submitted.stderr).toBe('');
    expect(submitted.code, submitted.stdout).toBe(0);
    expect(submitted.stdout).toMatch(/^2 of 2 done — 0 queued, 0 running, 2 done, 0 not verified, 0 failed, 0 stopped, 0 looked only, 0 interrupted\.$/m);
    for (const serial of serials()) {
      expect(submitted.stdout).toMatch(new RegExp(`^${serial.replace(/\./g, '\\.')}: done, 6 of 6 steps passed \\(`, 'm'));
      expect((await stateOf(serial)).notes.map((note) => note.title)).toContain('Plums');
    }
    expect(submitted.stdout).toMatch(/^ {4}passed +6\. assert: \{ visible: Plums, app: com\.amc\.notes \} — "Plums" is on screen/m);
    // The flow's content travelled in the job: the file's later edits or deletion change nothing already queued.
    const fleet = await runAmc(['fleet', '--redis', redisUrl()]);
    expect(fleet.stdout).toMatch(/done, 6 of 6 steps passed .* — flow new-note$/m);
    const json = await runAmc(['fleet', '--redis', redisUrl(), '--json']);
    const flowJobs = (JSON.parse(json.stdout) as Awaited<ReturnType<FleetClient['overview']>>).jobs.filter((view) => view.flow === 'new-note');
    expect(flowJobs).toHaveLength(2);
    for (const view of flowJobs) expect(view.result!.flowSteps!.map((step) => step.status)).toEqual(Array(6).fill('passed'));
  });

  it('Scenario: A flow job whose ai step the model answers with nonsense fails at that step, and the phone is left as the step found it', async () => {
    // A tool that does not exist, with arguments that mean nothing: no action the runtime can take.
    policy = () => ({ kind: 'call', tool: 'summon_unicorn', args: { colour: 'plaid', count: -3 }, text: 'Bananas are an excellent source of potassium.' });
    const file = await flowFile('open-list.yaml', 'goal: Open the shopping list\nsteps:\n  - launch_app: Notes\n  - ai: Open the note called Shopping list\n  - assert: {visible: "Milk, eggs, bread"}\n');
    const submitted = await runAmc(['submit', '--redis', redisUrl(), '--flow', file, '--device', harness.serial, '--wait', '--json'], { timeoutMs: 120_000 });
    expect(submitted.code, submitted.stdout + submitted.stderr).toBe(1);
    const ended = submitted.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; result?: { status: string; flowSteps: Array<{ status: string; detail: string }> } })
      .find((line) => line.type === 'job.ended')!;
    expect(ended.result!.status).toBe('failed');
    const [launched, ai, assertion] = ended.result!.flowSteps;
    expect(launched!.status).toBe('passed');
    expect(ai!.status).toBe('failed');
    expect(ai!.detail).toMatch(/model called unknown tool "summon_unicorn" \(offered: tap, /);
    expect(assertion).toMatchObject({ status: 'not-run' });
    // Notes was opened by the flow's first step; the note was never opened.
    const state = await stateOf(harness.serial);
    expect(state.foreground).toBe('com.amc.notes');
    expect(state.activity).toMatch(/NotesActivity$/);
  });

  it('Scenario: A broken flow is refused at submit time with its line and column, and nothing is queued', async () => {
    const before = (await client.overview(500)).jobs.length;
    const broken = await flowFile('broken.yaml', 'goal: Write a note\nsteps:\n  - launch_app: Notes\n  - tap: {type: Button}\n');
    const submitted = await runAmc(['submit', '--redis', redisUrl(), '--flow', broken, '--any']);
    expect(submitted.code).toBe(2);
    expect(submitted.stderr).toBe(`amc submit: ${broken} has a problem:\n  line 4, column 10: a locator needs at least one of resourceId, text, desc, hint or row\n`);
    const both = await runAmc(['submit', '--redis', redisUrl(), '--flow', broken, '--goal', 'Turn on Wi-Fi', '--any']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/say what to run with exactly one of --goal TEXT or --flow FILE/);
    const stray = await runAmc(['submit', '--redis', redisUrl(), '--goal', 'Turn on Wi-Fi', '--var', 'title=x', '--any']);
    expect(stray.stderr).toMatch(/--var fills a flow's variables: give it with --flow FILE/);
    const unused = await runAmc(['submit', '--redis', redisUrl(), '--flow', await flowFile('ok.yaml', NEW_NOTE), '--var', 'titel=x', '--any']);
    expect(unused.code).toBe(2);
    expect(unused.stderr).toMatch(/--var titel: this flow has no variable `titel` \(its variables: title\)/);
    expect((await client.overview(500)).jobs.length).toBe(before);
    for (const serial of serials()) expect((await stateOf(serial)).foreground).toBe('com.android.launcher3');
  });

  it('Scenario: A hand-written bad flow payload is refused by the worker in plain words', async () => {
    const queueName = phoneQueue(harness.serial);
    const queue = new Queue(queueName, { connection: connectRedis(new URL(redisUrl())), prefix: FLEET_PREFIX });
    const base = { target: { kind: 'device', serial: harness.serial }, launchId: 'by-hand', submittedAt: new Date().toISOString() };
    try {
      // A tool that does not exist, and a type_text without its text: FlowSchema lets both through, the worker does not.
      const flying = { goal: 'Fly', steps: [{ tool: 'fly', args: {} }, { tool: 'type_text', args: { speed: 3 } }] };
      const unknownTool = await queue.add('flow', { ...base, goal: 'Fly', flow: { name: 'fly', content: flying } });
      const noSteps = await queue.add('flow', { ...base, goal: 'Nothing', flow: { name: 'empty', content: { goal: 'Nothing', steps: [] } } });
      // A path instead of a flow: a worker never reads a flow from its own disk.
      const aPath = await queue.add('flow', { ...base, goal: 'Read a file', flow: '/etc/passwd' });
      await expect.poll(async () => (await client.view(queueName, aPath.id!))?.state, { timeout: 20_000 }).toBe('failed');
      expect((await client.view(queueName, unknownTool.id!))?.reason).toMatch(
        /^the job was refused: its flow has 3 problems: step 1: `fly` is not a tool; the tools are .*; step 2: `text` is missing \(text\); step 2: `speed` is not a field of/,
      );
      expect((await client.view(queueName, noSteps.id!))?.reason).toBe('the job was refused: flow.content.steps: Too small: expected array to have >=1 items');
      expect((await client.view(queueName, aPath.id!))?.reason).toBe('the job was refused: flow: Invalid input: expected object, received string');
      // Nothing ran on the phone.
      expect((await stateOf(harness.serial)).foreground).toBe('com.android.launcher3');
    } finally {
      await queue.close();
    }
  });

  it("Scenario: A fleet schedule of a flow keeps the flow's content, runs it each time it is due, and is listed as flow NAME", async () => {
    const file = await flowFile('nightly-note.yaml', NEW_NOTE);
    const added = await runAmc(['schedule', 'add', '--redis', redisUrl(), '--name', 'nightly', '--every', '60', '--flow', file, '--var', 'title=Figs', '--device', extra.adbAddress, '--yes']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(new RegExp(`^Schedule "nightly": every 60 s — flow nightly-note on ${extra.adbAddress.replace(/\./g, '\\.')}; next `, 'm'));
    expect(added.stdout).toContain("A schedule keeps the flow's content as it is when added: editing or deleting the file later changes nothing scheduled");
    // The file is gone before the first run: what runs is what was kept.
    await unlink(file);
    expect((await runAmc(['schedule', 'list', '--redis', redisUrl()])).stdout).toMatch(/^nightly: every 60 s — flow nightly-note on /m);
    const runs = async () => (await client.overview(200)).jobs.filter((view) => view.launchId === 'schedule:nightly' && view.state === 'finished');
    try {
      await expect.poll(async () => (await runs()).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
      const [run] = await runs();
      expect(run!.flow).toBe('nightly-note');
      expect(run!.result!.flowSteps!.map((step) => step.status)).toEqual(Array(6).fill('passed'));
      expect((await stateOf(extra.adbAddress)).notes.map((note) => note.title)).toContain('Figs');
    } finally {
      expect((await runAmc(['schedule', 'remove', '--redis', redisUrl(), 'nightly'])).code).toBe(0);
    }
    const broken = await flowFile('broken-nightly.yaml', 'goal: x\nsteps:\n  - tap: {type: Button}\n');
    const refused = await runAmc(['schedule', 'add', '--redis', redisUrl(), '--name', 'broken', '--every', '60', '--flow', broken, '--any']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('line 3, column 10: a locator needs at least one of resourceId, text, desc, hint or row');
    expect((await runAmc(['schedule', 'list', '--redis', redisUrl()])).stdout).toBe('No schedules.\n');
  });
  it('Scenario: A Maestro flow submitted with amc submit --flow runs on the fleet as it is, with -e, and its verdict is honest', async () => {
    const file = await flowFile('fleet-note.yaml', MAESTRO_NOTE);
    const submitted = await runAmc(['submit', '--redis', redisUrl(), '--flow', file, '-e', 'TITLE=Apricots', '--device', harness.serial, '--yes', '--wait'], { timeoutMs: 120_000 });
    expect(submitted.stderr).toBe('');
    expect(submitted.code, submitted.stdout).toBe(0);
    expect(submitted.stdout).toMatch(/^1 of 1 done — 0 queued, 0 running, 1 done, 0 not verified, 0 failed, 0 stopped, 0 looked only, 0 interrupted\.$/m);
    expect(submitted.stdout).toMatch(new RegExp(`^${harness.serial.replace(/\./g, '\\.')}: done, 8 of 8 steps passed \\(`, 'm'));
    // launchApp stops the app first, as Maestro does; each step's line names the Maestro line it was written on.
    expect(submitted.stdout).toMatch(/^ {4}passed +1\. line 6: stop_app: com\.amc\.notes/m);
    expect(submitted.stdout).toMatch(/^ {4}passed +8\. line 13: assert: \{ visible: Apricots \} — "Apricots" is on screen/m);
    const state = await stateOf(harness.serial);
    expect(state.notes.map((note) => note.title)).toContain('Apricots');
    expect(state.notes.map((note) => note.title)).not.toContain('Groceries');
    expect((await stateOf(extra.adbAddress)).notes.map((note) => note.title)).not.toContain('Apricots');

    // A Maestro selector the phone does not show fails the job at that step, honestly, and leaves the rest not run.
    const missing = await flowFile('fleet-missing.yaml', 'appId: com.amc.notes\n---\n- launchApp\n- tapOn: "Meeting notes"\n- tapOn: Save\n');
    const failed = await runAmc(['submit', '--redis', redisUrl(), '--flow', missing, '--device', harness.serial, '--yes', '--wait'], { timeoutMs: 120_000 });
    expect(failed.code, failed.stdout + failed.stderr).toBe(1);
    expect(failed.stdout).toMatch(/^0 of 1 done — 0 queued, 0 running, 0 done, 0 not verified, 1 failed/m);
    expect(failed.stdout).toMatch(/^ {4}FAILED +3\. line 4: tap: \{ label: Meeting notes \} — no 'Meeting notes' on this screen/m);
    expect(failed.stdout).toMatch(/^ {4}not run +4\. line 5: tap:/m);
    expect((await stateOf(harness.serial)).foreground).toBe('com.amc.notes');
  });

  it("Scenario: A fleet schedule of a Maestro flow runs it when due, listed by the file's name", async () => {
    const file = await flowFile('maestro-nightly.yaml', MAESTRO_NOTE);
    const added = await runAmc(['schedule', 'add', '--redis', redisUrl(), '--name', 'maestro-nightly', '--every', '60', '--flow', file, '-e', 'TITLE=Dates', '--device', extra.adbAddress, '--yes']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(new RegExp(`^Schedule "maestro-nightly": every 60 s — flow maestro-nightly on ${extra.adbAddress.replace(/\./g, '\\.')}; next `, 'm'));
    await unlink(file);
    const runs = async () => (await client.overview(200)).jobs.filter((view) => view.launchId === 'schedule:maestro-nightly' && view.state === 'finished');
    try {
      await expect.poll(async () => (await runs()).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
      const [run] = await runs();
      expect(run!.flow).toBe('maestro-nightly');
      expect(run!.result!.status).toBe('completed');
      expect(run!.result!.flowSteps!.map((step) => step.status)).toEqual(Array(8).fill('passed'));
      expect((await stateOf(extra.adbAddress)).notes.map((note) => note.title)).toContain('Dates');
    } finally {
      expect((await runAmc(['schedule', 'remove', '--redis', redisUrl(), 'maestro-nightly'])).code).toBe(0);
    }
    // A Maestro command amc does not run is refused when the schedule is added, with its line and column: nothing kept.
    const scripted = await flowFile('maestro-scripted.yaml', 'appId: com.amc.notes\n---\n- launchApp\n- runScript: setup.js\n');
    const refused = await runAmc(['schedule', 'add', '--redis', redisUrl(), '--name', 'scripted', '--every', '60', '--flow', scripted, '--any']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('line 4, column 3: runScript: amc does not run this Maestro command');
    expect((await runAmc(['schedule', 'list', '--redis', redisUrl()])).stdout).toBe('No schedules.\n');
  });
});
