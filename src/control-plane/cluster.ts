import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { Admission, LimitPolicy, LimitsStore, UsageDelta, UsageRow } from './limits';
import type { Logger } from './logger';

/**
 * Several processes on one port (node:cluster): the primary forks the workers, restarts one that dies, stops
 * them all on a signal within the grace (+1 s, then SIGKILL), and serves them what only one process can hold —
 * the file store's rate buckets and usage, and the sum of everyone's metrics — over IPC.
 */

type Call = { type: 'amc:call'; id: number; method: 'admit' | 'record' | 'usage' | 'metrics'; args: unknown[] };
type Reply = { type: 'amc:reply'; id: number; result?: unknown; error?: string };
type Notice = { type: 'amc:listening'; url: string } | { type: 'amc:shutdown' };

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
export class PrimaryLimits implements LimitsStore {
  admit(tokenId: string, policy: LimitPolicy): Promise<Admission> {
    return callPrimary('admit', [tokenId, policy]);
  }
  record(tokenId: string, delta: UsageDelta): Promise<void> {
    return callPrimary('record', [tokenId, delta]);
  }
  usage(tokenIds?: readonly string[]): Promise<UsageRow[]> {
    return callPrimary('usage', tokenIds ? [tokenIds] : []);
  }
  async close(): Promise<void> {}
}

/** In a worker: every worker's metrics, added up by the primary. */
export function readClusterMetrics(): Promise<string> {
  return callPrimary('metrics', []);
}

/** In a worker: tells the primary it serves, and runs `stop` once when asked to (or on a signal, or orphaned). */
export function serveAsWorker(url: string, stop: () => Promise<void>): void {
  let stopping: Promise<void> | null = null;
  const shutdown = () => {
    stopping ??= stop().finally(() => process.exit(0));
  };
  process.on('message', (message: Notice) => {
    if (message?.type === 'amc:shutdown') shutdown();
  });
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  // The primary died (even by SIGKILL): a worker must not serve on alone.
  process.on('disconnect', shutdown);
  process.send!({ type: 'amc:listening', url } satisfies Notice);
}

export interface PrimaryOptions {
  workers: number;
  /** The file store's limits (absent with Redis, where workers share Redis instead). */
  limits: LimitsStore | null;
  shutdownGraceMs: number;
  logger: Logger;
}

const RESTART_DELAY_MS = 500;

/** In the primary: forks the workers; resolves once all serve. `stop()` ends them all and resolves when they exited. */
export async function startPrimary(options: PrimaryOptions): Promise<{ url: string; stop(): Promise<void> }> {
  const { logger } = options;
  const aggregator = new AggregatorRegistry();
  let stopping = false;

  cluster.on('message', (worker: Worker, message: Call) => {
    if (message?.type !== 'amc:call') return;
    void answer(message).then((reply) => {
      if (worker.isConnected()) worker.send(reply);
    });
  });
  const answer = async (call: Call): Promise<Reply> => {
    try {
      if (call.method === 'metrics') return { type: 'amc:reply', id: call.id, result: await aggregator.clusterMetrics() };
      if (!options.limits) throw new Error('limits are kept in Redis, not by the primary');
      const method = options.limits[call.method] as (...args: unknown[]) => Promise<unknown>;
      return { type: 'amc:reply', id: call.id, result: await method.apply(options.limits, call.args) };
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
    const exited = Promise.all(workers.map((w) => (w.isDead() ? Promise.resolve() : new Promise<void>((resolve) => w.once('exit', () => resolve())))));
    for (const worker of workers) if (worker.isConnected()) worker.send({ type: 'amc:shutdown' } satisfies Notice);
    // Each worker closes its sockets when its grace ends; one that still has not exited a second later is killed.
    const deadline = setTimeout(() => {
      for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGKILL');
    }, options.shutdownGraceMs + 700);
    await exited;
    clearTimeout(deadline);
    await options.limits?.close();
    logger.info('stopped', { workers: workers.length });
  };
  return { url, stop };
}
