import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { AggregatorRegistry } from 'prom-client';
import type { Admission, LeasableLimits, LimitPolicy, RateLease, RateLimit, UsageDelta, UsageRow } from './limits';
import type { Logger } from './logger';

/**
 * Several processes on one port (node:cluster): the primary forks the workers, restarts one that dies, stops
 * them all on a signal within the grace (+1 s, then SIGKILL; every worker drains before any closes), and serves
 * them what only one process can hold — the file store's rate buckets and usage, and the sum of everyone's
 * metrics — over IPC.
 */

type Call = { type: 'amc:call'; id: number; method: 'admitAll' | 'lease' | 'giveBack' | 'usage' | 'metrics'; args: unknown[] };
type AdmitRequest = [tokenId: string, policy: LimitPolicy];
type Reply = { type: 'amc:reply'; id: number; result?: unknown; error?: string };
/** From a worker to its primary. */
type Notice =
  | { type: 'amc:listening'; url: string }
  | { type: 'amc:draining' }
  | { type: 'amc:drained' }
  | { type: 'amc:usage'; entries: Array<[tokenId: string, delta: UsageDelta, at: number]> };
type UsageNotice = Extract<Notice, { type: 'amc:usage' }>;
/** From the primary to a worker: refuse new decisions and finish the others, then close. */
type Order = { type: 'amc:drain' } | { type: 'amc:close' };

const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
let nextCallId = 0;
let listeningForReplies = false;

/** In a worker: asks the primary and waits for its answer. */
function callPrimary<T>(method: Call['method'], args: unknown[]): Promise<T> {
  if (!listeningForReplies) {
    listeningForReplies = true;
    process.on('message', (message: Reply) => {
      if (message?.type !== 'amc:reply') return;
      const call = pending.get(message.id);
      pending.delete(message.id);
      if (message.error !== undefined) call?.reject(new Error(message.error));
      else call?.resolve(message.result);
    });
  }
  const id = ++nextCallId;
  return new Promise<T>((resolve, reject) => {
    pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    process.send!({ type: 'amc:call', id, method, args } satisfies Call);
  });
}

/** In a worker: the limits held by the primary (file store). */
export class PrimaryLimits implements LeasableLimits {
  private unsentUsage: UsageNotice['entries'] = [];
  private unsentAdmits: Array<{ request: AdmitRequest; resolve(admission: Admission): void; reject(error: Error): void }> = [];

  /**
   * The admissions one event-loop turn asks for go to the primary in one message (it answers them in order, each
   * as it would alone): under load a worker pays one round trip per turn, not one per decision.
   */
  admit(tokenId: string, policy: LimitPolicy): Promise<Admission> {
    if (this.unsentAdmits.length === 0) setImmediate(() => this.sendAdmits());
    return new Promise((resolve, reject) => this.unsentAdmits.push({ request: [tokenId, policy], resolve, reject }));
  }
  lease(tokenId: string, rate: RateLimit, count: number): Promise<RateLease> {
    return callPrimary('lease', [tokenId, rate, count]);
  }
  giveBack(tokenId: string, rate: RateLimit, count: number): Promise<void> {
    return callPrimary('giveBack', [tokenId, rate, count]);
  }
  /** Usage goes to the primary in one message per event-loop turn, and needs no answer (the decision never waits for it). */
  async record(tokenId: string, delta: UsageDelta, now = Date.now()): Promise<void> {
    if (this.unsentUsage.length === 0) setImmediate(() => void this.sendUsage());
    this.unsentUsage.push([tokenId, delta, now]);
  }
  usage(tokenIds?: readonly string[]): Promise<UsageRow[]> {
    void this.sendUsage();
    return callPrimary('usage', tokenIds ? [tokenIds] : []);
  }
  close(): Promise<void> {
    return this.sendUsage();
  }
  private sendAdmits(): void {
    const batch = this.unsentAdmits;
    this.unsentAdmits = [];
    callPrimary<Admission[]>('admitAll', [batch.map((entry) => entry.request)]).then(
      (admissions) => batch.forEach((entry, i) => entry.resolve(admissions[i]!)),
      (error: Error) => batch.forEach((entry) => entry.reject(error)),
    );
  }
  private sendUsage(): Promise<void> {
    if (this.unsentUsage.length === 0) return Promise.resolve();
    const entries = this.unsentUsage;
    this.unsentUsage = [];
    return tellPrimary({ type: 'amc:usage', entries });
  }
}

