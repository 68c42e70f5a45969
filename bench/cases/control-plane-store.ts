// Control-plane store: what the shared state costs a decision on its own, one at a time (no queueing): the
// Redis round trips on a decision's path for a token with quotas (verify the token, admit it: quotas + rate bucket,
// and the usage write the answer waits for), next to the same steps on the file store (in memory), against a real
// redis-server.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LimitPolicy, LimitsStore } from '../../src/control-plane/limits';
import { MemoryLimits } from '../../src/control-plane/memory-limits';
import { RedisStore } from '../../src/control-plane/redis-store';
import { createToken, TokenVerifier, type BearerVerifier } from '../../src/control-plane/token-store';
import { startTestRedis } from '../../test/support/redis-server';
import { percentile, type BenchCase, type BenchRow } from '../types';

const DECISIONS = 1_000;
const policy: LimitPolicy = { rate: { requestsPerMinute: 1e7, burst: 1e6 }, quotas: { daily: { tokens: 1e12 }, monthly: { costUsd: 1e6 } } };

/** Milliseconds of verify + admit + usage write (the decision's path), and of the usage write alone, per decision. */
async function timeSteps(tokens: BearerVerifier, limits: LimitsStore, token: string, tokenId: string) {
  const onPath: number[] = [];
  const usage: number[] = [];
  for (let i = 0; i < DECISIONS; i++) {
    const started = performance.now();
    await tokens.verify(`Bearer ${token}`);
    await limits.admit(tokenId, policy);
    const admitted = performance.now();
    await limits.record(tokenId, { decisions: 1, inputTokens: 1200, outputTokens: 30, costMicroUsd: 4000 });
    const recorded = performance.now();
    onPath.push(recorded - started);
    usage.push(recorded - admitted);
  }
  return { path: onPath, usage };
}

const storeBench: BenchCase = {
  name: 'control-plane-store',
  async run(): Promise<BenchRow[]> {
    const dir = await mkdtemp(path.join(tmpdir(), 'amc-bench-store-'));
    const redis = await startTestRedis();
    const store = new RedisStore(redis.url);
    try {
      const tokensFile = path.join(dir, 'tokens.json');
      const fileToken = await createToken(tokensFile, { name: 'bench' });
      const verifier = new TokenVerifier(tokensFile);
      await verifier.load();
      const file = await timeSteps(verifier, await MemoryLimits.open(null), fileToken.token, fileToken.record.id);
      const redisToken = await store.create({ name: 'bench' });
      const viaRedis = await timeSteps(store, store, redisToken.token, redisToken.record.id);
      const name = 'control-plane store, one at a time';
      const p = percentile;
      return [
        { case: name, metric: 'file store: verify + admit + usage p50 / p99', value: p(file.path, 50), unit: `ms / ${p(file.path, 99).toFixed(3)} ms` },
        { case: name, metric: 'Redis: verify + admit + usage p50 / p99', value: p(viaRedis.path, 50), unit: `ms / ${p(viaRedis.path, 99).toFixed(3)} ms` },
        { case: name, metric: 'Redis adds to a decision, p50', value: p(viaRedis.path, 50) - p(file.path, 50), unit: 'ms', goal: '< 1 ms' },
        { case: name, metric: 'of which the Redis usage write p50 / p99', value: p(viaRedis.usage, 50), unit: `ms / ${p(viaRedis.usage, 99).toFixed(3)} ms` },
      ];
    } finally {
      await store.close();
      await redis.dispose();
      await rm(dir, { recursive: true, force: true });
    }
  },
};
export default storeBench;
