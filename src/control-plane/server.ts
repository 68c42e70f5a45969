import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { createProviderClient } from '@amc/provider-clients';
import { createControlPlaneApp } from './app';
import { AuthFailureGuard } from './auth-failures';
import type { ControlPlaneConfig, ProviderKeys } from './config';
import { InFlightDecisions } from './in-flight';
import type { LimitPolicy, LimitsStore } from './limits';
import { createJsonLogger, type Logger } from './logger';
import { MemoryLimits } from './memory-limits';
import { BatchedLimits } from './batched-limits';
import { ControlPlaneMetrics, type ClusterMetricsReader } from './metrics';
import { RedisStore } from './redis-store';
import { TokenVerifier, type BearerVerifier, type TokenRecord } from './token-store';
import { Upstream, type ProviderClientFactory } from './upstream';

/** After the grace, how long aborted decisions get to send their 503 before every socket is closed. */
const ABORTED_ANSWER_MS = 300;

export interface StartControlPlaneOptions {
  config: ControlPlaneConfig;
  keys: ProviderKeys;
  /** Builds the provider clients; defaults to the runtime's direct clients (`createProviderClient`). */
  clientFactory?: ProviderClientFactory;
  logger?: Logger;
  /** How often the tokens file is checked for changes (revocations); default 1 s. */
  tokenReloadIntervalMs?: number;
  /** A worker's rate buckets and usage, held by its cluster primary (file store with several workers). */
  limits?: LimitsStore;
  /** A worker's view of all workers' metrics, added up by its primary. */
  clusterMetrics?: ClusterMetricsReader;
}

export interface RunningControlPlane {
  /** Base URL for clients on this machine, e.g. http://127.0.0.1:8787 */
  readonly url: string;
  readonly port: number;
  /** Decisions being answered right now. */
  readonly inFlight: number;
  /**
   * The first half of a graceful shutdown: new decisions get 503 at once, in-flight ones finish; when the grace is
   * over they are aborted. Resolves once none is left; the service still listens (and still answers 503), so the
   * workers of one port can all refuse until every one of them has drained. Safe to call more than once.
   */
  drain(): Promise<void>;
  /** Graceful shutdown: `drain()`, then every socket is closed, whatever its client is doing. Safe to call more than once. */
  close(): Promise<void>;
}

/** The usage counters of the single-host mode live next to the tokens file. */
export function usageFileNextTo(tokensFile: string): string {
  return path.join(path.dirname(tokensFile), 'usage.json');
}

/** The service's defaults with the token's own overrides. */
export function policyOf(config: ControlPlaneConfig, token: TokenRecord): LimitPolicy {
  return {
    rate: { ...config.rateLimit, ...token.rateLimit },
    quotas: {
      daily: { ...config.quotas.daily, ...token.quotas?.daily },
      monthly: { ...config.quotas.monthly, ...token.quotas?.monthly },
    },
  };
}

interface Stores {
  tokens: BearerVerifier;
  limits: LimitsStore;
  notReadyReason(): string | null;
  close(): Promise<void>;
}

async function openStores(options: StartControlPlaneOptions, logger: Logger, metrics: ControlPlaneMetrics): Promise<Stores> {
  const { config } = options;
  if (config.redisUrl) {
    const redis = new RedisStore(config.redisUrl, {
      onError: (error, during) => {
        metrics.storeErrors.inc();
        // A failed command during an outage repeats per request; the connection's own errors tell the story once.
        if (during === 'connection') logger.warn('redis error', { error: error.message });
      },
    });
    // Started without Redis, the service comes up not ready and serves once Redis answers.
    await redis.connected().catch((error: Error) => logger.warn('redis not reachable at start; not ready until it is', { error: error.message }));
    // Closed through the batches, so what they hold (leases, usage not sent yet) reaches Redis before it disconnects.
    const limits = new BatchedLimits(redis);
    return { tokens: redis, limits, notReadyReason: () => redis.notReadyReason(), close: () => limits.close() };
  }
  const tokens = new TokenVerifier(config.tokensFile, options.tokenReloadIntervalMs ?? 1000, (error) =>
    logger.warn('tokens file reload failed; keeping the previous tokens', { error: error.message }),
  );
  await tokens.load();
  const limits =
    options.limits ??
    (await MemoryLimits.open(usageFileNextTo(config.tokensFile), (error) => logger.warn('usage file not written', { error: error.message })));
  return { tokens, limits, notReadyReason: () => null, close: () => limits.close() };
}

