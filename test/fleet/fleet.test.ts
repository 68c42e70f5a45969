// The fleet end to end: a real redis-server, two `amc worker` processes each offering two demo phones on its own adb
// server, the AI planner of each host talking to a scripted model through the real Anthropic SDK, and `amc submit`,
// `amc fleet` and `amc schedule` as a person runs them. What each phone shows afterwards (GET /state) is the proof.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetClient, type FleetOverview } from '../../src/fleet/client';
import { connectRedis, FLEET_PREFIX, phoneQueue } from '../../src/fleet/redis';
import { callControlApi, type PhoneState, startVirtualDevice, type VirtualDevice } from '@amc/demo-phone';
import { finish, startAnthropicFake, type AnthropicFake, type FakeTurn, wifiOnModel, slowedModel } from '../fakes/index';

/** Wi-Fi on for the fleet's usual goal; a goal no phone can reach fails; "Say it is done" is claimed without acting. */
const fleetModel = (turn: FakeTurn) =>
  turn.goal?.includes('Make coffee') ? finish(false, 'This phone cannot make coffee.') : turn.goal?.includes('Say it is done') ? finish(true, 'It is done.') : wifiOnModel(turn);
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { amcBin, anthropicDirectEnv, childEnv, runAmc } from '../support/cli';
import { startTestRedis, type TestRedis } from '../support/redis-server';
import { createSecretStore } from '../../src/core/storage/settings-store';

const GOAL = 'Turn on Wi-Fi';
/** A worker's lock, short so a killed worker's job moves on within the test. */
const LOCK_SECONDS = 3;

let replyDelayMs = 0;

interface Host {
  name: string;
  harness: AdbHarness;
  /** The second phone, on the same adb server. */
  extra: VirtualDevice;
  home: string;
  serials: string[];
  worker: ChildProcess | null;
  output: string;
}

let redis: TestRedis;
let fake: AnthropicFake;
const hosts: Host[] = [];
let client: FleetClient;

const redisUrl = () => `redis://127.0.0.1:${redis.port}`;

async function startHost(name: string): Promise<Host> {
  const harness = await startAdbHarness();
  const extra = await startVirtualDevice({ port: 0, controlPort: 0 });
  await harness.adb(['connect', extra.adbAddress]);
  const home = await mkdtemp(path.join(os.tmpdir(), `amc-fleet-${name}-`));
  return { name, harness, extra, home, serials: [harness.serial, extra.adbAddress], worker: null, output: '' };
}

