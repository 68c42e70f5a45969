// The fleet on a real redis-server: how much more a launch of 12 goals for "any free phone" gets done with four demo
// phones (realistic profile, each in a process of its own) on two `amc worker` processes than with one phone, how long an idle fleet takes from
// `submit` to the first action on a phone, and how late a schedule's runs start. The model is the loopback fake
// through the real Anthropic SDK, answering at once: the figures are the fleet's and the phones', not a model's.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { FleetClient } from '../../src/fleet/client';
import { ANY_QUEUE, connectRedis, FLEET_PREFIX, QUEUES_KEY } from '../../src/fleet/redis';
import { callControlApi } from '@amc/demo-phone';
import { findElement, finish, startAnthropicFake, type FakeReply, type FakeTurn } from '../../test/fakes/index';
import { amcBin, anthropicDirectEnv, childEnv } from '../../test/support/cli';
import { startTestRedis } from '../../test/support/redis-server';
import { moveToAdbServer, startDemoPhoneProcess, type DemoPhoneProcess } from '../demo-phone-process';
import { median, type BenchCase, type BenchRow } from '../types';


const NAME = 'fleet (realistic phones in their own processes, 2 workers)';
const GOALS = 12;
/** The demo phone's home screen app. */
const LAUNCHER = 'com.android.launcher3';

const GOAL = 'Open Settings, then go home';
/** A schedule's goal: one look and an answer, so that its runs never wait for a phone and only the scheduler is timed. */
const TICK_GOAL = 'Say what the screen shows';
const OPENING = 'Opening Settings.';
const GOING_HOME = 'Going home.';

/**
 * Opens Settings, goes back home, then says so: three model calls, a tap and a key per goal, whichever phone runs it,
 * and the phone is left as it was found, so each goal of a launch is the same work.
 */
function openSettingsAndReturn(turn: FakeTurn): FakeReply {
  if (turn.goal === TICK_GOAL) return finish(true, 'The home screen');
  if (turn.scene?.screen.package === 'com.android.settings') return { kind: 'call', tool: 'press_key', args: { key: 'home' }, text: GOING_HOME };
  if (turn.allText.includes(OPENING) && turn.allText.includes(GOING_HOME)) return finish(true, 'Settings was opened and the phone is home again');
  const icon = findElement(turn.scene, /^Settings$/);
  if (icon) return { kind: 'call', tool: 'tap', args: { element_id: icon.id }, text: OPENING };
  return { kind: 'call', tool: 'press_key', args: { key: 'home' }, text: 'Finding the home screen.' };
}

/** A host: two demo phones, each in a process of its own (a phone's rendering is not the host's work), on one adb server. */
interface Host {
  phones: [DemoPhoneProcess, DemoPhoneProcess];
  home: string;
}

async function startHost(): Promise<Host> {
  const phones: [DemoPhoneProcess, DemoPhoneProcess] = [await startDemoPhoneProcess('realistic'), await startDemoPhoneProcess('realistic')];
  const [first, second] = phones;
  // The second phone moves to the first one's adb server, which the host's worker uses.
  await moveToAdbServer(second, first.env);
  return { phones, home: await mkdtemp(path.join(os.tmpdir(), 'amc-bench-fleet-')) };
}

async function stopHost(host: Host): Promise<void> {
  for (const phone of host.phones) await phone.stop();
  await rm(host.home, { recursive: true, force: true });
}

const resetPhone = (phone: DemoPhoneProcess) => callControlApi(phone.controlUrl, 'POST /reset', {});

