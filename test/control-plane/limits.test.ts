import { describe, expect, it } from 'vitest';
import { quotaChecks, secondsUntilPeriodEnds } from '../../src/control-plane/limits';
import { MemoryLimits } from '../../src/control-plane/memory-limits';
import { costMicroUsd } from '../../src/control-plane/pricing';

const noon = Date.UTC(2026, 10, 30, 12, 0, 0);
const rate = { requestsPerMinute: 6000, burst: 1000 };

describe('single-host limits (memory)', () => {
  it('refuses once a daily token quota is used up, names it, and starts afresh the next day', async () => {
    const limits = await MemoryLimits.open(null);
    const policy = { rate, quotas: { daily: { tokens: 100 } } };
    expect(await limits.admit('t1', policy, noon)).toEqual({ allowed: true });
    await limits.record('t1', { decisions: 1, inputTokens: 80, outputTokens: 20, costMicroUsd: 0 }, noon);
    const refused = await limits.admit('t1', policy, noon);
    expect(refused).toMatchObject({ allowed: false, kind: 'quota', quota: 'daily tokens', retryAfterSeconds: 12 * 3600 });
    expect(refused.allowed ? '' : refused.message).toContain('daily tokens quota reached for token t1: 100 tokens used of 100 tokens');
    // Another token, and the same token tomorrow, are not affected.
    expect(await limits.admit('t2', policy, noon)).toEqual({ allowed: true });
    expect(await limits.admit('t1', policy, noon + 12 * 3600 * 1000)).toEqual({ allowed: true });
  });

  it('checks monthly cost quotas in dollars and keeps usage per day and month', async () => {
    const limits = await MemoryLimits.open(null);
    const policy = { rate, quotas: { monthly: { costUsd: 0.5 } } };
    const cost = costMicroUsd({ m: { inputPerMillion: 3, outputPerMillion: 15 } }, 'm', { inputTokens: 100_000, outputTokens: 20_000 });
    expect(cost).toBe(600_000);
    await limits.record('t1', { decisions: 1, inputTokens: 100_000, outputTokens: 20_000, costMicroUsd: cost }, noon);
    const refused = await limits.admit('t1', policy, noon);
    expect(refused).toMatchObject({ allowed: false, quota: 'monthly cost' });
    expect(refused.allowed ? '' : refused.message).toContain('$0.60 used of $0.50');
    const rows = await limits.usage(['t1'], noon);
    expect(rows.map((r) => [r.period, r.key, r.decisions, r.costMicroUsd])).toEqual([
      ['day', '2026-11-30', 1, 600_000],
      ['month', '2026-11', 1, 600_000],
    ]);
    expect(await limits.usage(['t1'], Date.UTC(2026, 11, 1, 0, 0, 1))).toEqual([]);
  });

  it('takes the rate from the policy of each token', async () => {
    const limits = await MemoryLimits.open(null);
    const tight = { rate: { requestsPerMinute: 1, burst: 2 }, quotas: {} };
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await limits.admit('t1', tight, noon));
    expect(results.map((r) => r.allowed)).toEqual([true, true, false]);
    expect(results[2]).toMatchObject({ kind: 'rate', retryAfterSeconds: 60 });
    expect((await limits.admit('t2', { rate, quotas: {} }, noon)).allowed).toBe(true);
  });

  it('orders quota checks day before month and knows when periods end', () => {
    expect(quotaChecks({ monthly: { tokens: 5 }, daily: { costUsd: 1, tokens: 3 } }).map((c) => c.name)).toEqual([
      'daily tokens',
      'daily cost',
      'monthly tokens',
    ]);
    expect(secondsUntilPeriodEnds('month', Date.UTC(2026, 11, 31, 23, 59, 0))).toBe(60);
    expect(secondsUntilPeriodEnds('day', Date.UTC(2026, 1, 28, 23, 0, 0))).toBe(3600);
  });
});