/** In a worker: every worker's metrics, added up by the primary. */
export function readClusterMetrics(): Promise<string> {
  return callPrimary('metrics', []);
}

/** What a worker's service offers its primary: the two halves of a graceful shutdown. */
export interface WorkerService {
  readonly url: string;
  drain(): Promise<void>;
  close(): Promise<void>;
}

/**
 * In a worker: tells the primary it serves; drains and closes when the primary says so. A signal sent to the worker
 * itself (Ctrl-C reaches the whole process group, systemd signals the whole cgroup) only drains it: the primary
 * decides when it closes, so it never closes while another worker of the port still drains.
 */
export function serveAsWorker(service: WorkerService): void {
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    void service.close().finally(() => process.exit(0));
  };
  let draining = false;
  const drain = () => {
    if (draining) return;
    draining = true;
    const drained = service.drain();
    void tellPrimary({ type: 'amc:draining' });
    void drained.then(() => tellPrimary({ type: 'amc:drained' }));
  };
  process.on('message', (message: Order) => {
    if (message?.type === 'amc:drain') drain();
    if (message?.type === 'amc:close') close();
  });
  process.on('SIGTERM', drain);
  process.on('SIGINT', drain);
  // The primary died (even by SIGKILL): a worker must not serve on alone.
  process.on('disconnect', close);
  void tellPrimary({ type: 'amc:listening', url: service.url });
}

/** Resolves once the notice is handed to the channel (a worker about to exit waits for that). */
function tellPrimary(notice: Notice): Promise<void> {
  return new Promise((resolve) => {
    if (!process.connected) return resolve();
    process.send!(notice, undefined, {}, () => resolve());
  });
}

export interface PrimaryOptions {
  workers: number;
  /** The file store's limits (absent with Redis, where workers share Redis instead). */
  limits: LeasableLimits | null;
  shutdownGraceMs: number;
  logger: Logger;
}

const RESTART_DELAY_MS = 500;
/** How long the primary waits for its own signal before closing a worker that was signalled and drained alone. */
const SIGNAL_SETTLE_MS = 1000;

function order(worker: Worker, message: Order): void {
  if (worker.isConnected()) worker.send(message);
}

/** Resolves when `worker` sends a notice of this type (null: only on exit), or exits. */
function heardOrExited(worker: Worker, type: Notice['type'] | null): Promise<void> {
  if (worker.isDead()) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      worker.off('message', onMessage);
      worker.off('exit', done);
      resolve();
    };
    const onMessage = (message: Notice) => {
      if (message?.type === type) done();
    };
    worker.on('message', onMessage);
    worker.once('exit', done);
  });
}

