// What `amc submit`, `amc fleet` and `amc schedule` do on the fleet's Redis: queue jobs for phones, follow them to
// their outcome, list workers, phones and jobs, and keep schedules as BullMQ job schedulers.
import { randomUUID } from 'node:crypto';
import { Queue, type Job, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { FleetJobSchema, FleetResultSchema, FleetWorkerSchema, type FleetJob, type FleetJobInput, type FleetWorkerInfo } from './job';
import { ANY_QUEUE, FLEET_PREFIX, phoneQueue, QUEUES_KEY, reachRedis, WORKER_ALIVE_MS, WORKERS_KEY, workerAliveKey } from './redis';
import { ANY_PHONE_TARGET, jobCounts, jobVerdict, type FleetOverview, type JobState, type JobView } from '../shared/fleet';
import { scheduleRefusal } from './schedule-refusal';
import { say, type Said, type SaidCode, type Saying } from '../shared/said';
import { ENGLISH } from '../shared/i18n/translate';
import { shownText, shownTexts } from '../shared/shown-text';

/** How long finished jobs and their results stay in Redis. */
export const RESULT_RETENTION_SECONDS = 7 * 24 * 3600;
/** A worker gone (or dated ahead of now) for this long is dropped from the list of workers. */
const GONE_WORKER_LISTED_MS = 3600_000;
/** How many jobs of one state are read from a queue at a time, so counts stay right however many jobs a queue holds. */
const PAGE = 500;
/** BullMQ's job states as `amc fleet` counts them (a stalled or dead-worker job is told apart later, job by job). */
const STATE_OF_TYPE = { active: 'running', waiting: 'queued', delayed: 'queued', prioritized: 'queued', 'waiting-children': 'queued', completed: 'finished', failed: 'failed' } as const;
type ListedType = keyof typeof STATE_OF_TYPE;
/** The shortest time between two firings of a fleet schedule: every job of a fleet costs a phone and a model's turns. */
export const SCHEDULE_MIN_SECONDS = 60;
/** How long `--wait` lets a job wait for a phone no live worker offers before it says so. */
const UNOFFERED_GRACE_MS = 6_000;

/** Who runs a submission: one named phone, every live phone of a group, or the first free phone. */
export type Destination = { device: string } | { group: string } | { any: true };

export interface SubmittedJob {
  id: string;
  queue: string;
  /** The phone it was sent to, or null for any free phone. */
  serial: string | null;
}

export type { FleetOverview, JobState, JobView } from '../shared/fleet';

export interface ScheduleView {
  name: string;
  /** A cron pattern, or every N seconds (in English; `everySeconds` words it in another language). */
  when: string;
  /** The period of a schedule that runs every N seconds, or null for a cron pattern. */
  everySeconds: number | null;
  goal: string;
  /** The goal's code when it is our words, not the schedule's (a template that is not a fleet job). */
  goalSaid?: Said;
  /** The flow's name, for a schedule of a flow (its content was kept when the schedule was added). */
  flow: string | null;
  target: string;
  nextRunAt: string | null;
}

/** A request the fleet cannot carry out, in English, with its code (`said`) when it has one. */
export class FleetRequestError extends Error {
  override name = 'FleetRequestError';
  constructor(
    message: string,
    readonly said?: Said,
  ) {
    super(message);
  }
}

/** The goal a job or schedule shows: its own, or our words (by code) for a payload that is not a fleet job. */
function goalOf(data: { success: true; data: FleetJob } | { success: false }): { goal: string; goalSaid?: Said } {
  if (data.success) return { goal: data.data.goal };
  const saying = say('fleetJob.notAFleetJob');
  return { goal: saying.text, goalSaid: saying.said };
}

/** A job's reason as the client words it: the English text and its code together (JobView's `reason`, `reasonSaid`). */
function reasonOf(code: SaidCode, values: Record<string, string | number> = {}): Pick<JobView, 'reason' | 'reasonSaid'> {
  const saying = say(code, values);
  return { reason: saying.text, reasonSaid: saying.said };
}

export interface WaitOptions {
  pollMs?: number;
  signal?: AbortSignal;
  /** How long to wait at most; a job still queued or running then ends the wait with that said. */
  timeoutMs?: number;
  /** Told once when the fleet's Redis stops answering, and once when it answers again. */
  onRedisProblem?(saying: Saying): void;
}

/** Why a cron pattern would fire a fleet schedule more than once a minute, or null (a sixth field counts seconds). */
export function cronTooOften(pattern: string): Saying | null {
  const fields = pattern.trim().split(/\s+/);
  if (fields.length === 5) return null;
  if (fields.length === 6 && /^\d{1,2}$/.test(fields[0]!)) return null;
  if (fields.length === 6) return say('fleetSchedule.secondsField', { pattern, seconds: fields[0]! });
  return say('fleetSchedule.cronFields', { pattern, count: fields.length });
}

export class FleetClient {
  private readonly queues = new Map<string, Queue>();

  private constructor(private readonly connection: Redis) {}

  /** A client on the fleet's Redis, once it answers (a RedisUrlError in plain words when it does not). */
  static async open(redis: URL): Promise<FleetClient> {
    return new FleetClient(await reachRedis(redis));
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    await this.connection.quit().catch(() => undefined);
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      this.queues.set(name, (queue = new Queue(name, { connection: this.connection, prefix: FLEET_PREFIX })));
      // Without a listener BullMQ prints each connection error with its stack; the commands' own failures say it once.
      queue.on('error', () => undefined);
    }
    return queue;
  }

  /**
   * The workers as they last reported, with whether each is still alive: alive only while its own heartbeat key has
   * not expired (Redis times it, so neither a skewed clock nor a forged or future `seenAt` keeps a worker alive). An
   * entry gone for an hour, or dated ahead of now by as much, is dropped.
   */
  async workers(): Promise<Array<FleetWorkerInfo & { alive: boolean }>> {
    const entries = await this.connection.hgetall(WORKERS_KEY);
    const now = Date.now();
    const workers: Array<FleetWorkerInfo & { alive: boolean }> = [];
    for (const [field, text] of Object.entries(entries)) {
      const parsed = FleetWorkerSchema.safeParse(safeJson(text));
      const ttl = parsed.success ? await this.connection.pttl(workerAliveKey(parsed.data.name)) : -2;
      const alive = parsed.success && field === parsed.data.name && ttl > 0 && ttl <= WORKER_ALIVE_MS;
      if (!alive && (!parsed.success || Math.abs(now - Date.parse(parsed.data.seenAt)) > GONE_WORKER_LISTED_MS)) {
        await this.connection.hdel(WORKERS_KEY, field);
        continue;
      }
      if (parsed.success) workers.push(shownTexts({ ...parsed.data, alive }));
    }
    return workers;
  }

  /** The queue (and phone) each job of a submission goes to; a group is the live phones that belong to it now. */
  async destinations(destination: Destination): Promise<Array<{ queue: string; serial: string | null }>> {
    if ('any' in destination) return [{ queue: ANY_QUEUE, serial: null }];
    if ('device' in destination) return [{ queue: phoneQueue(destination.device), serial: destination.device }];
    const phones = (await this.workers()).filter((worker) => worker.alive).flatMap((worker) => worker.phones);
    const members = [...new Set(phones.filter((phone) => phone.groups.includes(destination.group)).map((phone) => phone.serial))];
    if (members.length === 0) {
      const saying = say('fleetJob.noGroupPhone', { group: destination.group });
      throw new FleetRequestError(saying.text, saying.said);
    }
    return members.map((serial) => ({ queue: phoneQueue(serial), serial }));
  }

  /** Queues one job per destination; the payload is checked here as the worker will check it. */
  async submit(job: Omit<FleetJobInput, 'target' | 'launchId' | 'submittedAt'>, destination: Destination): Promise<SubmittedJob[]> {
    const launchId = randomUUID();
    const submittedAt = new Date().toISOString();
    const submitted: SubmittedJob[] = [];
    const group = 'group' in destination ? destination.group : undefined;
    for (const [index, { queue, serial }] of (await this.destinations(destination)).entries()) {
      const data = FleetJobSchema.parse({ ...job, target: serial ? { kind: 'device', serial } : { kind: 'any' }, launchId, submittedAt, ...(group && { group }) });
      await this.connection.sadd(QUEUES_KEY, queue);
      // Ids unique across queues (BullMQ numbers each queue from 1): the launch, then the job's place in it.
      const added = await this.queue(queue).add(data.flow ? 'flow' : 'goal', data, { ...jobOptions(), jobId: `${launchId.slice(0, 8)}-${index + 1}` });
      submitted.push({ id: added.id!, queue, serial });
    }
    return submitted;
  }

  /** The job as `amc fleet` shows it. */
  async view(queueName: string, id: string): Promise<JobView | null> {
    const job = await this.queue(queueName).getJob(id);
    return job ? this.viewOf(queueName, job) : null;
  }

  /** The job as shown: every text in it from Redis escaped (shownText). `listedAs`: its state as a listing found it. */
  private async viewOf(queueName: string, job: Job, listedAs?: ListedType): Promise<JobView> {
    const data = FleetJobSchema.safeParse(job.data);
    const state = listedAs ?? (await job.getState());
    let result = FleetResultSchema.safeParse(job.returnvalue).data ?? null;
    // Read while it ran and found completed a moment later: its result is read again, not taken as missing.
    if (state === 'completed' && !result) result = FleetResultSchema.safeParse((await this.queue(queueName).getJob(job.id!))?.returnvalue).data ?? null;
    const finished = state === 'completed' && result !== null;
    const stalled = job.failedReason?.includes('stalled') ?? false;
    const view: Omit<JobView, 'verdict'> = {
      id: job.id!,
      queue: queueName,
      ...goalOf(data),
      flow: data.success ? (data.data.flow?.name ?? null) : null,
      launchId: data.success ? data.data.launchId : '',
      target: data.success ? (data.data.target.kind === 'device' ? data.data.target.serial : ANY_PHONE_TARGET) : '',
      state: finished ? 'finished' : state === 'failed' || state === 'completed' ? (stalled ? 'interrupted' : 'failed') : state === 'active' && (await this.startedThisTurn(queueName, job)) ? 'running' : 'queued',
      // A worker words its own refusals in its terminal's language; the client's reasons carry their code.
      ...(state === 'failed' ? (stalled ? reasonOf('fleetJob.workerGone') : { reason: job.failedReason ?? null }) : state === 'completed' && !finished ? reasonOf('fleetJob.noResult') : { reason: null }),
      result: finished ? result : null,
      submittedAt: data.success ? data.data.submittedAt : new Date(job.timestamp).toISOString(),
    };
    return shownTexts({ ...view, verdict: jobVerdict(view) });
  }

  /**
   * Resolves when every job has ended, calling `onEnd` for each as it ends. A job also ends the wait, with why, when it
   * is gone from Redis (a restart that kept no data), when no live worker has offered its phone for a while, or when
   * `timeoutMs` passes; those stay as they are in the fleet.
   */
  async wait(jobs: SubmittedJob[], onEnd: (view: JobView) => void, options: WaitOptions = {}): Promise<JobView[]> {
    const ended = new Map<string, JobView>();
    const lastSeen = new Map<string, JobView>();
    const unofferedSince = new Map<string, number>();
    const deadline = options.timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + options.timeoutMs;
    let redisDown = false;
    const end = (key: string, seen: JobView) => {
      if (ended.has(key)) return;
      // Its verdict from what it ended as (a job gone from Redis failed; one still waiting at the deadline has none).
      const view = { ...seen, verdict: jobVerdict(seen) };
      ended.set(key, view);
      onEnd(view);
    };
    // One look at a time: a look held up by a Redis that does not answer goes on while the wait tells why.
    let looking: Promise<void> | null = null;
    while (ended.size < jobs.length && !options.signal?.aborted) {
      if (Date.now() >= deadline) {
        for (const job of jobs) {
          const key = `${job.queue}/${job.id}`;
          if (ended.has(key)) continue;
          const seen = lastSeen.get(key) ?? placeholderView(job, 'queued');
          end(key, { ...seen, ...reasonOf(seen.state === 'running' ? 'fleetJob.stillRunning' : 'fleetJob.stillQueued', { seconds: Math.round(options.timeoutMs! / 1000) }) });
        }
        break;
      }
      looking ??= this.look(jobs, ended, lastSeen, unofferedSince, end).finally(() => (looking = null));
      const looked = await withinMs(looking, Math.max(1, Math.min(5_000, deadline - Date.now())));
      if (looked === TIMED_OUT && !redisDown && Date.now() < deadline) {
        redisDown = true;
        options.onRedisProblem?.(say('fleetRedis.silent'));
      } else if (looked !== TIMED_OUT && redisDown) {
        redisDown = false;
        options.onRedisProblem?.(say('fleetRedis.back'));
      }
      if (ended.size < jobs.length) await sleep(options.pollMs ?? 250);
    }
    return [...ended.values()];
  }

  /** One look at every job not ended yet (see wait). */
  private async look(
    jobs: SubmittedJob[],
    ended: Map<string, JobView>,
    lastSeen: Map<string, JobView>,
    unofferedSince: Map<string, number>,
    end: (key: string, view: JobView) => void,
  ): Promise<void> {
    let offered: Set<string> | null = null;
    for (const job of jobs) {
      const key = `${job.queue}/${job.id}`;
      if (ended.has(key)) continue;
      const view = await this.view(job.queue, job.id);
      if (!view) {
        end(key, { ...(lastSeen.get(key) ?? placeholderView(job, 'failed')), state: 'failed', ...reasonOf('fleetJob.gone') });
        continue;
      }
      lastSeen.set(key, view);
      if (view.state !== 'queued' && view.state !== 'running') {
        end(key, view);
        continue;
      }
      if (view.state !== 'queued') {
        unofferedSince.delete(key);
        continue;
      }
      offered ??= await this.offeredPhones();
      const isOffered = job.serial === null ? offered.size > 0 : offered.has(job.serial);
      if (isOffered) unofferedSince.delete(key);
      else if (!unofferedSince.has(key)) unofferedSince.set(key, Date.now());
      else if (Date.now() - unofferedSince.get(key)! >= UNOFFERED_GRACE_MS) {
        end(key, { ...view, ...(job.serial === null ? reasonOf('fleetJob.unofferedAny') : reasonOf('fleetJob.unoffered', { serial: shownText(job.serial) })) });
      }
    }
  }

  /** The serials the live workers offer now. */
  private async offeredPhones(): Promise<Set<string>> {
    return new Set((await this.workers()).filter((worker) => worker.alive).flatMap((worker) => worker.phones.map((phone) => phone.serial)));
  }

  /** Workers, their phones, and the jobs of every queue (newest first, at most `limit`), every job counted. */
  async overview(limit = 50): Promise<FleetOverview> {
    const workers = await this.workers();
    const alive = new Set(workers.filter((worker) => worker.alive).map((worker) => worker.name));
    const listed: Array<{ queue: string; job: Job; type: ListedType }> = [];
    for (const name of await this.connection.smembers(QUEUES_KEY)) listed.push(...(await this.allJobs(name)));
    // Every job counts; only the newest `limit` are looked at closely (a failed one may be a stalled one).
    listed.sort((a, b) => b.job.timestamp - a.job.timestamp);
    const views: JobView[] = [];
    for (const [index, { queue, job, type }] of listed.entries()) {
      const view = await this.viewOf(queue, job, type);
      views.push(view);
      // A running job whose worker no longer reports: interrupted, until BullMQ's stalled check moves it on.
      if (index < limit && view.state === 'running' && !(await this.runningOnLiveWorker(queue, job, alive))) {
        view.state = 'interrupted';
        view.verdict = 'interrupted';
        Object.assign(view, reasonOf('fleetJob.workerGone'));
      }
    }
    const jobs = views.slice(0, limit).sort((a, b) => b.submittedAt.localeCompare(a.submittedAt));
    // Every job counts, by verdict (failed, not verified and interrupted apart).
    return { workers, counts: jobCounts(views), jobs };
  }

  /** Every job of a queue, a page at a time per state (a job that moved between pages is kept once). */
  private async allJobs(name: string): Promise<Array<{ queue: string; job: Job; type: ListedType }>> {
    const found = new Map<string, { queue: string; job: Job; type: ListedType }>();
    for (const type of Object.keys(STATE_OF_TYPE) as ListedType[]) {
      for (let start = 0; ; start += PAGE) {
        const page = (await this.queue(name).getJobs([type], start, start + PAGE - 1)) as Array<Job | undefined>;
        for (const job of page) if (job?.id && !found.has(job.id)) found.set(job.id, { queue: name, job, type });
        if (page.length < PAGE) break;
      }
    }
    return [...found.values()];
  }

  /**
   * Whether a worker started the job's task since it last took the job: a job a worker takes and hands back (its phone
   * is busy, or another worker holds it) is active for a moment each time, yet it still waits in the queue.
   */
  private async startedThisTurn(queueName: string, job: Job): Promise<boolean> {
    const { logs } = await this.queue(queueName).getJobLogs(job.id!, -1, -1);
    const last = safeJson(logs.at(-1) ?? '') as { event?: unknown; at?: unknown } | null;
    return last?.event === 'started' && typeof last.at === 'string' && Date.parse(last.at) >= (job.processedOn ?? 0);
  }

  private async runningOnLiveWorker(queueName: string, job: Job, alive: Set<string>): Promise<boolean> {
    const { logs } = await this.queue(queueName).getJobLogs(job.id!, -1, -1);
    const last = safeJson(logs.at(-1) ?? '') as { worker?: unknown } | null;
    return typeof last?.worker === 'string' && alive.has(last.worker);
  }

  /** Adds (or replaces) a schedule: a cron pattern or a period, queuing the goal for its destination each time. */
  async addSchedule(
    name: string,
    when: { cron: string } | { everySeconds: number },
    job: Omit<FleetJobInput, 'target' | 'launchId' | 'submittedAt' | 'schedule'>,
    destination: { device: string } | { any: true },
  ): Promise<ScheduleView> {
    const tooOften = 'cron' in when ? cronTooOften(when.cron) : when.everySeconds < SCHEDULE_MIN_SECONDS ? say('fleetSchedule.everyTooOften', { least: SCHEDULE_MIN_SECONDS }) : null;
    if (tooOften) throw new FleetRequestError(tooOften.text, tooOften.said);
    const [{ queue, serial }] = (await this.destinations(destination)) as [{ queue: string; serial: string | null }];
    const data: FleetJob = FleetJobSchema.parse({
      ...job,
      target: serial ? { kind: 'device', serial } : { kind: 'any' },
      launchId: `schedule:${name}`,
      submittedAt: new Date().toISOString(),
      schedule: name,
    });
    await this.connection.sadd(QUEUES_KEY, queue);
    const repeat = 'cron' in when ? { pattern: when.cron } : { every: when.everySeconds * 1000 };
    try {
      await this.queue(queue).upsertJobScheduler(name, repeat, { name: data.flow ? 'flow' : 'goal', data, opts: jobOptions() });
    } catch (error) {
      // A cron its reader cannot take is said by its own code; any other words of BullMQ's follow ours.
      const refused = scheduleRefusal(error, when);
      throw new FleetRequestError(refused.text, refused.said);
    }
    return (await this.schedules()).find((schedule) => schedule.name === name)!;
  }

  async schedules(): Promise<ScheduleView[]> {
    const views: ScheduleView[] = [];
    for (const name of await this.connection.smembers(QUEUES_KEY)) {
      for (const scheduler of await this.queue(name).getJobSchedulers()) {
        const data = FleetJobSchema.safeParse(scheduler.template?.data);
        const everySeconds = scheduler.pattern ? null : Math.round(Number(scheduler.every ?? 0) / 1000);
        views.push(shownTexts({
          name: scheduler.key,
          when: scheduler.pattern ?? ENGLISH.t('cli:schedule.every', { seconds: everySeconds }),
          everySeconds,
          ...goalOf(data),
          flow: data.success ? (data.data.flow?.name ?? null) : null,
          target: data.success ? (data.data.target.kind === 'device' ? data.data.target.serial : ANY_PHONE_TARGET) : '',
          nextRunAt: scheduler.next ? new Date(scheduler.next).toISOString() : null,
        }));
      }
    }
    return views.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Removes a schedule by name; false when there is none. */
  async removeSchedule(name: string): Promise<boolean> {
    let removed = false;
    for (const queue of await this.connection.smembers(QUEUES_KEY)) removed = (await this.queue(queue).removeJobScheduler(name)) || removed;
    return removed;
  }
}

function jobOptions(): JobsOptions {
  return { removeOnComplete: { age: RESULT_RETENTION_SECONDS }, removeOnFail: { age: RESULT_RETENTION_SECONDS } };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A job that `wait` has not seen yet, as shown when it ends the wait. */
function placeholderView(job: SubmittedJob, state: JobState): JobView {
  const view = { id: shownText(job.id), queue: job.queue, goal: '', flow: null, launchId: '', target: job.serial === null ? ANY_PHONE_TARGET : shownText(job.serial), state, reason: null, result: null, submittedAt: '' };
  return { ...view, verdict: jobVerdict(view) };
}

const TIMED_OUT = Symbol('timed out');
/** The work's end, or TIMED_OUT after `ms` (the work goes on; its next look starts after it). */
async function withinMs(work: Promise<void>, ms: number): Promise<void | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