/** Starts `amc worker` for the host and waits until it has joined the fleet. */
async function startWorker(host: Host): Promise<void> {
  const env = childEnv(anthropicDirectEnv(host.harness, host.home, fake.url));
  const child = spawn(process.execPath, [amcBin, 'worker', '--redis', redisUrl(), '--name', host.name, '--group', 'lab', '--lock-seconds', String(LOCK_SECONDS)], { env });
  host.worker = child;
  host.output = '';
  child.stdout.on('data', (data) => (host.output += data));
  child.stderr.on('data', (data) => (host.output += data));
  // Polled by hand: expect.poll belongs to a test, and this also runs in beforeAll.
  for (const deadline = Date.now() + 30_000; !/offers/.test(host.output); ) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`worker ${host.name} did not join the fleet: ${host.output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function stopWorker(host: Host, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const child = host.worker;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
  host.worker = null;
}

const stateOf = (host: Host, serial: string): Promise<PhoneState> =>
  serial === host.harness.serial ? host.harness.state() : callControlApi(host.extra.controlUrl, 'GET /state');

async function resetAll(): Promise<void> {
  for (const host of hosts) {
    await host.harness.reset({ settings: { wifi: false } });
    await callControlApi(host.extra.controlUrl, 'POST /reset', { settings: { wifi: false } });
  }
}

const allSerials = () => hosts.flatMap((host) => host.serials);
const hostOf = (serial: string) => hosts.find((host) => host.serials.includes(serial))!;

beforeAll(async () => {
  redis = await startTestRedis();
  fake = await startAnthropicFake({ policy: slowedModel(fleetModel, () => replyDelayMs) });
  hosts.push(await startHost('host-a'), await startHost('host-b'));
  await Promise.all(hosts.map(startWorker));
  client = await FleetClient.open(new URL(redisUrl()));
}, 120_000);

afterAll(async () => {
  await client?.close();
  for (const host of hosts) {
    await stopWorker(host, 'SIGKILL');
    await host.extra.close();
    await host.harness.stop();
    await rm(host.home, { recursive: true, force: true });
  }
  await fake?.close();
  await redis?.stop();
});

describe('the fleet on Redis', { timeout: 180_000 }, () => {
  it('Scenario: A goal sent to a group ends on every phone of the group', async () => {
    await resetAll();
    const fleet = await runAmc(['fleet', '--redis', redisUrl(), '--json']);
    const overview = JSON.parse(fleet.stdout) as FleetOverview;
    expect(overview.workers.filter((worker) => worker.alive).flatMap((worker) => worker.phones.map((phone) => phone.serial)).sort()).toEqual(allSerials().sort());

    const submitted = await runAmc(['submit', '--redis', redisUrl(), '--goal', GOAL, '--group', 'lab', '--wait'], { timeoutMs: 120_000 });
    expect(submitted.stderr).toBe('');
    expect(submitted.code, submitted.stdout).toBe(0);
    expect(submitted.stdout).toMatch(/^4 of 4 done — 0 queued, 0 running, 4 done, 0 not verified, 0 failed, 0 stopped, 0 looked only, 0 interrupted\.$/m);
    for (const serial of allSerials()) {
      expect(submitted.stdout).toMatch(new RegExp(`${serial.replace(/\./g, '\\.')}: done \\(`));
      expect((await stateOf(hostOf(serial), serial)).settings.wifi).toBe(true);
    }
  });

  it('Scenario: amc fleet counts failed, not verified and done jobs apart', async () => {
    await resetAll();
    const before = JSON.parse((await runAmc(['fleet', '--redis', redisUrl(), '--json'])).stdout) as FleetOverview;
    // Four phones fail their goal, four claim success without acting.
    const failed = await runAmc(['submit', '--redis', redisUrl(), '--goal', 'Make coffee', '--group', 'lab', '--wait'], { timeoutMs: 120_000 });
    expect(failed.code, failed.stdout + failed.stderr).toBe(1);
    expect(failed.stdout).toMatch(/^0 of 4 done — 0 queued, 0 running, 0 done, 0 not verified, 4 failed, /m);
    const claimed = await runAmc(['submit', '--redis', redisUrl(), '--goal', 'Say it is done', '--group', 'lab', '--wait'], { timeoutMs: 120_000 });
    expect(claimed.code, claimed.stdout + claimed.stderr).toBe(1);
    expect(claimed.stdout).toMatch(/^0 of 4 done — 0 queued, 0 running, 0 done, 4 not verified, 0 failed, /m);
    expect(claimed.stdout).toMatch(/: done, not verified \(0 actions, /);

    const fleet = await runAmc(['fleet', '--redis', redisUrl(), '--json']);
    const after = JSON.parse(fleet.stdout) as FleetOverview;
    const added = (count: keyof FleetOverview['counts']) => (after.counts[count] ?? 0) - (before.counts[count] ?? 0);
    expect({ failed: added('failed'), notVerified: added('done-not-verified'), done: added('done') }).toEqual({ failed: 4, notVerified: 4, done: 0 });
    const text = await runAmc(['fleet', '--redis', redisUrl()]);
    expect(text.stdout).toMatch(new RegExp(`^Jobs: 0 queued, 0 running, ${after.counts.done} done, ${after.counts['done-not-verified']} not verified, ${after.counts.failed} failed, `, 'm'));
  });

  it('Scenario: Jobs for any free phone spread over the free phones', async () => {
    await resetAll();
    replyDelayMs = 400;
    try {
      const jobs = [];
      for (let index = 0; index < 4; index++) jobs.push(...(await client.submit({ goal: GOAL }, { any: true })));
      const ended = await client.wait(jobs, () => undefined);
      expect(ended.map((view) => view.result?.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
      const phones = new Set(ended.map((view) => view.result!.serial));
      // Four slow jobs queued at once on four free phones: more than one phone, on both hosts, took them.
      expect(phones.size).toBeGreaterThanOrEqual(3);
      expect(new Set(ended.map((view) => view.result!.worker))).toEqual(new Set(['host-a', 'host-b']));
      for (const serial of phones) expect((await stateOf(hostOf(serial), serial)).settings.wifi).toBe(true);
    } finally {
      replyDelayMs = 0;
    }
  });

  it('Scenario: A bad job payload is refused in plain words', async () => {
    const [host] = hosts;
    const queue = new Queue(phoneQueue(host!.harness.serial), { connection: connectRedis(new URL(redisUrl())), prefix: FLEET_PREFIX });
    try {
      await connectRedis(new URL(redisUrl())).sadd(`${FLEET_PREFIX}:queues`, phoneQueue(host!.harness.serial));
      const bad = await queue.add('goal', { goal: 42, target: { kind: 'any' } });
      const elsewhere = await queue.add('goal', {
        goal: GOAL,
        target: { kind: 'device', serial: '10.0.0.9:5555' },
        launchId: 'x',
        submittedAt: new Date().toISOString(),
      });
      await expect.poll(async () => (await client.view(queue.name, bad.id!))?.state, { timeout: 20_000 }).toBe('failed');
      expect((await client.view(queue.name, bad.id!))?.reason).toBe('the job was refused: goal: Invalid input: expected string, received number');
      await expect.poll(async () => (await client.view(queue.name, elsewhere.id!))?.reason, { timeout: 20_000 }).toBe(
        `the job was refused: it names 10.0.0.9:5555, and this queue is ${host!.harness.serial}'s`,
      );
      const fleet = await runAmc(['fleet', '--redis', redisUrl()]);
      expect(fleet.stdout).toMatch(/failed — the job was refused: goal: Invalid input/);
    } finally {
      await queue.close();
    }
  });

  it('Scenario: A worker killed mid-task: its job for any free phone completes on another phone, and the fleet shows the interruption', async () => {
    await resetAll();
    const [a, b] = hosts as [Host, Host];
    // Only host A takes jobs, and slowly: its task is mid-way when it dies.
    await stopWorker(b);
    replyDelayMs = 1_500;
    try {
      const asked = fake.requests.length;
      const [job] = await client.submit({ goal: GOAL }, { any: true });
      await expect.poll(async () => (await client.view(job!.queue, job!.id))?.state, { timeout: 20_000 }).toBe('running');
      // Its task is under way: host A has asked the model for its first step.
      await expect.poll(() => fake.requests.length, { timeout: 20_000 }).toBeGreaterThan(asked);
      await stopWorker(a, 'SIGKILL');
      await expect.poll(async () => (await client.overview()).jobs.find((view) => view.id === job!.id)?.state, { timeout: 20_000 }).toBe('interrupted');
      replyDelayMs = 0;
      await startWorker(b);
      const [ended] = await client.wait([job!], () => undefined);
      expect(ended!.result).toMatchObject({ status: 'completed', worker: 'host-b' });
      expect(ended!.result!.interruptedOn).toEqual([expect.stringMatching(/^host-a \(/)]);
      expect((await stateOf(b, ended!.result!.serial)).settings.wifi).toBe(true);
      const fleet = await runAmc(['fleet', '--redis', redisUrl()]);
      expect(fleet.stdout).toMatch(/host-a on .* — gone/);
      expect(fleet.stdout).toMatch(/interrupted before on host-a/);
    } finally {
      replyDelayMs = 0;
      await startWorker(a);
    }
  });

  it('Scenario: A schedule queues its goal each time it is due, until it is removed', async () => {
    await resetAll();
    // A fleet schedule fires at most once a minute; an `every` schedule fires at once, then each minute.
    const added = await runAmc(['schedule', 'add', '--redis', redisUrl(), '--name', 'wifi-check', '--every', '60', '--goal', GOAL, '--any']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/Schedule "wifi-check": every 60 s — Turn on Wi-Fi on any free phone; next /);
    const listed = await runAmc(['schedule', 'list', '--redis', redisUrl()]);
    expect(listed.stdout).toMatch(/^wifi-check: every 60 s/m);
    const scheduledRuns = async () => (await client.overview(200)).jobs.filter((view) => view.launchId === 'schedule:wifi-check' && view.state === 'finished');
    await expect.poll(async () => (await scheduledRuns()).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    for (const run of await scheduledRuns()) expect(run.result!.lateMs).toBeGreaterThanOrEqual(0);
    // The next firing is planned a minute after this one.
    const [next] = await client.schedules();
    expect(Date.parse(next!.nextRunAt!) - (await scheduledRuns())[0]!.result!.startedAt).toBeGreaterThan(50_000);
    const removed = await runAmc(['schedule', 'remove', '--redis', redisUrl(), 'wifi-check']);
    expect(removed.stdout).toBe('Removed the schedule "wifi-check".\n');
    expect((await runAmc(['schedule', 'list', '--redis', redisUrl()])).stdout).toBe('No schedules.\n');
    const again = await runAmc(['schedule', 'remove', '--redis', redisUrl(), 'wifi-check']);
    expect(again.code).toBe(1);
  });

  it('Scenario: A Redis address is checked and never printed with its password', async () => {
    const wrongScheme = await runAmc(['fleet', '--redis', 'http://user:hunter2@127.0.0.1:1']);
    expect(wrongScheme.code).toBe(2);
    expect(wrongScheme.stderr).toMatch(/--redis: the Redis address must start with redis:\/\/ or rediss:\/\/ \(TLS\), not http:\/\//);
    expect(wrongScheme.stderr + wrongScheme.stdout).not.toMatch(/hunter2/);
    const missing = await runAmc(['submit', '--goal', GOAL, '--any']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--redis URL is required \(or set AMC_FLEET_REDIS, or the Fleet Redis URL in Settings → Fleet\)/);
    const twoTargets = await runAmc(['submit', '--redis', redisUrl(), '--goal', GOAL, '--any', '--group', 'lab']);
    expect(twoTargets.stderr).toMatch(/exactly one of --device SERIAL, --group NAME or --any/);
    // Nothing answers there: one plain line, without the password, and no endless retrying.
    const unreachable = await runAmc(['fleet', '--redis', 'redis://:hunter2@127.0.0.1:1'], { timeoutMs: 30_000 });
    expect(unreachable.code).toBe(1);
    // A refused connection names its error code; a machine too busy to see the refusal in time says that none answered.
    expect(unreachable.stderr).toMatch(
      /^amc fleet: (cannot reach the fleet's Redis at redis:\/\/127\.0\.0\.1:1 \(ECONNREFUSED\)|the fleet's Redis at redis:\/\/127\.0\.0\.1:1 did not answer within 5 s)/,
    );
    expect(unreachable.stderr + unreachable.stdout).not.toMatch(/hunter2|Unhandled error/);
    const noGroup = await runAmc(['submit', '--redis', redisUrl(), '--goal', GOAL, '--group', 'nobody']);
    expect(noGroup.stderr).toMatch(/no worker offers a phone in the group "nobody" now/);
  });
  it('Scenario: amc worker and amc submit read the Fleet Redis URL saved in Settings', async () => {
    // Saved in Settings → Fleet (the AMC_FLEET_REDIS secret), on a Redis database of its own so this fleet's
    // workers and jobs stay apart; no --redis and no variable is given.
    const home = await mkdtemp(path.join(os.tmpdir(), 'amc-fleet-saved-'));
    const saved = `${redisUrl()}/5`;
    await createSecretStore(home).set('AMC_FLEET_REDIS', saved);
    const host = hosts[0]!;
    const env = anthropicDirectEnv(host.harness, home, fake.url);
    const worker = spawn(process.execPath, [amcBin, 'worker', '--name', 'from-settings', '--serial', host.harness.serial], { env: childEnv(env) });
    let output = '';
    worker.stdout.on('data', (data) => (output += data));
    worker.stderr.on('data', (data) => (output += data));
    try {
      await expect.poll(() => output, { timeout: 30_000 }).toMatch(/Worker from-settings offers /);
      const submitted = await runAmc(['submit', '--goal', GOAL, '--group', 'nobody'], { env });
      expect(submitted.stderr).toMatch(/no worker offers a phone in the group "nobody" now/);
      const listed = await runAmc(['fleet'], { env });
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain('from-settings');
      // The default database's fleet never saw it.
      expect((await client.workers()).map((entry) => entry.name)).not.toContain('from-settings');
    } finally {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.kill('SIGTERM');
      await exited;
      await rm(home, { recursive: true, force: true });
    }
  });
});
