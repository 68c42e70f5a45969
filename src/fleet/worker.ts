// A host's part in the fleet: it offers its phones and runs the jobs sent to them, each goal planned on this host with
// its own settings and keys. Per phone, one BullMQ worker takes the jobs queued for that phone and one takes jobs any
// free phone may run; a phone runs one job at a time. A job of a worker that vanished is run again elsewhere by
// BullMQ's stalled-job check (shared queue) or, for a phone's own queue, ends as interrupted.
import { ENGLISH, type Words } from '../shared/i18n/translate';
import { textForReader, wordCode } from '../shared/said';
import { finishedVerdict } from '../shared/verdict';
import { finishedOutcomeWords } from '../shared/launch';
import { actionCount } from '../shared/turns';
import os from 'node:os';
import { DelayedError, Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { TaskRecord } from '../shared/task';
import type { FlowStepResult } from '../shared/flow';
import { describeJobProblem, FleetJobSchema, type FleetJob, type FleetPhone, type FleetResult, type FleetWorkerInfo } from './job';
import { workWords } from '../shared/fleet';
import { shownText } from '../shared/shown-text';
import { failureWordsOf } from '../shared/task-failure';
import { ANY_QUEUE, connectRedis, FLEET_PREFIX, HEARTBEAT_MS, phoneClaimKey, phoneQueue, QUEUES_KEY, reachRedis, redisLabel, WORKER_ALIVE_MS, workerAliveKey, WORKERS_KEY } from './redis';

/** How a job's task ended: the finished task and, for a flow job, how each of its steps went. */
export interface JobRun {
  record: TaskRecord;
  flowSteps?: FlowStepResult[];
}

/** Runs one job (a goal, or a flow) on one phone with this host's settings; resolves once the task ended, whatever its outcome. */
export type RunJob = (job: FleetJob, serial: string, signal: AbortSignal) => Promise<JobRun>;

export interface FleetWorkerOptions {
  redis: URL;
  /** How this worker is named in `amc fleet` (default: host name and process id). */
  name?: string;
  /** The phones offered. */
  serials: string[];
  /** The device groups a phone belongs to (`amc submit --group NAME`); none when absent. */
  groupsOf?(serial: string): string[];
  /** How many of its phones run jobs at once (default: all of them). */
  concurrency?: number;
  /** How long a job of a worker that stopped answering waits before the shared queue gives it to another (BullMQ's lock). */
  lockDurationMs?: number;
  /** Which phones the adb server sees as ready now. */
  readySerials(): Promise<Set<string>>;
  runJob: RunJob;
  /** Why this host refuses a job its schema lets through (a flow step its tools cannot carry out), or null. */
  refuse?(job: FleetJob): string | null;
  /** The language this worker's refusals are written in (its terminal's); English by default. */
  words?: Words;
  /** One line per job started and ended, for the terminal. */
  say?(line: string): void;
}

/** Connection failures this soon after Redis answered again are the tail of the outage already told. */
const OUTAGE_TAIL_MS = 10_000;
/** An `any` job picked by a phone that cannot take it goes back for this long, for another phone to take. */
const HAND_BACK_MS = 250;

interface StartedEntry {
  event: 'started';
  worker: string;
  serial: string;
  at: string;
}

/** The summary a finished task leaves in Redis. */
export function resultOf({ record, flowSteps }: JobRun, worker: string, interruptedOn: string[], lateMs: number | undefined): FleetResult {
  const started = record.startedAt ?? record.createdAt;
  const finished = record.finishedAt ?? Date.now();
  return {
    worker,
    serial: record.serial,
    taskId: record.id,
    status: record.status,
    verdict: finishedVerdict(record),
    failureReason: record.failureReason,
    ...(record.failureSaid && { failureSaid: record.failureSaid }),
    ...(record.failure && { failure: record.failure }),
    result: record.result,
    steps: actionCount(record),
    inputTokens: record.usage.inputTokens,
    outputTokens: record.usage.outputTokens,
    costUsd: record.costUsd,
    startedAt: started,
    durationMs: Math.max(0, finished - started),
    interruptedOn,
    ...(lateMs !== undefined && { lateMs }),
    ...(flowSteps && { flowSteps }),
  };
}

/** Sets a key's time to live, or deletes it, only while it still holds this worker's value (another's claim stays). */
const RENEW_IF_MINE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0`;
const DELETE_IF_MINE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

class Phone {
  busyWith: string | null = null;
  ready = true;
  constructor(
    readonly serial: string,
    readonly own: Worker,
    readonly shared: Worker,
  ) {}
}

export class FleetWorker {
  readonly name: string;
  private readonly connection: Redis;
  private readonly phones = new Map<string, Phone>();
  private readonly running = new Map<string, AbortController>();
  /** For reading a job's log (who started it before): one per queue this worker takes jobs from. */
  private readonly queues = new Map<string, Queue>();
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly startedAt = new Date().toISOString();
  private closed = false;
  private readonly lockDuration: number;
  /** Whether the fleet's Redis stopped answering: said once, and once more when a report goes through again. */
  private redisDown = false;
  private redisBackAt = 0;

  constructor(private readonly options: FleetWorkerOptions) {
    this.name = options.name ?? `${os.hostname()}-${process.pid}`;
    this.connection = connectRedis(options.redis);
    this.lockDuration = options.lockDurationMs ?? 30_000;
  }

  /**
   * One plain line while the fleet's Redis is away, however many of its connections fail and retry; the failures
   * its other connections report just after a report went through again belong to the same outage.
   */
  private redisProblem(error: Error): void {
    if (this.closed || this.redisDown || Date.now() - this.redisBackAt < OUTAGE_TAIL_MS) return;
    this.redisDown = true;
    const why = (error as NodeJS.ErrnoException).code ?? error.message;
    this.options.say?.(`fleet: the Redis at ${redisLabel(this.options.redis)} does not answer (${shownText(why)}); jobs wait until it is back`);
  }

  /** Starts taking jobs for every offered phone and reporting itself; refused in plain words when Redis does not answer. */
  async start(): Promise<void> {
    (await reachRedis(this.options.redis)).disconnect();
    const lockDuration = this.lockDuration;
    // A lock not renewed for lockDuration means its worker is gone; the check for such jobs runs as often.
    const workerOptions = { connection: this.connection, prefix: FLEET_PREFIX, concurrency: 1, lockDuration, stalledInterval: lockDuration, autorun: false };
    for (const serial of this.options.serials) {
      // A phone's own job cannot go to another phone: a stalled one ends (interrupted) instead of running again.
      const own = new Worker(phoneQueue(serial), (job, token) => this.process(serial, 'own', job, token), { ...workerOptions, maxStalledCount: 0 });
      const shared = new Worker(ANY_QUEUE, (job, token) => this.process(serial, 'shared', job, token), { ...workerOptions, maxStalledCount: 1 });
      for (const worker of [own, shared]) worker.on('error', (error) => this.redisProblem(error));
      this.phones.set(serial, new Phone(serial, own, shared));
    }
    await this.report();
    this.connection.on('error', (error: Error) => this.redisProblem(error));
    this.heartbeat = setInterval(() => void this.report().catch(() => undefined), HEARTBEAT_MS);
    for (const phone of this.phones.values()) {
      void phone.own.run();
      void phone.shared.run();
    }
    await Promise.all([...this.phones.values()].flatMap((phone) => [phone.own.waitUntilReady(), phone.shared.waitUntilReady()]));
  }

  /** Stops taking jobs; running tasks are stopped (they end cancelled, and say so) unless `finishRunning`. */
  async close(finishRunning = false): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (!finishRunning) for (const controller of this.running.values()) controller.abort();
    await Promise.all([...this.phones.values()].flatMap((phone) => [phone.own.close(), phone.shared.close()]));
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    await this.connection.hdel(WORKERS_KEY, this.name).catch(() => undefined);
    await this.connection.del(workerAliveKey(this.name)).catch(() => undefined);
    await this.connection.quit().catch(() => undefined);
  }

  private busyCount(): number {
    return [...this.phones.values()].filter((phone) => phone.busyWith !== null).length;
  }

  private async process(serial: string, from: 'own' | 'shared', job: Job, token: string | undefined): Promise<FleetResult> {
    const parsed = FleetJobSchema.safeParse(job.data);
    const words = this.options.words;
    const refusal = (reason: string) => new UnrecoverableError(wordCode('fleetJob.refused', { reason }, words));
    if (!parsed.success) throw refusal(describeJobProblem(parsed.error, words));
    const data = parsed.data;
    const refused = this.options.refuse?.(data);
    if (refused) throw refusal(refused);
    const target = data.target;
    if (from === 'own' && (target.kind !== 'device' || target.serial !== serial)) {
      throw refusal(target.kind === 'device' ? wordCode('fleetJob.otherPhone', { target: target.serial, serial }, words) : wordCode('fleetJob.anyPhone', { serial }, words));
    }
    if (from === 'shared' && target.kind !== 'any') throw refusal(wordCode('fleetJob.namedInShared', {}, words));
    const phone = this.phones.get(serial)!;
    const full = this.busyCount() >= (this.options.concurrency ?? this.phones.size);
    if (phone.busyWith !== null || !phone.ready || full) {
      if (from === 'shared') {
        // Another phone may be free: back to the queue for a moment, without counting as an attempt.
        await job.moveToDelayed(Date.now() + HAND_BACK_MS, token);
        throw new DelayedError();
      }
      if (!phone.ready) throw new Error(`${serial} is not ready on ${this.name}`);
      while (phone.busyWith !== null || this.busyCount() >= (this.options.concurrency ?? this.phones.size)) await sleep(HAND_BACK_MS);
    }
    if (!(await this.claim(serial))) {
      // Another worker offers this phone too and runs a job on it now (or another job of this one just took it): the
      // job waits its turn in the queue instead of failing.
      await job.moveToDelayed(Date.now() + HAND_BACK_MS, token);
      throw new DelayedError();
    }
    phone.busyWith = job.id ?? null;
    // While a phone runs its own job it takes none of the shared ones.
    if (from === 'own') phone.shared.pause(true);
    const controller = new AbortController();
    this.running.set(serial, controller);
    void this.report().catch(() => undefined);
    try {
      const interruptedOn = await this.earlierStarts(from === 'own' ? phoneQueue(serial) : ANY_QUEUE, job);
      const started: StartedEntry = { event: 'started', worker: this.name, serial, at: new Date().toISOString() };
      await job.log(JSON.stringify(started));
      const planned = job.timestamp + (job.opts.delay ?? 0);
      const lateMs = data.schedule ? Math.max(0, Date.now() - planned) : undefined;
      const words = this.options.words ?? ENGLISH;
      const named = { serial, job: shownText(job.id ?? '') };
      this.options.say?.(words.t('common:fleetWorker.jobStarted', { ...named, work: shownText(workWords({ goal: data.goal, flow: data.flow?.name ?? null }, words)) }));
      const run = await this.options.runJob(data, serial, controller.signal);
      const result = resultOf(run, this.name, interruptedOn, lateMs);
      const outcome = finishedOutcomeWords(result.verdict, words);
      const reason = failureWordsOf(result);
      this.options.say?.(
        reason === null
          ? words.t('common:fleetWorker.jobEnded', { ...named, outcome })
          : words.t('common:fleetWorker.jobEndedBecause', { ...named, outcome, reason: shownText(textForReader(reason, result.failureSaid, words)) }),
      );
      return result;
    } finally {
      await this.connection.eval(DELETE_IF_MINE, 1, phoneClaimKey(serial), this.claimValue(serial)).catch(() => undefined);
      this.running.delete(serial);
      phone.busyWith = null;
      if (from === 'own' && !this.closed) phone.shared.resume();
      void this.report().catch(() => undefined);
    }
  }

  private claimValue(serial: string): string {
    return `${this.name}\n${serial}`;
  }

  /** Claims the phone across the fleet for a job (for as long as a job's lock lasts, renewed with each report). */
  private async claim(serial: string): Promise<boolean> {
    return (await this.connection.set(phoneClaimKey(serial), this.claimValue(serial), 'PX', this.lockDuration, 'NX')) === 'OK';
  }

  /** Workers that started this job before this run and never finished it. */
  private async earlierStarts(queueName: string, job: Job): Promise<string[]> {
    let queue = this.queues.get(queueName);
    if (!queue) {
      this.queues.set(queueName, (queue = new Queue(queueName, { connection: this.connection, prefix: FLEET_PREFIX })));
      // Without a listener BullMQ prints every connection error with its stack; the workers' events say it once.
      queue.on('error', () => undefined);
    }
    const { logs } = await queue.getJobLogs(job.id!);
    return logs.flatMap((line) => {
      try {
        const entry = JSON.parse(line) as Partial<StartedEntry>;
        return entry.event === 'started' && typeof entry.worker === 'string' ? [`${entry.worker} (${entry.serial})`] : [];
      } catch {
        return [];
      }
    });
  }

  /** Writes this worker's phones and their states where `amc fleet` and `amc submit --group` read them. */
  private async report(): Promise<void> {
    if (this.closed) return;
    const ready = await this.options.readySerials().catch(() => new Set<string>());
    const phones: FleetPhone[] = [...this.phones.values()].map((phone) => {
      phone.ready = ready.has(phone.serial);
      const state = phone.busyWith !== null ? 'busy' : phone.ready ? 'ready' : 'offline';
      return { serial: phone.serial, state, jobId: phone.busyWith, groups: this.options.groupsOf?.(phone.serial) ?? [] };
    });
    const info: FleetWorkerInfo = { name: this.name, host: os.hostname(), pid: process.pid, startedAt: this.startedAt, seenAt: new Date().toISOString(), phones };
    await this.connection.hset(WORKERS_KEY, this.name, JSON.stringify(info));
    if (this.redisDown) {
      this.redisDown = false;
      this.redisBackAt = Date.now();
      this.options.say?.(`fleet: the Redis at ${redisLabel(this.options.redis)} answers again; taking jobs`);
    }
    await this.connection.set(workerAliveKey(this.name), '1', 'PX', WORKER_ALIVE_MS);
    // The queues it takes jobs from are listed, so a job put straight into one shows in `amc fleet` too.
    await this.connection.sadd(QUEUES_KEY, ANY_QUEUE, ...this.options.serials.map(phoneQueue));
    for (const phone of this.phones.values()) {
      if (phone.busyWith !== null) await this.connection.eval(RENEW_IF_MINE, 1, phoneClaimKey(phone.serial), this.claimValue(phone.serial), this.lockDuration);
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
