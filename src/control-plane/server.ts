import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { createProviderClient } from '../main/runtime/clients/index';
import { createControlPlaneApp } from './app';
import type { ControlPlaneConfig, ProviderKeys } from './config';
import { InFlightDecisions } from './in-flight';
import { createJsonLogger, type Logger } from './logger';
import { TokenBucketRateLimiter } from './rate-limiter';
import { TokenVerifier } from './token-store';
import { Upstream, type ProviderClientFactory } from './upstream';

export interface StartControlPlaneOptions {
  config: ControlPlaneConfig;
  keys: ProviderKeys;
  /** Builds the provider clients; defaults to the runtime's direct clients (`createProviderClient`). */
  clientFactory?: ProviderClientFactory;
  logger?: Logger;
  /** How often the tokens file is checked for changes (revocations); default 1 s. */
  tokenReloadIntervalMs?: number;
}

export interface RunningControlPlane {
  /** Base URL for clients on this machine, e.g. http://127.0.0.1:8787 */
  readonly url: string;
  readonly port: number;
  /** Decisions being answered right now. */
  readonly inFlight: number;
  /**
   * Graceful shutdown: new decisions get 503 at once, in-flight ones finish (aborted after the configured
   * grace), then the listener and all connections close. Safe to call more than once.
   */
  close(): Promise<void>;
}

/** Starts the HTTP service. Rejects when the tokens file is invalid or the port cannot be bound. */
export async function startControlPlane(options: StartControlPlaneOptions): Promise<RunningControlPlane> {
  const { config } = options;
  const logger = options.logger ?? createJsonLogger();
  const tokens = new TokenVerifier(config.tokensFile, options.tokenReloadIntervalMs ?? 1000, (error) =>
    logger.warn('tokens file reload failed; keeping the previous tokens', { error: error.message }),
  );
  await tokens.load();
  const inFlight = new InFlightDecisions();
  const upstream = new Upstream(config, options.keys, options.clientFactory ?? createProviderClient);
  const app = createControlPlaneApp({
    tokens,
    upstream,
    rateLimiter: new TokenBucketRateLimiter(config.rateLimit),
    inFlight,
    logger,
    bodyLimitBytes: config.bodyLimitBytes,
  });

  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  // Longer than the usual load-balancer idle timeout (60 s), so the balancer, not us, closes idle connections.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
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
  const notReady = upstream.notReadyReason();
  logger.info('listening', {
    url,
    host: config.host,
    port,
    provider: config.provider,
    model: config.model,
    tokens: tokens.tokenCount,
    ready: notReady === null,
  });
  if (notReady) logger.warn('not ready', { reason: notReady });

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      inFlight.startDraining();
      logger.info('shutting down', { inFlight: inFlight.size, graceMs: config.shutdownGraceMs });
      const finished = await Promise.race([
        inFlight.idle().then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), config.shutdownGraceMs).unref()),
      ]);
      if (!finished) {
        logger.warn('grace period over; aborting in-flight decisions', { inFlight: inFlight.size });
        inFlight.abortAll(new Error('service shutting down'));
        await inFlight.idle();
      }
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      logger.info('stopped');
    })());

  return {
    url,
    port,
    get inFlight() {
      return inFlight.size;
    },
    close,
  };
}

function clientHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