/** In the primary: forks the workers; resolves once all serve. `stop()` ends them all and resolves when they exited. */
export async function startPrimary(options: PrimaryOptions): Promise<{ url: string; stop(): Promise<void> }> {
  const { logger } = options;
  const aggregator = new AggregatorRegistry();
  let stopping = false;

  cluster.on('message', (worker: Worker, message: Call | Notice) => {
    if (message?.type === 'amc:drained' && !stopping) closeAloneAfterSettling(worker);
    if (message?.type === 'amc:usage') recordUsage(message);
    if (message?.type !== 'amc:call') return;
    void answer(message).then((reply) => {
      if (worker.isConnected()) worker.send(reply);
    });
  });
  // A worker drained though this primary is not stopping: it was signalled on its own (it will be replaced), or
  // the whole process group was and this primary's own signal is a moment behind; then the coordinated stop wins.
  const closeAloneAfterSettling = (worker: Worker) => {
    setTimeout(() => {
      if (!stopping) order(worker, { type: 'amc:close' });
    }, SIGNAL_SETTLE_MS).unref();
  };
  const recordUsage = (notice: UsageNotice) => {
    for (const [tokenId, delta, at] of notice.entries) {
      options.limits?.record(tokenId, delta, at).catch((error: Error) => logger.warn('usage not recorded', { tokenId, error: error.message }));
    }
  };
  const answer = async (call: Call): Promise<Reply> => {
    try {
      if (call.method === 'metrics') return { type: 'amc:reply', id: call.id, result: await aggregator.clusterMetrics() };
      const limits = options.limits;
      if (!limits) throw new Error('limits are kept in Redis, not by the primary');
      if (call.method === 'usage') return { type: 'amc:reply', id: call.id, result: await limits.usage(...(call.args as [string[]?])) };
      if (call.method === 'lease') return { type: 'amc:reply', id: call.id, result: await limits.lease(...(call.args as [string, RateLimit, number])) };
      if (call.method === 'giveBack') return { type: 'amc:reply', id: call.id, result: await limits.giveBack(...(call.args as [string, RateLimit, number])) };
      const [requests] = call.args as [AdmitRequest[]];
      const admissions: Admission[] = [];
      // One after the other, as they would come one by one: each takes from the bucket the previous one left.
      for (const [tokenId, policy] of requests) admissions.push(await limits.admit(tokenId, policy));
      return { type: 'amc:reply', id: call.id, result: admissions };
    } catch (error) {
      return { type: 'amc:reply', id: call.id, error: (error as Error).message };
    }
  };

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    logger.warn('worker exited; starting another', { pid: worker.process.pid, code, signal });
    setTimeout(() => {
      if (!stopping) cluster.fork();
    }, RESTART_DELAY_MS).unref();
  });

  // With a worker on every core, V8's parallel GC helpers have no idle core: they only take turns from the other
  // workers, and collecting on one thread costs less CPU in all (the bench's 2 workers: ~10% more decisions/s).
  if (options.workers >= availableParallelism()) cluster.setupPrimary({ execArgv: [...process.execArgv, '--single-threaded-gc'] });
  const listening = Array.from({ length: options.workers }, () => {
    const worker = cluster.fork();
    return new Promise<string>((resolve, reject) => {
      const onMessage = (message: Notice) => {
        if (message?.type !== 'amc:listening') return;
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        resolve(message.url);
      };
      const onExit = (code: number) => reject(new Error(`a worker exited with code ${code} before it served (see its log above)`));
      worker.on('message', onMessage);
      worker.once('exit', onExit);
    });
  });
  let url: string;
  try {
    [url] = (await Promise.all(listening)) as [string];
  } catch (error) {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGKILL');
    throw error;
  }
  logger.info('listening', { url, workers: options.workers });

  const stop = async () => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    // Each worker aborts what is left when its grace ends; one that still has not exited a little later is killed.
    const deadline = setTimeout(() => {
      for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGKILL');
    }, options.shutdownGraceMs + 700);
    const draining = Promise.all(workers.map((w) => heardOrExited(w, 'amc:draining')));
    const drained = Promise.all(workers.map((w) => heardOrExited(w, 'amc:drained')));
    const exited = Promise.all(workers.map((w) => heardOrExited(w, null)));
    for (const worker of workers) order(worker, { type: 'amc:drain' });
    await draining;
    logger.info('draining', { workers: workers.length });
    // This primary hands every new connection to one of its workers: one that had closed would drop it, so all
    // keep answering 503 until the last in-flight decision is done, and only then do they close together.
    await drained;
    for (const worker of workers) order(worker, { type: 'amc:close' });
    await exited;
    clearTimeout(deadline);
    await options.limits?.close();
    logger.info('stopped', { workers: workers.length });
  };
  return { url, stop };
}
