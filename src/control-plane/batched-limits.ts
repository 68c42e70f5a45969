import {
  periodKey,
  quotaChecks,
  rateRefusal,
  type Admission,
  type LeasableLimits,
  type LimitPolicy,
  type LimitsStore,
  type RateLimit,
  type UsageDelta,
  type UsageRow,
} from './limits';

/** A lease nobody draws from for this long goes back to the shared bucket, so other replicas can use it. */
export const LEASE_IDLE_MS = 100;
/** How often the usage of tokens without quotas is sent, added up per token. */
export const USAGE_BATCH_MS = 100;
/**
 * A saturated worker admits a whole event-loop turn's requests at once (50 at concurrency 50): a lease smaller than
 * that made the rest wait a turn for the top-up (in-service p50 24 ms with 32, 0.1 ms with 128, one worker on Redis).
 */
const MAX_LEASE = 128;

/**
 * How many requests a replica takes from a token's shared bucket at once: a small share of the burst (at most
 * 1/8), so that another replica never waits long on what this one holds. One, that is no lease, for a token with
 * quotas: those are checked against usage that must count every decision before the next is admitted.
 */
export function leaseSize(policy: LimitPolicy): number {
  return hasQuotas(policy) ? 1 : rateLeaseSize(policy.rate);
}

const hasQuotas = (policy: LimitPolicy) => quotaChecks(policy.quotas).length > 0;
const rateLeaseSize = (rate: RateLimit) => Math.max(1, Math.min(MAX_LEASE, Math.floor(rate.burst / 8)));

interface Lease {
  available: number;
  rate: RateLimit;
  /** The top-up in flight, resolving to the wait the store named when it had nothing (0 when it granted some). */
  topUp: Promise<number> | null;
  idle: NodeJS.Timeout | null;
}

interface UnsentUsage {
  tokenId: string;
  delta: UsageDelta;
  at: number;
}

/**
 * A shared store (the cluster primary, or Redis) asked in batches: a worker takes a token's requests a few at a
 * time (a lease, topped up when half is used, given back after LEASE_IDLE_MS without use) and sends the usage of
 * tokens without quotas every USAGE_BATCH_MS, instead of a round trip for each decision's admission and another for
 * its usage. No token ever gets more than its limit (a lease is taken from the one bucket); tokens with quotas
 * are admitted and counted one decision at a time, as without batching.
 */
export class BatchedLimits implements LimitsStore {
  private readonly leases = new Map<string, Lease>();
  /** Whether each token seen has quotas (bounded by the tokens that exist). */
  private readonly quotaBound = new Map<string, boolean>();
  private readonly unsentUsage = new Map<string, UnsentUsage>();
  private usageTimer: NodeJS.Timeout | null = null;
  /** Batches on their way to the store: closing waits for them, or closing the store would drop them mid-write. */
  private readonly sending = new Set<Promise<unknown>>();

  constructor(private readonly store: LeasableLimits) {}

  async admit(tokenId: string, policy: LimitPolicy, now?: number): Promise<Admission> {
    const quotaBound = hasQuotas(policy);
    this.quotaBound.set(tokenId, quotaBound);
    const size = quotaBound ? 1 : rateLeaseSize(policy.rate);
    if (size === 1) return this.store.admit(tokenId, policy, now);
    const lease = this.leaseOf(tokenId, policy.rate);
    while (lease.available === 0) {
      const waitMs = await this.topUp(tokenId, lease, size);
      if (waitMs > 0 && lease.available === 0) return rateRefusal(tokenId, waitMs);
    }
    lease.available -= 1;
    if (lease.available < size / 2) this.topUp(tokenId, lease, size).catch(() => undefined);
    this.giveBackWhenIdle(tokenId, lease);
    return { allowed: true };
  }

  async record(tokenId: string, delta: UsageDelta, now = Date.now()): Promise<void> {
    if (this.quotaBound.get(tokenId) !== false) return this.store.record(tokenId, delta, now);
    const key = `${tokenId}\n${periodKey('day', now)}`;
    const unsent = this.unsentUsage.get(key);
    if (unsent) {
      unsent.delta.decisions += delta.decisions;
      unsent.delta.inputTokens += delta.inputTokens;
      unsent.delta.outputTokens += delta.outputTokens;
      unsent.delta.costMicroUsd += delta.costMicroUsd;
    } else {
      this.unsentUsage.set(key, { tokenId, delta: { ...delta }, at: now });
    }
    // The stores keep what they could not write and write it later: nothing to do about a failure here.
    this.usageTimer ??= setTimeout(() => void this.sendUsage().catch(() => undefined), USAGE_BATCH_MS).unref();
  }

  async usage(tokenIds?: readonly string[], now?: number): Promise<UsageRow[]> {
    await this.sendUsage();
    return this.store.usage(tokenIds, now);
  }

  async close(): Promise<void> {
    for (const [tokenId, lease] of this.leases) {
      if (lease.idle) clearTimeout(lease.idle);
      await lease.topUp?.catch(() => undefined);
      await this.giveBack(tokenId, lease);
    }
    await this.sendUsage();
    await Promise.allSettled([...this.sending]);
    await this.store.close();
  }

  private leaseOf(tokenId: string, rate: RateLimit): Lease {
    let lease = this.leases.get(tokenId);
    if (!lease) this.leases.set(tokenId, (lease = { available: 0, rate, topUp: null, idle: null }));
    lease.rate = rate;
    return lease;
  }

  /** One top-up at a time per token: whoever needs one while it is in flight waits for the same. */
  private topUp(tokenId: string, lease: Lease, size: number): Promise<number> {
    lease.topUp ??= this.store.lease(tokenId, lease.rate, size - lease.available).then(
      ({ granted, waitMs }) => {
        lease.topUp = null;
        lease.available += granted;
        return granted > 0 ? 0 : waitMs;
      },
      (error: unknown) => {
        lease.topUp = null;
        throw error;
      },
    );
    return lease.topUp;
  }

  private giveBackWhenIdle(tokenId: string, lease: Lease): void {
    if (lease.idle) {
      lease.idle.refresh();
      return;
    }
    lease.idle = setTimeout(() => {
      lease.idle = null;
      // A top-up still in flight lands first; the lease is given back once idle after that.
      if (lease.topUp) return this.giveBackWhenIdle(tokenId, lease);
      void this.giveBack(tokenId, lease);
    }, LEASE_IDLE_MS).unref();
  }

  private async giveBack(tokenId: string, lease: Lease): Promise<void> {
    if (this.leases.get(tokenId) === lease) this.leases.delete(tokenId);
    const unused = lease.available;
    lease.available = 0;
    if (unused > 0) await this.store.giveBack(tokenId, lease.rate, unused).catch(() => undefined);
  }

  private async sendUsage(): Promise<void> {
    if (this.usageTimer) clearTimeout(this.usageTimer);
    this.usageTimer = null;
    const batches = [...this.unsentUsage.values()];
    this.unsentUsage.clear();
    const sending = Promise.all(batches.map(({ tokenId, delta, at }) => this.store.record(tokenId, delta, at)));
    this.sending.add(sending);
    try {
      await sending;
    } finally {
      this.sending.delete(sending);
    }
  }
}
