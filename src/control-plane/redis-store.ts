import { Redis } from 'ioredis';
import {
  quotaChecks,
  quotaRefusal,
  rateRefusal,
  periodKey,
  type Admission,
  type LeasableLimits,
  type LimitPolicy,
  type Period,
  type RateLease,
  type RateLimit,
  type UsageDelta,
  type UsageRow,
} from './limits';
import { say } from '../shared/said';
import { TokenBucketRateLimiter } from './rate-limiter';
import {
  checkPresented,
  findToken,
  mintToken,
  parseBearer,
  TokenRecordSchema,
  TokenStoreError,
  type BearerVerifier,
  type CreatedToken,
  type NewTokenOptions,
  type TokenAdmin,
  type TokenCheck,
  type TokenRecord,
} from './token-store';

const PREFIX = 'amc:cp:';
const TOKEN_IDS = `${PREFIX}tokens`;
/** The channel on which a changed token's id is published, so every replica drops what it remembers of it at once. */
const TOKEN_CHANGES = `${PREFIX}token-changes`;
const tokenKey = (id: string) => `${PREFIX}token:${id}`;
const bucketKey = (id: string) => `${PREFIX}bucket:${id}`;
const usageKey = (id: string, period: Period, key: string) => `${PREFIX}usage:${id}:${period}:${key}`;
const PERIODS: readonly Period[] = ['day', 'month'];
/** Usage keys outlive their period a little, so a late `usage` call still finds yesterday's numbers. */
const USAGE_TTL_SECONDS: Record<Period, number> = { day: 3 * 86_400, month: 62 * 86_400 };
/** How long a token verified against Redis is still served while Redis cannot be reached. */
export const VERIFIED_GRACE_MS = 60_000;
const MAX_REMEMBERED_TOKENS = 10_000;
/**
 * How long a token read from Redis is served from memory, while this process hears the change notices. Changes
 * (a revocation) count at once through their notice; this bounds how late one counts if its notice is lost.
 */
export const TOKEN_FRESH_MS = 500;

/** Redis's own clock in ms (replicas with skewed clocks share one bucket). */
const REDIS_NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * The token bucket at KEYS[1] (ARGV[1] requests per ms, ARGV[2] burst) refilled up to `now`, then `want` requests
 * taken when at least one is there: sets `granted` and, when none is, `wait` (ms until one is). `before` runs on the
 * refilled bucket first.
 */
const takeFromBucket = (want: string, before = '') => `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(b[1]) or burst
local ts = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - ts) * rate)
${before}
local want = ${want}
local granted = 0
local wait = 0
if want > 0 then
  if tokens >= 1 then granted = math.min(want, math.floor(tokens)); tokens = tokens - granted else wait = math.ceil((1 - tokens) / rate) end
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate) + 1000)`;

/**
 * Quotas first (nothing is taken when one is used up), then one request from the token bucket, atomically, on
 * Redis's own clock so replicas with skewed clocks share one bucket.
 * KEYS: bucket, day usage, month usage. ARGV: requests per ms, burst, number of quota checks, then per check
 * the usage key's index (2 or 3), the measure ("tokens" or "cost") and the limit.
 * Returns {0} allowed, {1, wait ms} rate limited, {2, check index, used} quota used up.
 */
const ADMIT_SCRIPT = `
${REDIS_NOW}
local checks = tonumber(ARGV[3])
for i = 0, checks - 1 do
  local key = KEYS[tonumber(ARGV[4 + i * 3])]
  local limit = tonumber(ARGV[6 + i * 3])
  local used
  if ARGV[5 + i * 3] == 'tokens' then
    local v = redis.call('HMGET', key, 'in', 'out')
    used = (tonumber(v[1]) or 0) + (tonumber(v[2]) or 0)
  else
    used = tonumber(redis.call('HGET', key, 'cost')) or 0
  end
  if used >= limit then return {2, i, used} end
end
${takeFromBucket('1')}
if wait > 0 then return {1, wait} end
return {0}
`;

/**
 * A lease: up to ARGV[3] requests taken from the token bucket at once (no quota checks; tokens with quotas are
 * admitted one by one), or, with a negative count, requests given back. KEYS: bucket. ARGV: requests per ms, burst,
 * count. Returns {granted, wait ms}.
 */
const LEASE_SCRIPT = `
${REDIS_NOW}
local count = tonumber(ARGV[3])
${takeFromBucket('math.max(0, count)', 'if count < 0 then tokens = math.min(burst, tokens - count) end')}
return {granted, wait}
`;

