// The fleet's Redis: how its address is read and shown (never with its password), and the names its queues and keys
// take there.
import { Redis } from 'ioredis';
import { say, type Said, type SaidCode, type SaidValues } from '../shared/said';

/** The prefix of every key the fleet writes, BullMQ's included. */
export const FLEET_PREFIX = 'amc:fleet';
/** The shared queue of jobs any free phone may take. */
export const ANY_QUEUE = 'any';
/** Where workers report themselves (one hash field per worker). */
export const WORKERS_KEY = `${FLEET_PREFIX}:workers`;
/** Every queue a job was sent to or a worker takes jobs from, so `amc fleet` lists every job a worker may run. */
export const QUEUES_KEY = `${FLEET_PREFIX}:queues`;
/** How often a worker reports itself. */
export const HEARTBEAT_MS = 2_000;
/** A worker's heartbeat key lives this long: a worker silent for three reports is gone, its phones offline. */
export const WORKER_ALIVE_MS = 3 * HEARTBEAT_MS;
/** Set by a worker at each report with WORKER_ALIVE_MS to live: Redis, not a clock in a payload, says it is alive. */
export const workerAliveKey = (name: string): string => `${FLEET_PREFIX}:alive:${name}`;
/** Held by the worker running a job on the phone, so a phone two workers offer runs one job at a time. */
export const phoneClaimKey = (serial: string): string => `${FLEET_PREFIX}:phone:${serial}`;

/** A phone's own queue. BullMQ refuses ':' in queue names, and serials such as 127.0.0.1:5601 carry one. */
export function phoneQueue(serial: string): string {
  return `phone-${encodeURIComponent(serial)}`;
}

/** A bad or unreachable address, in English with its code (`said`) for a reader in another language. */
export class RedisUrlError extends Error {
  override name = 'RedisUrlError';
  readonly said: Said;
  constructor(code: SaidCode, values: SaidValues = {}) {
    const saying = say(code, values);
    super(saying.text);
    this.said = saying.said;
  }
}

/** Checks a `redis://` or `rediss://` (TLS) address; the message never repeats the password. */
export function parseRedisUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RedisUrlError('fleetRedis.notUrl');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new RedisUrlError('fleetRedis.scheme', { scheme: url.protocol });
  }
  if (!url.hostname) throw new RedisUrlError('fleetRedis.noHost');
  return url;
}

/** The address as it may be printed: scheme, host, port and database, no user or password. */
export function redisLabel(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname && url.pathname !== '/' ? url.pathname : ''}`;
}

/**
 * A connection as BullMQ needs it (commands wait through a reconnect instead of failing: `maxRetriesPerRequest`
 * null). `rediss://` turns TLS on; ioredis reads the password from the URL.
 */
export function connectRedis(url: URL): Redis {
  const redis = new Redis(url.href, { maxRetriesPerRequest: null, lazyConnect: false, ...(url.protocol === 'rediss:' && { tls: {} }) });
  // ioredis retries by itself; its error events are told through `reachRedis` and the workers' own events instead
  // of "Unhandled error event" lines on every retry.
  redis.on('error', () => undefined);
  return redis;
}

/** How long a command waits for the fleet's Redis to answer before it says it cannot reach it. */
const REACH_TIMEOUT_MS = 5_000;

/** A connection that has answered a PING; otherwise a RedisUrlError naming the address (no password) and why. */
export async function reachRedis(url: URL, timeoutMs = REACH_TIMEOUT_MS): Promise<Redis> {
  const redis = connectRedis(url);
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => (lastError = error));
  let timer: NodeJS.Timeout | undefined;
  const silence = new Error('no answer');
  try {
    await Promise.race([
      redis.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(silence), timeoutMs);
      }),
    ]);
    return redis;
  } catch (error) {
    redis.disconnect();
    const seen = lastError ?? (error === silence ? undefined : error instanceof Error ? error : new Error(String(error)));
    // Silence until the time is up has no error of its own to name: it is told as such, not as the timer's words.
    if (!seen) throw new RedisUrlError('fleetRedis.noAnswer', { address: redisLabel(url), seconds: Math.round(timeoutMs / 1000) });
    throw new RedisUrlError('fleetRedis.unreachable', { address: redisLabel(url), why: (seen as NodeJS.ErrnoException).code ?? seen.message });
  } finally {
    clearTimeout(timer);
  }
}
