import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import {
  EMPTY_TOTALS,
  measured,
  periodKey,
  quotaChecks,
  quotaRefusal,
  rateRefusal,
  type Admission,
  type LeasableLimits,
  type LimitPolicy,
  type Period,
  type RateLease,
  type RateLimit,
  type UsageDelta,
  type UsageRow,
  type UsageTotals,
} from './limits';
import { writePrivateFile } from './private-file';
import { TokenBucketRateLimiter } from './rate-limiter';
import { say } from '../shared/said';
import { TokenStoreError } from './token-store';

const UsageRowSchema = z.object({
  tokenId: z.string(),
  period: z.enum(['day', 'month']),
  key: z.string(),
  decisions: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  costMicroUsd: z.number().int().nonnegative(),
});
const UsageFileSchema = z.object({ version: z.literal(1), rows: z.array(UsageRowSchema) });

const PERIODS: readonly Period[] = ['day', 'month'];
const FLUSH_DELAY_MS = 1000;

/** Reads the usage file of the single-host mode (absent: no usage yet). */
export async function readUsageFile(file: string): Promise<UsageRow[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new TokenStoreError(say('controlPlane.usageUnreadable', { file, systemText: (error as Error).message }));
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TokenStoreError(say('controlPlane.usageNotJson', { file }));
  }
  const parsed = UsageFileSchema.safeParse(json);
  if (!parsed.success) throw new TokenStoreError(say('controlPlane.usageInvalid', { file }));
  return parsed.data.rows;
}

/**
 * Rate buckets and usage counters in this process's memory: the single-host mode (its cluster primary answers
 * for all its workers). Usage is written to a file at most once a second and on close, so `amc control-plane
 * usage` can read it.
 */
export class MemoryLimits implements LeasableLimits {
  private readonly buckets = new TokenBucketRateLimiter({ requestsPerMinute: 60, burst: 1 });
  private readonly totals = new Map<string, UsageRow>();
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly usageFile: string | null,
    private readonly onWriteError: (error: Error) => void,
  ) {}

  static async open(usageFile: string | null, onWriteError: (error: Error) => void = () => undefined): Promise<MemoryLimits> {
    const limits = new MemoryLimits(usageFile, onWriteError);
    if (usageFile) for (const row of await readUsageFile(usageFile)) limits.totals.set(rowKey(row.tokenId, row.period, row.key), row);
    return limits;
  }

  async admit(tokenId: string, policy: LimitPolicy, now = Date.now()): Promise<Admission> {
    for (const check of quotaChecks(policy.quotas)) {
      const used = measured(this.current(tokenId, check.period, now), check.measure);
      if (used >= check.limit) return quotaRefusal(tokenId, check, used, now);
    }
    const waitMs = this.buckets.takeOrWaitMs(tokenId, policy.rate);
    return waitMs === 0 ? { allowed: true } : rateRefusal(tokenId, waitMs);
  }

  async lease(tokenId: string, rate: RateLimit, count: number): Promise<RateLease> {
    return this.buckets.takeUpTo(tokenId, count, rate);
  }

  async giveBack(tokenId: string, rate: RateLimit, count: number): Promise<void> {
    this.buckets.giveBack(tokenId, count, rate);
  }

  async record(tokenId: string, delta: UsageDelta, now = Date.now()): Promise<void> {
    for (const period of PERIODS) {
      const key = periodKey(period, now);
      const row = this.totals.get(rowKey(tokenId, period, key)) ?? { tokenId, period, key, ...EMPTY_TOTALS };
      row.decisions += delta.decisions;
      row.inputTokens += delta.inputTokens;
      row.outputTokens += delta.outputTokens;
      row.costMicroUsd += delta.costMicroUsd;
      this.totals.set(rowKey(tokenId, period, key), row);
    }
    this.scheduleFlush(now);
  }

  async usage(tokenIds?: readonly string[], now = Date.now()): Promise<UsageRow[]> {
    const current = new Set(PERIODS.map((period) => `${period}\n${periodKey(period, now)}`));
    return [...this.totals.values()].filter(
      (row) => current.has(`${row.period}\n${row.key}`) && (!tokenIds || tokenIds.includes(row.tokenId)),
    );
  }

  async close(): Promise<void> {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
      await this.flush(Date.now());
    }
    await this.flushing;
  }

  private current(tokenId: string, period: Period, now: number): UsageTotals {
    return this.totals.get(rowKey(tokenId, period, periodKey(period, now))) ?? EMPTY_TOTALS;
  }

  private scheduleFlush(now: number): void {
    if (!this.usageFile || this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      void this.flush(now);
    }, FLUSH_DELAY_MS);
    this.flushTimer.unref();
  }

  /** Past periods are dropped when written: the file holds the current day and month only. */
  private flush(now: number): Promise<void> {
    const file = this.usageFile;
    if (!file) return Promise.resolve();
    this.flushing = this.flushing.then(async () => {
      const rows = await this.usage(undefined, now);
      await writePrivateFile(file, `${JSON.stringify({ version: 1, rows }, null, 2)}\n`).catch((error: Error) => this.onWriteError(error));
    });
    return this.flushing;
  }
}

function rowKey(tokenId: string, period: Period, key: string): string {
  return `${tokenId}\n${period}\n${key}`;
}