/**
 * One answered decision's usage added to its day and month in one atomic step (one command, not a transaction of
 * ten). KEYS: day usage, month usage. ARGV: decisions, input tokens, output tokens, cost, day TTL, month TTL (seconds).
 */
const RECORD_SCRIPT = `
for i = 1, 2 do
  redis.call('HINCRBY', KEYS[i], 'n', ARGV[1])
  redis.call('HINCRBY', KEYS[i], 'in', ARGV[2])
  redis.call('HINCRBY', KEYS[i], 'out', ARGV[3])
  redis.call('HINCRBY', KEYS[i], 'cost', ARGV[4])
  redis.call('EXPIRE', KEYS[i], ARGV[4 + i])
end
return 1
`;

type AdmitReply = [0] | [1, number] | [2, number, number];
interface WithScripts {
  amcAdmit(bucket: string, day: string, month: string, ...args: Array<string | number>): Promise<AdmitReply>;
  amcRecord(day: string, month: string, ...args: number[]): Promise<number>;
  amcLease(bucket: string, ...args: number[]): Promise<[granted: number, waitMs: number]>;
}

/** The server's address without user or password, for messages and logs. */
export function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.length > 1 ? parsed.pathname : ''}`;
  } catch {
    return 'redis (invalid URL)';
  }
}

export interface RedisStoreOptions {
  /** Each connection or command error (for the metrics and the log); the store handles the error itself. */
  onError?: (error: Error, during: 'connection' | 'command') => void;
  /** For tests: the wall clock used for usage periods. */
  now?: () => number;
}

interface RememberedToken {
  record: TokenRecord;
  /** When its last read from Redis was sent. */
  at: number;
}

/**
 * Tokens, rate buckets and usage counters in Redis, shared by every replica and worker. Redis unreachable:
 * tokens verified in the last minute are still served (rate-limited in this process's memory, usage kept to be
 * written later), every other token is refused, and readiness says why; the client reconnects by itself.
 */
export class RedisStore implements BearerVerifier, LeasableLimits, TokenAdmin {
  readonly where: string;
  private readonly redis: Redis & WithScripts;
  private readonly recentlyVerified = new Map<string, RememberedToken>();
  /** The connection subscribed to change notices, opened by the first verification (a CLI never needs it). */
  private changeNotices: Redis | null = null;
  /**
   * Since when the change notices are heard without a break (null: not heard now). Only tokens whose read was sent
   * after that are served from memory: Redis answered it after the subscription, so no notice since went unheard.
   */
  private hearingChangesSince: number | null = null;
  /** Notices heard so far, so that a read a notice overtook is not remembered. */
  private noticesHeard = 0;
  private readonly parsedRecords = new Map<string, { json: string; record: TokenRecord }>();
  private readonly fallbackBuckets = new TokenBucketRateLimiter({ requestsPerMinute: 60, burst: 1 });
  private readonly unsavedUsage: Array<{ tokenId: string; delta: UsageDelta; at: number }> = [];
  private lastError = 'not connected yet';
  private readonly now: () => number;

  constructor(url: string, private readonly options: RedisStoreOptions = {}) {
    this.where = describeRedisUrl(url);
    this.now = options.now ?? Date.now;
    this.redis = new Redis(url, {
      // Fail at once while disconnected instead of queueing: the fallbacks above decide what is served.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 1000,
      connectTimeout: 2000,
      enableAutoPipelining: true,
      retryStrategy: (attempt) => Math.min(100 * attempt, 1000),
    }) as Redis & WithScripts;
    this.redis.defineCommand('amcAdmit', { numberOfKeys: 3, lua: ADMIT_SCRIPT });
    this.redis.defineCommand('amcRecord', { numberOfKeys: 2, lua: RECORD_SCRIPT });
    this.redis.defineCommand('amcLease', { numberOfKeys: 1, lua: LEASE_SCRIPT });
    this.redis.on('error', (error: Error) => this.failed(error, 'connection'));
    this.redis.on('ready', () => void this.saveUnsavedUsage());
  }

  /** Resolves when connected; rejects with a plain message when Redis does not answer within `timeoutMs`. */
  async connected(timeoutMs = 3000): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.redis.off('ready', onReady);
        reject(new TokenStoreError(say('controlPlane.redisUnreachable', { where: this.where, systemText: this.lastError })));
      }, timeoutMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      this.redis.once('ready', onReady);
    });
  }

  /** Null when Redis answers; otherwise why the service is not ready. */
  notReadyReason(): string | null {
    return this.redis.status === 'ready' ? null : `Redis at ${this.where} is unavailable (${this.lastError}); only tokens verified in the last ${VERIFIED_GRACE_MS / 1000} s are served`;
  }

  async verify(authorization: string | undefined): Promise<TokenCheck> {
    const presented = parseBearer(authorization);
    if ('ok' in presented) return presented;
    this.listenForChanges();
    const remembered = this.recentlyVerified.get(presented.id);
    // No round trip (nor the wait behind a busy event loop that comes with it) for a token read a moment ago.
    if (remembered && this.isFresh(remembered)) return checkPresented(presented, remembered.record);
    const noticesBefore = this.noticesHeard;
    const readSent = this.now();
    let record: TokenRecord | undefined;
    try {
      record = await this.readToken(presented.id);
    } catch (error) {
      this.failed(error as Error, 'command');
      if (remembered && this.now() - remembered.at <= VERIFIED_GRACE_MS) return checkPresented(presented, remembered.record);
      return { ok: false, reason: 'unavailable', tokenId: presented.id, detail: `the token store (Redis) is unavailable` };
    }
    const check = checkPresented(presented, record);
    if (check.ok && this.noticesHeard === noticesBefore) this.remember(check.record, readSent);
    else this.recentlyVerified.delete(presented.id);
    return check;
  }

  async admit(tokenId: string, policy: LimitPolicy, now = this.now()): Promise<Admission> {
    const checks = quotaChecks(policy.quotas);
    const args = checks.flatMap((check) => [check.period === 'day' ? 2 : 3, check.measure, check.limit]);
    let reply: AdmitReply;
    try {
      reply = await this.redis.amcAdmit(
        bucketKey(tokenId),
        usageKey(tokenId, 'day', periodKey('day', now)),
        usageKey(tokenId, 'month', periodKey('month', now)),
        policy.rate.requestsPerMinute / 60_000,
        policy.rate.burst,
        checks.length,
        ...args,
      );
    } catch (error) {
      this.failed(error as Error, 'command');
      // Only reached for a token served from memory during an outage: its rate still holds, per process.
      const waitMs = this.fallbackBuckets.takeOrWaitMs(tokenId, policy.rate);
      return waitMs === 0 ? { allowed: true } : rateRefusal(tokenId, waitMs);
    }
    if (reply[0] === 1) return rateRefusal(tokenId, reply[1]);
    if (reply[0] === 2) return quotaRefusal(tokenId, checks[reply[1]]!, reply[2], now);
    return { allowed: true };
  }

  async lease(tokenId: string, rate: RateLimit, count: number): Promise<RateLease> {
    try {
      const [granted, waitMs] = await this.redis.amcLease(bucketKey(tokenId), rate.requestsPerMinute / 60_000, rate.burst, count);
      return { granted, waitMs };
    } catch (error) {
      this.failed(error as Error, 'command');
      return this.fallbackBuckets.takeUpTo(tokenId, count, rate);
    }
  }

  async giveBack(tokenId: string, rate: RateLimit, count: number): Promise<void> {
    // Not given back during an outage: the token waits for its refill, never gets more than its limit.
    await this.redis.amcLease(bucketKey(tokenId), rate.requestsPerMinute / 60_000, rate.burst, -count).catch((error: Error) => this.failed(error, 'command'));
  }

  async record(tokenId: string, delta: UsageDelta, now = this.now()): Promise<void> {
    try {
      await this.writeUsage(tokenId, delta, now);
    } catch (error) {
      this.failed(error as Error, 'command');
      this.unsavedUsage.push({ tokenId, delta, at: now });
    }
  }

  async usage(tokenIds?: readonly string[], now = this.now()): Promise<UsageRow[]> {
    const ids = tokenIds ?? (await this.redis.smembers(TOKEN_IDS));
    const wanted = ids.flatMap((tokenId) => PERIODS.map((period) => ({ tokenId, period, key: periodKey(period, now) })));
    const hashes = await Promise.all(wanted.map((w) => this.redis.hgetall(usageKey(w.tokenId, w.period, w.key))));
    return wanted.flatMap((w, i) => {
      const hash = hashes[i]!;
      if (!hash.n) return [];
      return [{ ...w, decisions: Number(hash.n), inputTokens: Number(hash.in ?? 0), outputTokens: Number(hash.out ?? 0), costMicroUsd: Number(hash.cost ?? 0) }];
    });
  }

  async create(options: NewTokenOptions = {}): Promise<CreatedToken> {
    await this.connected();
    const taken = new Set(await this.redis.smembers(TOKEN_IDS));
    const created = mintToken((id) => taken.has(id), options);
    await this.redis.multi().set(tokenKey(created.record.id), JSON.stringify(created.record)).sadd(TOKEN_IDS, created.record.id).exec();
    return created;
  }

  async revoke(idOrName: string): Promise<TokenRecord> {
    // A copy: the records read are shared with later reads.
    const record = { ...findToken(await this.list(), idOrName, this.where) };
    record.revokedAt ??= new Date().toISOString();
    await this.redis.multi().set(tokenKey(record.id), JSON.stringify(record)).publish(TOKEN_CHANGES, record.id).exec();
    return record;
  }

  async list(): Promise<TokenRecord[]> {
    await this.connected();
    const ids = await this.redis.smembers(TOKEN_IDS);
    const records = await Promise.all(ids.map((id) => this.readToken(id)));
    return records.filter((r): r is TokenRecord => r !== undefined).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async close(): Promise<void> {
    await this.saveUnsavedUsage();
    this.redis.disconnect();
    this.changeNotices?.disconnect();
  }

  /**
   * Subscribes to the change notices on a connection of their own. Tokens are served from memory only while it is
   * subscribed; whatever was remembered before it (re)subscribed may have missed a notice and is read again.
   */
  private listenForChanges(): void {
    if (this.changeNotices) return;
    const notices = this.redis.duplicate();
    this.changeNotices = notices;
    // Its outages are the main connection's too, and that one reports them; meanwhile tokens are read each time.
    notices.on('error', () => {});
    notices.on('close', () => {
      this.hearingChangesSince = null;
    });
    notices.on('ready', () => {
      notices.subscribe(TOKEN_CHANGES).then(
        () => (this.hearingChangesSince = this.now()),
        () => {},
      );
    });
    notices.on('message', (_channel: string, tokenId: string) => {
      this.noticesHeard += 1;
      this.recentlyVerified.delete(tokenId);
    });
  }

  private isFresh(remembered: RememberedToken): boolean {
    const since = this.hearingChangesSince;
    return since !== null && remembered.at > since && this.now() - remembered.at < TOKEN_FRESH_MS;
  }

  /** Parsed again only when the stored text changed. */
  private async readToken(id: string): Promise<TokenRecord | undefined> {
    const json = await this.redis.get(tokenKey(id));
    if (json === null) return undefined;
    const known = this.parsedRecords.get(id);
    if (known?.json === json) return known.record;
    const parsed = TokenRecordSchema.safeParse(JSON.parse(json));
    if (!parsed.success) throw new TokenStoreError(say('controlPlane.redisBadRecord', { id, where: this.where }));
    this.parsedRecords.delete(id);
    this.parsedRecords.set(id, { json, record: parsed.data });
    if (this.parsedRecords.size > MAX_REMEMBERED_TOKENS) this.parsedRecords.delete(this.parsedRecords.keys().next().value!);
    return parsed.data;
  }

  private remember(record: TokenRecord, readSent: number): void {
    this.recentlyVerified.delete(record.id);
    this.recentlyVerified.set(record.id, { record, at: readSent });
    // Oldest first in a Map: drop from the front to stay bounded.
    if (this.recentlyVerified.size > MAX_REMEMBERED_TOKENS) this.recentlyVerified.delete(this.recentlyVerified.keys().next().value!);
  }

  private async writeUsage(tokenId: string, delta: UsageDelta, now: number): Promise<void> {
    await this.redis.amcRecord(
      usageKey(tokenId, 'day', periodKey('day', now)),
      usageKey(tokenId, 'month', periodKey('month', now)),
      delta.decisions,
      delta.inputTokens,
      delta.outputTokens,
      delta.costMicroUsd,
      USAGE_TTL_SECONDS.day,
      USAGE_TTL_SECONDS.month,
    );
  }

  private failed(error: Error, during: 'connection' | 'command'): void {
    this.lastError = error.message;
    this.options.onError?.(error, during);
  }

  /** Usage of decisions answered during an outage is added once Redis is back (each decision once). */
  private async saveUnsavedUsage(): Promise<void> {
    while (this.unsavedUsage.length > 0 && this.redis.status === 'ready') {
      const next = this.unsavedUsage[0]!;
      try {
        await this.writeUsage(next.tokenId, next.delta, next.at);
        this.unsavedUsage.shift();
      } catch {
        return;
      }
    }
  }
}
