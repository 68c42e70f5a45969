// What `amc submit`, `amc fleet` and `amc schedule` do on the fleet's Redis: queue jobs for phones, follow them to
// their outcome, list workers, phones and jobs, and keep schedules as BullMQ job schedulers.
import { randomUUID } from 'node:crypto';
import { Queue, type Job, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { FleetJobSchema, FleetResultSchema, FleetWorkerSchema, type FleetJob, type FleetJobInput, type FleetWorkerInfo } from './job';
import { ANY_QUEUE, FLEET_PREFIX, phoneQueue, reachRedis } from './redis';
import type { FleetOverview, JobState, JobView } from '../shared/fleet';
import { HEARTBEAT_MS } from './worker';

/** Every queue a job was ever sent to, so `amc fleet` finds the queues of phones whose worker is gone. */
const QUEUES_KEY = `${FLEET_PREFIX}:queues`;
/** How long finished jobs and their results stay in Redis. */
export const RESULT_RETENTION_SECONDS = 7 * 24 * 3600;
/** A worker silent for this long is gone; its phones count as offline. */
const WORKER_GONE_MS = 3 * HEARTBEAT_MS;

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
  /** A cron pattern, or every N seconds. */
  when: string;
  goal: string;
  /** The flow's name, for a schedule of a flow (its content was kept when the schedule was added). */
  flow: string | null;
  target: string;
  nextRunAt: string | null;
}

export class FleetRequestError extends Error {
  override name = 'FleetRequestError';
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
    if (!queue) this.queues.set(name, (queue = new Queue(name, { connection: this.connection, prefix: FLEET_PREFIX })));
    return queue;
  }

  /** The workers as they last reported, with whether each is still alive. */
  async workers(): Promise<Array<FleetWorkerInfo & { alive: boolean }>> {
    const entries = await this.connection.hgetall(`${FLEET_PREFIX}:workers`);
    const now = Date.now();
    return Object.values(entries).flatMap((text) => {
      const parsed = FleetWorkerSchema.safeParse(safeJson(text));
      if (!parsed.success) return [];
      return [{ ...parsed.data, alive: now - Date.parse(parsed.data.seenAt) < WORKER_GONE_MS }];
    });
  }

  /** The queue (and phone) each job of a submission goes to; a group is the live phones that belong to it now. */
  async destinations(destination: Destination): Promise<Array<{ queue: string; serial: string | null }>> {
    if ('any' in destination) return [{ queue: ANY_QUEUE, serial: null }];
    if ('device' in destination) return [{ queue: phoneQueue(destination.device), serial: destination.device }];
    const phones = (await this.workers()).filter((worker) => worker.alive).flatMap((worker) => worker.phones);
    const members = [...new Set(phones.filter((phone) => phone.groups.includes(destination.group)).map((phone) => phone.serial))];
    if (members.length === 0) throw new FleetRequestError(`no worker offers a phone in the group "${destination.group}" now (see amc fleet)`);
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

  private async viewOf(queueName: string, job: Job): Promise<JobView> {
    const data = FleetJobSchema.safeParse(job.data);
    const state = await job.getState();
    const result = FleetResultSchema.safeParse(job.returnvalue);
    const finished = state === 'completed' && result.success;
    const stalled = job.failedReason?.includes('stalled') ?? false;
    const view: JobView = {
      id: job.id!,
      queue: queueName,
      goal: data.success ? data.data.goal : '(not a fleet job)',
      flow: data.success ? (data.data.flow?.name ?? null) : null,
      launchId: data.success ? data.data.launchId : '',
      target: data.success ? (data.data.target.kind === 'device' ? data.data.target.serial : 'any free phone') : '',
      state: finished ? 'finished' : state === 'failed' ? (stalled ? 'interrupted' : 'failed') : state === 'active' ? 'running' : 'queued',
      reason: state === 'failed' ? (stalled ? 'its worker went away while it ran' : (job.failedReason ?? null)) : null,
      result: finished ? result.data : null,
      submittedAt: data.success ? data.data.submittedAt : new Date(job.timestamp).toISOString(),
    };
    return view;
  }

  /** Resolves when every job has finished, failed or been interrupted, calling `onEnd` for each as it ends. */
  async wait(jobs: SubmittedJob[], onEnd: (view: JobView) => void, options: { pollMs?: number; signal?: AbortSignal } = {}): Promise<JobView[]> {
    const ended = new Map<string, JobView>();
    while (ended.size < jobs.length) {
      if (options.signal?.aborted) break;
      for (const job of jobs) {
        const key = `${job.queue}/${job.id}`;
        if (ended.has(key)) continue;
        const view = await this.view(job.queue, job.id);
        if (view && view.state !== 'queued' && view.state !== 'running') {
          ended.set(key, view);
          onEnd(view);
        }
      }
      if (ended.size < jobs.length) await sleep(options.pollMs ?? 250);
    }
    return [...ended.values()];
  }

  /** Workers, their phones, and the jobs of every queue (newest first, at most `limit`). */
  async overview(limit = 50): Promise<FleetOverview> {
    const workers = await this.workers();
    const alive = new Set(workers.filter((worker) => worker.alive).map((worker) => worker.name));
    const queueNames = await this.connection.smembers(QUEUES_KEY);
    const jobs: JobView[] = [];
    for (const name of queueNames) {
      const found = await this.queue(name).getJobs(['active', 'waiting', 'delayed', 'prioritized', 'completed', 'failed'], 0, limit - 1);
      for (const job of found) {
        const view = await this.viewOf(name, job);
        // A running job whose worker no longer reports: interrupted, until BullMQ's stalled check moves it on.
        if (view.state === 'running' && !(await this.runningOnLiveWorker(name, job, alive))) {
          view.state = 'interrupted';
          view.reason = 'its worker went away while it ran';
        }
        jobs.push(view);
      }
    }
    jobs.sort((a, b) => b.submittedAt.localeCompare(a.submittedAt));
    const shown = jobs.slice(0, limit);
    const counts: Record<JobState, number> = { queued: 0, running: 0, finished: 0, failed: 0, interrupted: 0 };
    for (const job of jobs) counts[job.state] += 1;
    return { workers, counts, jobs: shown };
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
      throw new FleetRequestError(`the schedule was refused: ${error instanceof Error ? error.message : String(error)}`);
    }
    return (await this.schedules()).find((schedule) => schedule.name === name)!;
  }

  async schedules(): Promise<ScheduleView[]> {
    const views: ScheduleView[] = [];
    for (const name of await this.connection.smembers(QUEUES_KEY)) {
      for (const scheduler of await this.queue(name).getJobSchedulers()) {
        const data = FleetJobSchema.safeParse(scheduler.template?.data);
        views.push({
          name: scheduler.key,
          when: scheduler.pattern ?? `every ${Math.round(Number(scheduler.every ?? 0) / 1000)} s`,
          goal: data.success ? data.data.goal : '(not a fleet job)',
          flow: data.success ? (data.data.flow?.name ?? null) : null,
          target: data.success ? (data.data.target.kind === 'device' ? data.data.target.serial : 'any free phone') : '',
          nextRunAt: scheduler.next ? new Date(scheduler.next).toISOString() : null,
        });
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
