export interface RateLimit {
  /** Sustained rate a token may use. */
  requestsPerMinute: number;
  /** Requests a token may make at once after being idle (bucket capacity). */
  burst: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * Token buckets per key, kept in this process's memory. With several replicas each has its own buckets, so the
 * effective limit is replicas x limit (see docs/control-plane.md).
 */
export class TokenBucketRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly refillPerMs: number;
  private lastSweep = 0;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.refillPerMs = limit.requestsPerMinute / 60_000;
  }

  take(key: string): RateDecision {
    const now = this.now();
    this.sweepFullBuckets(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.limit.burst, updatedAt: now };
    bucket.tokens = Math.min(this.limit.burst, bucket.tokens + (now - bucket.updatedAt) * this.refillPerMs);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    const waitMs = (1 - bucket.tokens) / this.refillPerMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
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
      if (bucket.tokens + (now - bucket.updatedAt) * this.refillPerMs >= this.limit.burst) this.buckets.delete(key);
    }
  }
}