async function startWorker(host: Host, redisUrl: string, modelUrl: string, name: string, serials: string[]): Promise<ChildProcess> {
  const [first] = host.phones;
  const env = childEnv(anthropicDirectEnv({ adbPort: Number(first.env.ANDROID_ADB_SERVER_PORT), env: first.env }, host.home, modelUrl));
  const args = [amcBin, 'worker', '--redis', redisUrl, '--name', name, ...serials.flatMap((serial) => ['--serial', serial])];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (data: Buffer) => {
      output += data.toString();
      if (output.includes('offers')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker ${name} exited (${code}): ${output}`)));
  });
  return child;
}

async function stopWorkers(workers: ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise((resolve) => {
          if (worker.exitCode !== null) return resolve(null);
          worker.once('exit', resolve);
          worker.kill('SIGTERM');
        }),
    ),
  );
}

async function resetPhones(hosts: Host[]): Promise<void> {
  for (const host of hosts) for (const phone of host.phones) await resetPhone(phone);
}

/** Seconds from queuing `GOALS` goals for any free phone until the last one ended. */
async function launchSeconds(client: FleetClient): Promise<{ seconds: number; completed: number; phones: number }> {
  const started = performance.now();
  const jobs = [];
  for (let index = 0; index < GOALS; index++) jobs.push(...(await client.submit({ goal: GOAL }, { any: true })));
  const ended = await client.wait(jobs, () => undefined, { pollMs: 50 });
  return {
    seconds: (performance.now() - started) / 1000,
    completed: ended.filter((view) => view.result?.status === 'completed').length,
    phones: new Set(ended.map((view) => view.result?.serial)).size,
  };
}

/** How long a phone is left alone to count as idle: its worker looks at an unchanged phone every 6 s at most, and reads a changed one in about 2.3 s. */
const IDLE_MS = 10_000;

/**
 * From `submit` on an idle fleet until the task starts on its phone, and until the phone has left its home screen
 * (the first tap landed: the phone's screen was read, the model asked, the tap sent). `idleMs`: how long the phone
 * was left alone after its screen last changed; 0 is a job that arrives just as the screen changed.
 */
async function submitToFirstAction(client: FleetClient, phone: DemoPhoneProcess, idleMs: number): Promise<{ toStart: number; toAction: number }> {
  await resetPhone(phone);
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  const submittedAt = Date.now();
  const [job] = await client.submit({ goal: GOAL }, { device: phone.serial });
  while ((await callControlApi(phone.controlUrl, 'GET /state')).foreground === LAUNCHER) await new Promise((resolve) => setTimeout(resolve, 10));
  const toAction = Date.now() - submittedAt;
  const [ended] = await client.wait([job!], () => undefined, { pollMs: 50 });
  return { toStart: ended!.result!.startedAt - submittedAt, toAction };
}

const fleetBench: BenchCase = {
  name: 'fleet',
  async run() {
    const redis = await startTestRedis();
    const model = await startAnthropicFake({ policy: openSettingsAndReturn });
    const hosts = [await startHost(), await startHost()];
    const redisUrl = `redis://127.0.0.1:${redis.port}`;
    const client = await FleetClient.open(new URL(redisUrl));
    const workers: ChildProcess[] = [];
    try {
      // One phone: one worker offering one phone.
      workers.push(await startWorker(hosts[0]!, redisUrl, model.url, 'one-phone', [hosts[0]!.phones[0].serial]));
      await resetPhones(hosts);
      const one = await launchSeconds(client);
      await stopWorkers(workers.splice(0));

      // Four phones: two workers, two phones each.
      for (const [index, host] of hosts.entries()) workers.push(await startWorker(host, redisUrl, model.url, `host-${index + 1}`, host.phones.map((phone) => phone.serial)));
      await resetPhones(hosts);
      const four = await launchSeconds(client);
      const firsts: Array<{ toStart: number; toAction: number }> = [];
      for (let round = 0; round < 5; round++) firsts.push(await submitToFirstAction(client, hosts[round % 2]!.phones[0], IDLE_MS));
      const firstActions = firsts.map((first) => first.toAction);
      const justChanged: number[] = [];
      for (let round = 0; round < 5; round++) justChanged.push((await submitToFirstAction(client, hosts[round % 2]!.phones[0], 0)).toAction);

      // A schedule every second for a few runs: how late each started against its planned time. `amc schedule` keeps
      // fleet schedules to once a minute, so the bench puts its job scheduler into BullMQ itself (the workers' side is
      // what is timed).
      await resetPhones(hosts);
      const connection = connectRedis(new URL(redisUrl));
      const anyQueue = new Queue(ANY_QUEUE, { connection, prefix: FLEET_PREFIX });
      await connection.sadd(QUEUES_KEY, ANY_QUEUE);
      const tick = { goal: TICK_GOAL, target: { kind: 'any' }, yes: false, answers: [], launchId: 'schedule:bench-tick', schedule: 'bench-tick', submittedAt: new Date().toISOString() };
      await anyQueue.upsertJobScheduler('bench-tick', { every: 1000 }, { name: 'goal', data: tick });
      let late: number[] = [];
      for (const deadline = Date.now() + 30_000; late.length < 6 && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const runs = (await client.overview(500)).jobs.filter((view) => view.launchId === 'schedule:bench-tick' && view.result?.lateMs !== undefined);
        late = runs.map((view) => view.result!.lateMs!);
      }
      await client.removeSchedule('bench-tick');
      await anyQueue.close();
      connection.disconnect();

      return [
        { case: NAME, metric: `${GOALS} goals for any free phone, 1 phone`, value: one.seconds, unit: 's' },
        { case: NAME, metric: `${GOALS} goals for any free phone, 4 phones on 2 workers`, value: four.seconds, unit: 's' },
        { case: NAME, metric: 'throughput 4 phones / 1 phone', value: one.seconds / four.seconds, unit: 'x', goal: '>= 3x' },
        { case: NAME, metric: 'goals completed (1 phone + 4 phones)', value: one.completed + four.completed, unit: `of ${2 * GOALS}` },
        { case: NAME, metric: 'phones that took a goal in the 4-phone launch', value: four.phones, unit: 'of 4' },
        { case: NAME, metric: 'submit -> the task starts on its phone, idle fleet (median of 5)', value: median(firsts.map((first) => first.toStart)), unit: 'ms' },
        // The worker read the idle phone's layout ahead: the first turn waits for a screenshot (0.3-0.5 s), not a dump.
        { case: NAME, metric: `submit -> first action on an idle fleet (phone left ${IDLE_MS / 1000} s; median of 5)`, value: median(firstActions), unit: 'ms', goal: '< 1000 ms' },
        { case: NAME, metric: 'submit -> first action on an idle fleet (slowest of 5)', value: Math.max(...firstActions), unit: 'ms' },
        // Nothing read ahead holds: the first turn waits for a dump, 1.1-1.9 s of uiautomator on the realistic profile.
        { case: NAME, metric: 'submit -> first action just after the screen changed (median of 5)', value: median(justChanged), unit: 'ms' },
        { case: NAME, metric: 'schedule every 1 s: start lateness (median)', value: median(late), unit: 'ms' },
        { case: NAME, metric: 'schedule every 1 s: start lateness (slowest)', value: late.length ? Math.max(...late) : Number.NaN, unit: 'ms' },
      ] satisfies BenchRow[];
    } finally {
      await stopWorkers(workers);
      await client.close();
      for (const host of hosts) await stopHost(host);
      await model.close();
      await redis.stop();
    }
  },
};

export default fleetBench;
