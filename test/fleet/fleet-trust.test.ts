// The fleet when whoever can write to its Redis, or bad luck, is against it: a real redis-server, `amc worker`
// processes offering a demo phone on the real adb server, their planner talking to a scripted model through the real
// Anthropic SDK, and `amc submit`, `amc fleet` and `amc schedule` as a person runs them. What the phone shows
// afterwards (GET /state) and what the terminal printed are the proof.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FleetClient, type FleetOverview } from '../../src/fleet/client';
import { connectRedis, FLEET_PREFIX, phoneClaimKey, phoneQueue, QUEUES_KEY, WORKERS_KEY } from '../../src/fleet/redis';
import { finish, slowedModel, startAnthropicFake, wifiOnModel, type AnthropicFake, type FakePolicy } from '../fakes/index';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { amcBin, anthropicDirectEnv, childEnv, runAmc } from '../support/cli';
import { startAmcWorker, stopAmcWorker, writeFileIn, type AmcWorker } from '../support/fleet-worker';
import { startTestRedis, type TestRedis } from '../support/redis-server';

const DELETE_CAROL = `goal: Delete Carol Williams
steps:
  - launch_app: Contacts
  - tap: {text: Carol Williams}
  - tap: {desc: Delete}
  - tap: {text: Delete}
`;
/** What a terminal would act on: ESC (colours, cursor moves, titles), BEL, CR (rewrites the line). */
// eslint-disable-next-line no-control-regex -- the characters a terminal acts on
const TERMINAL_CONTROL = /[\u001b\u0007\r\u009b]/;

let redis: TestRedis;
let fake: AnthropicFake;
let policy: FakePolicy = () => finish(true, 'idle');
let harness: AdbHarness;
let home: string;
let dir: string;
let client: FleetClient;
let raw: Redis;
const workers = new Map<string, AmcWorker>();

const redisUrl = () => `redis://127.0.0.1:${redis.port}`;

