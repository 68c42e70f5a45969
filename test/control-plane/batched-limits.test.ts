// Workers asking a shared store (the cluster primary's memory, or a real redis-server) for their limits in batches:
// leases from one bucket, idle leases given back, usage of tokens without quotas added up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchedLimits, leaseSize, USAGE_BATCH_MS } from '../../src/control-plane/batched-limits';
import type { LeasableLimits, LimitPolicy, UsageDelta } from '../../src/control-plane/limits';
import { MemoryLimits } from '../../src/control-plane/memory-limits';
import { RedisStore } from '../../src/control-plane/redis-store';
import { startTestRedis, type TestRedis } from '../support/redis-server';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
}, 30_000);
afterAll(async () => {
  await redis?.dispose();
});

/** One shared store and a way to read it afresh (another connection for Redis), per kind. */
const kinds: Array<{ name: string; open(): Promise<{ shared: LeasableLimits; reader(): Promise<LeasableLimits> }> }> = [
  {
    name: 'cluster primary (memory)',
    async open() {
      const shared = await MemoryLimits.open(null);
      return { shared, reader: async () => shared };
    },
  },
  {
    name: 'Redis',
    async open() {
      const connect = async () => {
        const store = new RedisStore(redis.url);
        await store.connected();
        return store;
      };
      return { shared: await connect(), reader: connect };
    },
  },
];

let tokenCount = 0;
const freshToken = () => `t${++tokenCount}-${Date.now()}`;
const rateOnly = (burst: number): LimitPolicy => ({ rate: { requestsPerMinute: 60, burst }, quotas: {} });
const withQuota: LimitPolicy = { rate: { requestsPerMinute: 60, burst: 64 }, quotas: { daily: { tokens: 1_000_000_000 } } };
const oneDecision: UsageDelta = { decisions: 1, inputTokens: 100, outputTokens: 10, costMicroUsd: 7 };

async function admitted(limits: BatchedLimits, token: string, policy: LimitPolicy, times: number): Promise<number> {
  let allowed = 0;
  for (let i = 0; i < times; i++) if ((await limits.admit(token, policy)).allowed) allowed += 1;
  return allowed;
}

async function decisionsIn(store: LeasableLimits, token: string): Promise<number> {
  return (await store.usage([token])).find((row) => row.period === 'day')?.decisions ?? 0;
}

async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the condition did not hold within 2 s');
}

describe('leases from a shared bucket', () => {
  it('a lease is at most 1/8 of the burst, 128 at most, and none for a token with quotas', () => {
    expect(leaseSize(rateOnly(64))).toBe(8);
    expect(leaseSize(rateOnly(100_000))).toBe(128);
    expect(leaseSize(rateOnly(10))).toBe(1);
    expect(leaseSize(withQuota)).toBe(1);
  });

  for (const kind of kinds) {
    describe(kind.name, () => {
      it('Scenario: Leases from one bucket never give a token more than its limit', async () => {
        const { shared } = await kind.open();
        const workerA = new BatchedLimits(shared);
        const workerB = new BatchedLimits(shared);
        const token = freshToken();
        const policy = rateOnly(64);
        const started = performance.now();
        let allowed = 0;
        for (let turn = 0; turn < 100; turn++) allowed += await admitted(turn % 2 ? workerB : workerA, token, policy, 2);
        const refilled = Math.ceil((performance.now() - started) / 1000) + 1;
        expect(allowed).toBeGreaterThanOrEqual(64);
        expect(allowed).toBeLessThanOrEqual(64 + refilled);
        await Promise.all([workerA.close(), workerB.close()]);
      });

      it('Scenario: A lease left idle goes back to the shared bucket', async () => {
        const { shared } = await kind.open();
        const holder = new BatchedLimits(shared);
        const other = new BatchedLimits(shared);
        const token = freshToken();
        const policy = rateOnly(64);
        expect(await admitted(holder, token, policy, 1)).toBe(1);
        // The other worker empties the bucket but for what the holder leased and did not use.
        let emptied = 0;
        while ((await other.admit(token, policy)).allowed) emptied += 1;
        expect(emptied).toBeGreaterThanOrEqual(64 - leaseSize(policy));
        await eventually(async () => (await other.admit(token, policy)).allowed);
        // The rest of the holder's lease came back with it (one of them was just used above).
        expect(await admitted(other, token, policy, leaseSize(policy))).toBeGreaterThanOrEqual(leaseSize(policy) - 2);
        await Promise.all([holder.close(), other.close()]);
      });

      it('Scenario: Usage of a token with quotas is counted before its next admission', async () => {
        const { shared, reader } = await kind.open();
        const worker = new BatchedLimits(shared);
        const quotaBound = freshToken();
        const free = freshToken();

        expect((await worker.admit(quotaBound, withQuota)).allowed).toBe(true);
        await worker.record(quotaBound, oneDecision);
        expect(await decisionsIn(shared, quotaBound)).toBe(1);

        for (let i = 0; i < 3; i++) {
          expect((await worker.admit(free, rateOnly(64))).allowed).toBe(true);
          await worker.record(free, oneDecision);
        }
        // Read through the worker, what it holds back is sent first, added up.
        const [day] = (await worker.usage([free])).filter((row) => row.period === 'day');
        expect(day).toMatchObject({ decisions: 3, inputTokens: 300, outputTokens: 30, costMicroUsd: 21 });
        // Not read: it arrives by itself.
        await worker.record(free, oneDecision);
        await eventually(async () => (await decisionsIn(shared, free)) === 4);
        // And what is held back at shutdown is sent before the store closes.
        await worker.record(free, oneDecision);
        await worker.close();
        const afterwards = await reader();
        expect(await decisionsIn(afterwards, free)).toBe(5);
        await afterwards.close();
      });
    });
  }

  it('a batch already on its way when the worker closes is written before the store closes', async () => {
    const redisStore = new RedisStore(redis.url);
    await redisStore.connected();
    // The real Redis store, each write held back a while, as on a busy machine or a slow network.
    const slowWrites: LeasableLimits = Object.assign(Object.create(redisStore) as RedisStore, {
      record: async (tokenId: string, delta: UsageDelta, now?: number) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return redisStore.record(tokenId, delta, now);
      },
    });
    const worker = new BatchedLimits(slowWrites);
    const token = freshToken();
    for (let i = 0; i < 3; i++) {
      expect((await worker.admit(token, rateOnly(64))).allowed).toBe(true);
      await worker.record(token, oneDecision);
    }
    // The batch timer fires and its write starts; the worker is closed while that write is under way.
    await new Promise((resolve) => setTimeout(resolve, USAGE_BATCH_MS + 50));
    await worker.close();
    const reader = new RedisStore(redis.url);
    await reader.connected();
    expect(await decisionsIn(reader, token)).toBe(3);
    await reader.close();
  });
});
