import type { RateLimit } from './limits';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updatedAt: number;
  limit: RateLimit;
}

const refillPerMs = (limit: RateLimit) => limit.requestsPerMinute / 60_000;

/**
 * Token buckets per key, kept in this process's memory: the single-host store, and the fallback of a replica
 * while Redis is unreachable. Each key may bring its own limit (a token's override).
 */
export class TokenBucketRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** How long until the next request fits, or 0 when this one was taken. */
  takeOrWaitMs(key: string, limit: RateLimit = this.limit): number {
    const now = this.now();
    this.sweepFullBuckets(now);
    const bucket = this.buckets.get(key) ?? { tokens: limit.burst, updatedAt: now, limit };
    bucket.limit = limit;
    bucket.tokens = Math.min(limit.burst, bucket.tokens + (now - bucket.updatedAt) * refillPerMs(limit));
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return (1 - bucket.tokens) / refillPerMs(limit);
  }

  take(key: string, limit: RateLimit = this.limit): RateDecision {
    const waitMs = this.takeOrWaitMs(key, limit);
    return waitMs === 0 ? { allowed: true } : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  /** Number of keys currently tracked (bounded: buckets that refilled completely are forgotten). */
  get size(): number {
    return this.buckets.size;
  }

  // A refilled bucket is indistinguishable from a new one, so dropping it keeps memory bounded by active tokens.
  private sweepFullBuckets(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.updatedAt) * refillPerMs(bucket.limit) >= bucket.limit.burst) this.buckets.delete(key);
    }
  }
}
