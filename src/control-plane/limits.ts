import { z } from 'zod';

export interface RateLimit {
  /** Sustained rate a token may use. */
  requestsPerMinute: number;
  /** Requests a token may make at once after being idle (bucket capacity). */
  burst: number;
}

const QuotaLimitsSchema = z.strictObject({
  /** Input plus output tokens. */
  tokens: z.number().int().positive().optional(),
  costUsd: z.number().positive().optional(),
});
export const QuotasSchema = z.strictObject({ daily: QuotaLimitsSchema.optional(), monthly: QuotaLimitsSchema.optional() });
export type Quotas = z.infer<typeof QuotasSchema>;

/** What one token may use: its rate and its quotas (service defaults merged with the token's overrides). */
export interface LimitPolicy {
  rate: RateLimit;
  quotas: Quotas;
}

export type Period = 'day' | 'month';

/** Usage of one token in one period. Cost is kept in micro-dollars so that every replica's additions stay exact. */
export interface UsageTotals {
  decisions: number;
  inputTokens: number;
  outputTokens: number;
  costMicroUsd: number;
}

export interface UsageDelta {
  /** Answered decisions this usage adds up (1, or more for a batch). */
  decisions: number;
  inputTokens: number;
  outputTokens: number;
  costMicroUsd: number;
}

export interface UsageRow extends UsageTotals {
  tokenId: string;
  period: Period;
  /** `2026-11-30` for a day, `2026-11` for a month (UTC). */
  key: string;
}

export type Admission =
  | { allowed: true }
  | { allowed: false; kind: 'rate' | 'quota'; retryAfterSeconds: number; message: string; quota?: QuotaName };

/** Shared counters behind the limits: this process's memory, the cluster primary's, or Redis. */
export interface LimitsStore {
  /** Checks the token's quotas, then takes one request from its rate bucket (nothing is taken when refused). */
  admit(tokenId: string, policy: LimitPolicy, now?: number): Promise<Admission>;
  /**
   * Adds one answered decision's usage to the token's day and month; resolves once a later `admit` of a token with
   * quotas would see it (other tokens' usage may still be on its way).
   */
  record(tokenId: string, delta: UsageDelta, now?: number): Promise<void>;
  /** Current day and month of every token (or of the given ones). */
  usage(tokenIds?: readonly string[], now?: number): Promise<UsageRow[]>;
  close(): Promise<void>;
}

/** Requests taken from a rate bucket at once: as many as asked for that it held, or none and how long until one fits. */
export interface RateLease {
  granted: number;
  waitMs: number;
}

/** A shared store whose rate buckets can hand out several requests at once (see batched-limits.ts). */
export interface LeasableLimits extends LimitsStore {
  /** Takes up to `count` requests from the token's rate bucket (its quotas are not checked). */
  lease(tokenId: string, rate: RateLimit, count: number): Promise<RateLease>;
  /** Puts requests taken but not used back into the token's bucket (never above its burst). */
  giveBack(tokenId: string, rate: RateLimit, count: number): Promise<void>;
}

export const EMPTY_TOTALS: UsageTotals = { decisions: 0, inputTokens: 0, outputTokens: 0, costMicroUsd: 0 };

export function periodKey(period: Period, now: number): string {
  const iso = new Date(now).toISOString();
  return period === 'day' ? iso.slice(0, 10) : iso.slice(0, 7);
}

/** Seconds until the period that contains `now` ends (UTC midnight, or the first of next month). */
export function secondsUntilPeriodEnds(period: Period, now: number): number {
  const date = new Date(now);
  const end =
    period === 'day'
      ? Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1)
      : Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((end - now) / 1000));
}

export type QuotaName = 'daily tokens' | 'daily cost' | 'monthly tokens' | 'monthly cost';

export interface QuotaCheck {
  name: QuotaName;
  period: Period;
  measure: 'tokens' | 'cost';
  /** In tokens, or in micro-dollars for cost. */
  limit: number;
}

/** The quotas that apply, in the order they are checked (the stores check them the same way). */
export function quotaChecks(quotas: Quotas): QuotaCheck[] {
  const checks: QuotaCheck[] = [];
  for (const [period, limits] of [['day', quotas.daily], ['month', quotas.monthly]] as const) {
    const label = period === 'day' ? 'daily' : 'monthly';
    if (limits?.tokens !== undefined) checks.push({ name: `${label} tokens`, period, measure: 'tokens', limit: limits.tokens });
    if (limits?.costUsd !== undefined) {
      checks.push({ name: `${label} cost`, period, measure: 'cost', limit: Math.round(limits.costUsd * 1_000_000) });
    }
  }
  return checks;
}

export function measured(totals: UsageTotals, measure: QuotaCheck['measure']): number {
  return measure === 'tokens' ? totals.inputTokens + totals.outputTokens : totals.costMicroUsd;
}

function formatAmount(check: QuotaCheck, value: number): string {
  return check.measure === 'tokens' ? `${value} tokens` : `$${(value / 1_000_000).toFixed(2)}`;
}

export function quotaRefusal(tokenId: string, check: QuotaCheck, used: number, now: number): Admission {
  const retryAfterSeconds = secondsUntilPeriodEnds(check.period, now);
  const hours = Math.floor(retryAfterSeconds / 3600);
  const minutes = Math.ceil((retryAfterSeconds % 3600) / 60);
  return {
    allowed: false,
    kind: 'quota',
    quota: check.name,
    retryAfterSeconds,
    message:
      `${check.name} quota reached for token ${tokenId}: ${formatAmount(check, used)} used of ${formatAmount(check, check.limit)}; ` +
      `it resets in ${hours} h ${minutes} min (at the start of the next ${check.period}, UTC)`,
  };
}

export function rateRefusal(tokenId: string, waitMs: number): Admission {
  const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  return {
    allowed: false,
    kind: 'rate',
    retryAfterSeconds,
    message: `rate limit reached for token ${tokenId}; retry in ${retryAfterSeconds} s`,
  };
}