/** Starts the HTTP service. Rejects when the tokens file is invalid or the port cannot be bound. */
export async function startControlPlane(options: StartControlPlaneOptions): Promise<RunningControlPlane> {
  const { config } = options;
  const logger = options.logger ?? createJsonLogger();
  const metrics = new ControlPlaneMetrics(options.clusterMetrics !== undefined);
  const stores = await openStores(options, logger, metrics);
  const inFlight = new InFlightDecisions((size) => metrics.inFlight.set(size));
  const upstream = new Upstream(config, options.keys, options.clientFactory ?? createProviderClient);
  const app = createControlPlaneApp({
    tokens: stores.tokens,
    upstream,
    limits: stores.limits,
    policyFor: (token) => policyOf(config, token),
    pricing: config.pricing,
    inFlight,
    logger,
    bodyLimitBytes: config.bodyLimitBytes,
    metrics,
    metricsText: options.clusterMetrics ?? (() => metrics.registry.metrics()),
    metricsToken: config.metricsToken,
    authFailures: new AuthFailureGuard(config.authFailuresPerMinute),
    trustProxy: config.trustProxy,
    storeNotReadyReason: stores.notReadyReason,
  });

  const headersTimeout = config.headersTimeoutMs;
  const server = createAdaptorServer({
    fetch: app.fetch,
    serverOptions: {
      // Short, so sockets that never finish their headers (or their body) are closed soon, not after minutes.
      headersTimeout,
      requestTimeout: Math.max(config.requestTimeoutMs, headersTimeout),
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
      // Longer than the usual load-balancer idle timeout (60 s), so the balancer, not us, closes idle connections.
      keepAliveTimeout: 65_000,
    },
  }) as Server;
  // Past this, new connections are dropped at once: the process keeps file descriptors for the ones it serves.
  server.maxConnections = config.maxConnections;
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(new Error(`cannot listen on ${config.host}:${config.port}: ${error.code ?? error.message}`));
    };
    server.once('error', onError);
    server.listen(config.port, config.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${clientHost(config.host)}:${port}`;
  const notReady = upstream.notReadyReason() ?? stores.notReadyReason();
  logger.info('listening', {
    url,
    pid: process.pid,
    host: config.host,
    port,
    provider: config.provider,
    model: config.model,
    store: config.redisUrl ? 'redis' : 'file',
    ready: notReady === null,
  });
  if (notReady) logger.warn('not ready', { reason: notReady });

  let draining: Promise<void> | null = null;
  const drain = () =>
    (draining ??= (async () => {
      inFlight.startDraining();
      logger.info('shutting down', { inFlight: inFlight.size, graceMs: config.shutdownGraceMs });
      const finished = await Promise.race([
        inFlight.idle().then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), config.shutdownGraceMs).unref()),
      ]);
      if (finished) return;
      logger.warn('grace period over; aborting in-flight decisions', { inFlight: inFlight.size });
      inFlight.abortAll(new Error('service shutting down'));
      // Aborted decisions answer 503 at once; a client trickling its body or not reading gets no longer than this.
      await Promise.race([inFlight.idle(), new Promise((resolve) => setTimeout(resolve, ABORTED_ANSWER_MS).unref())]);
    })());

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      await drain();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      upstream.close();
      await stores.close();
      logger.info('stopped');
    })());

  return {
    url,
    port,
    get inFlight() {
      return inFlight.size;
    },
    drain,
    close,
  };
}

function clientHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
