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
    return this.takeUpTo(key, 1, limit).waitMs;
  }

  /** Takes up to `count` requests at once: as many as the bucket holds, or none and how long until one fits. */
  takeUpTo(key: string, count: number, limit: RateLimit = this.limit): { granted: number; waitMs: number } {
    const bucket = this.refilled(key, limit);
    if (bucket.tokens >= 1) {
      const granted = Math.min(count, Math.floor(bucket.tokens));
      bucket.tokens -= granted;
      return { granted, waitMs: 0 };
    }
    return { granted: 0, waitMs: (1 - bucket.tokens) / refillPerMs(limit) };
  }

  /** Puts requests taken but not used back (never above the burst). */
  giveBack(key: string, count: number, limit: RateLimit = this.limit): void {
    const bucket = this.refilled(key, limit);
    bucket.tokens = Math.min(limit.burst, bucket.tokens + count);
  }

  private refilled(key: string, limit: RateLimit): Bucket {
    const now = this.now();
    this.sweepFullBuckets(now);
    const bucket = this.buckets.get(key) ?? { tokens: limit.burst, updatedAt: now, limit };
    bucket.limit = limit;
    bucket.tokens = Math.min(limit.burst, bucket.tokens + (now - bucket.updatedAt) * refillPerMs(limit));
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    return bucket;
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