/** Starts `amc worker NAME` offering the demo phone and waits until it has joined the fleet. */
async function startWorker(name: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<AmcWorker> {
  const env = childEnv(anthropicDirectEnv(harness, home, fake.url, extraEnv));
  const worker = await startAmcWorker(['--redis', redisUrl(), '--name', name, '--serial', harness.serial, '--lock-seconds', '5', '--no-idle-reading'], env);
  workers.set(name, worker);
  return worker;
}

async function stopWorker(name: string): Promise<void> {
  const worker = workers.get(name);
  workers.delete(name);
  await stopAmcWorker(worker);
}

const flowFile = (name: string, text: string) => writeFileIn(dir, name, text);

beforeAll(async () => {
  redis = await startTestRedis();
  fake = await startAnthropicFake({ policy: (turn) => policy(turn) });
  harness = await startAdbHarness();
  home = await mkdtemp(path.join(os.tmpdir(), 'amc-fleet-trust-home-'));
  dir = await mkdtemp(path.join(os.tmpdir(), 'amc-fleet-trust-files-'));
  await startWorker('host-a');
  client = await FleetClient.open(new URL(redisUrl()));
  raw = connectRedis(new URL(redisUrl()));
}, 120_000);

afterAll(async () => {
  await client?.close();
  raw?.disconnect();
  for (const name of [...workers.keys()]) await stopWorker(name);
  await harness?.stop();
  await fake?.close();
  await redis?.dispose();
  for (const folder of [home, dir]) if (folder) await rm(folder, { recursive: true, force: true });
});

beforeEach(async () => {
  policy = () => finish(true, 'idle');
  await harness.reset({});
});

describe('a fleet that trusts nothing it reads from Redis', { timeout: 180_000 }, () => {
  it("Scenario: A job's own yes approves no sensitive action unless the worker's owner allows it", async () => {
    await harness.reset({ contactsPermission: 'granted' });
    // Every step is the flow's own: a model asked for anything has nothing to add.
    policy = () => finish(false, 'nothing to do');
    const file = await flowFile('delete-carol.yaml', DELETE_CAROL);
    const refused = await runAmc(['submit', '--redis', redisUrl(), '--flow', file, '--device', harness.serial, '--yes', '--wait'], { timeoutMs: 120_000 });
    expect(refused.code, refused.stdout + refused.stderr).toBe(1);
    expect(refused.stdout).toMatch(/this worker does not let jobs approve sensitive actions in advance \(its owner allows that in Settings → Fleet/);
    expect(refused.stdout).toMatch(/^ {4}FAILED +3\. tap: \{ desc: Delete \} — Tap .Delete. needs a person.s yes/m);
    expect(refused.stdout).toMatch(/^0 of 1 done — 0 queued, 0 running, 0 done, 0 not verified, 1 failed, /m);
    expect((await harness.state()).contacts.map((contact) => contact.name)).toContain('Carol Williams');

    // The owner of the worker's machine allows it: the same job now deletes the contact.
    await stopWorker('host-a');
    await startWorker('host-a', { AMC_FLEET_JOBS_MAY_PRE_APPROVE: 'true' });
    await harness.reset({ contactsPermission: 'granted' });
    try {
      const allowed = await runAmc(['submit', '--redis', redisUrl(), '--flow', file, '--device', harness.serial, '--yes', '--wait'], { timeoutMs: 120_000 });
      expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
      expect((await harness.state()).contacts.map((contact) => contact.name)).not.toContain('Carol Williams');
    } finally {
      await stopWorker('host-a');
      await startWorker('host-a');
    }
  });

  it("Scenario: A fleet job teaches the worker machine's plan cache nothing unless its owner allows it", async () => {
    // The owner's own terminal on the worker's machine: the same data folder the worker keeps its history in.
    const owner = childEnv(anthropicDirectEnv(harness, home, fake.url));
    const wifiJob = async () => {
      await harness.reset({ settings: { wifi: false } });
      policy = wifiOnModel;
      const ran = await runAmc(['submit', '--redis', redisUrl(), '--goal', 'Turn on Wi-Fi', '--device', harness.serial, '--wait'], { timeoutMs: 120_000 });
      expect(ran.code, ran.stdout + ran.stderr).toBe(0);
      expect((await harness.state()).settings.wifi).toBe(true);
    };
    await wifiJob();
    expect((await runAmc(['cache'], { env: owner })).stdout.trim()).toMatch(/^No runs are reused yet/);

    // The owner lets jobs use and teach it: the same job's run is now one this machine's tasks follow.
    await stopWorker('host-a');
    await startWorker('host-a', { AMC_FLEET_JOBS_USE_PLAN_CACHE: 'true' });
    try {
      await wifiJob();
      expect((await runAmc(['cache'], { env: owner })).stdout.trim()).toMatch(/^\S+ {2}\S+ {2}Turn on Wi-Fi$/);
    } finally {
      await runAmc(['cache', 'forget', 'Turn on Wi-Fi'], { env: owner });
      await stopWorker('host-a');
      await startWorker('host-a');
    }
  });

  it('Scenario: A job put straight into a queue is listed by amc fleet, its text from Redis escaped', async () => {
    // A writer that never registers its queue, and text meant for the terminal rather than for reading.
    await raw.del(QUEUES_KEY);
    const queue = new Queue(phoneQueue(harness.serial), { connection: connectRedis(new URL(redisUrl())), prefix: FLEET_PREFIX });
    try {
      const goal = 'Say hello\u001b[2K\r  done \u001b]0;owned\u0007';
      const job = await queue.add('goal', { goal, target: { kind: 'device', serial: harness.serial }, launchId: 'by-hand', submittedAt: new Date().toISOString() }, { jobId: 'planted\u001b[31m-1' });
      await expect.poll(async () => (await client.view(queue.name, job.id!))?.state, { timeout: 60_000 }).toMatch(/^(finished|failed)$/);
      await expect.poll(async () => (JSON.parse((await runAmc(['fleet', '--redis', redisUrl(), '--json'])).stdout) as FleetOverview).jobs.map((view) => view.launchId), { timeout: 10_000 }).toContain('by-hand');
      const fleet = await runAmc(['fleet', '--redis', redisUrl()]);
      expect(fleet.stdout).not.toMatch(TERMINAL_CONTROL);
      expect(fleet.stdout).toContain('Say hello\\x1b[2K\\r  done \\x1b]0;owned\\x07');
      expect(fleet.stdout).toContain('job planted\\x1b[31m-1');
      expect(workers.get('host-a')!.output()).not.toMatch(TERMINAL_CONTROL);
      expect(workers.get('host-a')!.output()).toContain('job planted\\x1b[31m-1 started — Say hello\\x1b[2K');
    } finally {
      await queue.close();
    }
  });

  it('Scenario: A worker entry dated ahead of now, or silent, offers nothing', async () => {
    const planted = (name: string, seenAt: string) =>
      JSON.stringify({ name, host: 'elsewhere', pid: 1, startedAt: seenAt, seenAt, phones: [{ serial: `${name}-phone`, state: 'ready', jobId: null, groups: ['ghosts'] }] });
    await raw.hset(WORKERS_KEY, 'future', planted('future', '2099-01-01T00:00:00.000Z'));
    await raw.hset(WORKERS_KEY, 'silent', planted('silent', new Date(Date.now() - 60_000).toISOString()));
    const overview = JSON.parse((await runAmc(['fleet', '--redis', redisUrl(), '--json'])).stdout) as FleetOverview;
    expect(overview.workers.find((worker) => worker.name === 'future')).toBeUndefined();
    expect(overview.workers.find((worker) => worker.name === 'silent')).toMatchObject({ alive: false });
    expect(overview.workers.find((worker) => worker.name === 'host-a')).toMatchObject({ alive: true });
    const submitted = await runAmc(['submit', '--redis', redisUrl(), '--goal', 'Turn on Wi-Fi', '--group', 'ghosts']);
    expect(submitted.code).toBe(2);
    expect(submitted.stderr).toMatch(/no worker offers a phone in the group "ghosts" now/);
  });

  it('Scenario: amc fleet counts every job of a queue, past one page', async () => {
    const before = JSON.parse((await runAmc(['fleet', '--redis', redisUrl(), '--json'])).stdout) as FleetOverview;
    const jobs = [];
    for (let index = 0; index < 120; index++) jobs.push(...(await client.submit({ goal: `Wait your turn ${index}` }, { device: 'nobody-offers:1' })));
    const after = JSON.parse((await runAmc(['fleet', '--redis', redisUrl(), '--json'])).stdout) as FleetOverview;
    expect(after.counts.queued - before.counts.queued).toBe(120);
    expect(after.jobs).toHaveLength(50);
    const shown = await runAmc(['fleet', '--redis', redisUrl()]);
    expect(shown.stdout).toMatch(new RegExp(`^Jobs: ${after.counts.queued} queued, `, 'm'));
    const queue = new Queue(jobs[0]!.queue, { connection: connectRedis(new URL(redisUrl())), prefix: FLEET_PREFIX });
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('Scenario: submit --wait ends with a clear reason for a phone nobody offers and for a timeout', async () => {
    const nobody = await runAmc(['submit', '--redis', redisUrl(), '--goal', 'Turn on Wi-Fi', '--device', '10.9.9.9:5555', '--wait'], { timeoutMs: 60_000 });
    expect(nobody.code, nobody.stdout + nobody.stderr).toBe(1);
    expect(nobody.stdout).toMatch(/^10\.9\.9\.9:5555: queued — no live worker offers 10\.9\.9\.9:5555; the job stays queued until one does \(see amc fleet\)/m);
    expect(nobody.stdout).toMatch(/^0 of 1 done — 1 queued, 0 running, 0 done, /m);

    // Another worker holds the phone: the job waits in the queue, longer than the person said to wait.
    await raw.set(phoneClaimKey(harness.serial), 'someone else', 'PX', 60_000);
    try {
      const timedOut = await runAmc(['submit', '--redis', redisUrl(), '--goal', 'Turn on Wi-Fi', '--device', harness.serial, '--wait', '--timeout', '3'], { timeoutMs: 60_000 });
      expect(timedOut.code, timedOut.stdout + timedOut.stderr).toBe(1);
      expect(timedOut.stdout).toMatch(/: queued — still queued after 3 s, the time given to wait; it goes on \(see amc fleet\)/);
      expect((await runAmc(['submit', '--redis', redisUrl(), '--goal', 'x', '--any', '--timeout', '3'])).stderr).toMatch(/--timeout limits how long --wait waits: give it with --wait/);
    } finally {
      await raw.del(phoneClaimKey(harness.serial));
    }
  });

  it('Scenario: A job lost in a Redis restart ends submit --wait with why, and the outage is one plain line', async () => {
    await raw.set(phoneClaimKey(harness.serial), 'someone else', 'PX', 120_000);
    const worker = workers.get('host-a')!;
    const outputBefore = worker.output().length;
    const child = spawn(process.execPath, [amcBin, 'submit', '--redis', redisUrl(), '--goal', 'Turn on Wi-Fi', '--device', harness.serial, '--wait'], { env: childEnv() });
    let out = '';
    let err = '';
    child.stdout.on('data', (data) => (out += data));
    child.stderr.on('data', (data) => (err += data));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await expect.poll(() => out, { timeout: 20_000 }).toMatch(/Queued job/);
    // Redis goes away without keeping its data, and comes back empty.
    await redis.stop();
    await expect.poll(() => err, { timeout: 20_000 }).toMatch(/does not answer/);
    await expect.poll(() => worker.output().slice(outputBefore), { timeout: 20_000 }).toMatch(/does not answer/);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await redis.start();
    expect(await exited).toBe(1);
    expect(out).toMatch(/: failed — the job is gone from the fleet's Redis \(restarted without keeping its data, or the job was removed\); it may not have run/);
    expect(err).toBe("amc submit: the fleet's Redis does not answer; still waiting for it (Ctrl-C stops waiting)\namc submit: the fleet's Redis answers again\n");
    await expect.poll(() => worker.output().slice(outputBefore), { timeout: 20_000 }).toMatch(/answers again/);
    const told = worker.output().slice(outputBefore);
    expect(told.match(/does not answer/g)).toHaveLength(1);
    expect(told).not.toMatch(/^\s+at |Error:|ECONNREFUSED.*\n.*ECONNREFUSED/m);
    // The worker takes jobs again.
    const again = await runAmc(['submit', '--redis', redisUrl(), '--goal', 'Turn on Wi-Fi', '--device', harness.serial, '--wait'], { timeoutMs: 60_000 });
    expect(again.stdout).toMatch(/1 of 1 done|done/);
  });

  it('Scenario: A phone offered by two workers runs their jobs one after the other, none failed', async () => {
    await harness.reset({ settings: { wifi: false } });
    policy = slowedModel(wifiOnModel, () => 700);
    await startWorker('host-b');
    try {
      const jobs = [...(await client.submit({ goal: 'Turn on Wi-Fi' }, { device: harness.serial })), ...(await client.submit({ goal: 'Turn on Wi-Fi' }, { device: harness.serial }))];
      const ended = await client.wait(jobs, () => undefined, { timeoutMs: 120_000 });
      expect(ended.map((view) => [view.state, view.reason])).toEqual([
        ['finished', null],
        ['finished', null],
      ]);
      const runs = ended.map((view) => view.result!).sort((a, b) => a.startedAt - b.startedAt);
      // One after the other on the phone, never both at once.
      expect(runs[1]!.startedAt).toBeGreaterThanOrEqual(runs[0]!.startedAt + runs[0]!.durationMs);
      expect((await harness.state()).settings.wifi).toBe(true);
    } finally {
      await stopWorker('host-b');
    }
  });

  it('Scenario: A fleet schedule fires at most once a minute, and one more often is refused in words', async () => {
    const perSecond = await runAmc(['schedule', 'add', '--redis', redisUrl(), '--name', 'hammer', '--cron', '* * * * * *', '--goal', 'Turn on Wi-Fi', '--any']);
    expect(perSecond.code).toBe(2);
    expect(perSecond.stderr).toMatch(/a fleet schedule runs at most once a minute; "\* \* \* \* \* \*" has a seconds field \("\*"\) that fires more often/);
    const everyFive = await runAmc(['schedule', 'add', '--redis', redisUrl(), '--name', 'hammer', '--every', '5', '--goal', 'Turn on Wi-Fi', '--any']);
    expect(everyFive.code).toBe(2);
    expect(everyFive.stderr).toMatch(/a fleet schedule runs at most once a minute: give --every 60 or more seconds/);
    expect((await runAmc(['schedule', 'list', '--redis', redisUrl()])).stdout).toBe('No schedules.\n');
    const nightly = await runAmc(['schedule', 'add', '--redis', redisUrl(), '--name', 'nightly', '--cron', '0 3 * * *', '--goal', 'Turn on Wi-Fi', '--any']);
    expect(nightly.code, nightly.stderr).toBe(0);
    expect((await runAmc(['schedule', 'remove', '--redis', redisUrl(), 'nightly'])).code).toBe(0);
  });
});
