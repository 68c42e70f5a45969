import { isIP } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry } from 'prom-client';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25];

/**
 * The service's Prometheus metrics. Each process keeps its own; with workers, the cluster primary adds them up
 * (prom-client's AggregatorRegistry) so one scrape of any worker shows the whole process group.
 */
export class ControlPlaneMetrics {
  readonly registry = new Registry();
  readonly decisions = new Counter({
    name: 'amc_cp_decisions_total',
    help: 'Planner decisions answered, by provider, model and HTTP status',
    labelNames: ['provider', 'model', 'status'] as const,
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: 'amc_cp_decision_duration_seconds',
    help: 'Time from the first byte of a decision request to its answer',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly upstreamLatency = new Histogram({
    name: 'amc_cp_upstream_duration_seconds',
    help: 'Time the provider took to answer a decision',
    labelNames: ['provider', 'model'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly inFlight = new Gauge({
    name: 'amc_cp_decisions_in_flight',
    help: 'Decisions being answered right now',
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'amc_cp_rate_limited_total',
    help: 'Decisions refused because the token used up its rate',
    registers: [this.registry],
  });
  readonly quotaRefusals = new Counter({
    name: 'amc_cp_quota_refusals_total',
    help: 'Decisions refused because the token used up a quota',
    labelNames: ['quota'] as const,
    registers: [this.registry],
  });
  readonly authFailures = new Counter({
    name: 'amc_cp_auth_failures_total',
    help: 'Requests refused at authentication, by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly storeErrors = new Counter({
    name: 'amc_cp_redis_errors_total',
    help: 'Redis connection and command errors',
    registers: [this.registry],
  });
  readonly usageTokens = new Counter({
    name: 'amc_cp_usage_tokens_total',
    help: 'Provider tokens used, by host token and direction (since this process started)',
    labelNames: ['token', 'direction'] as const,
    registers: [this.registry],
  });
  readonly usageCost = new Counter({
    name: 'amc_cp_usage_cost_usd_total',
    help: 'Provider cost in USD by host token (since this process started; models without a price count 0)',
    labelNames: ['token'] as const,
    registers: [this.registry],
  });

  constructor(inCluster: boolean) {
    if (inCluster) {
      // In a worker: constructing an aggregator installs prom-client's answer to the primary's requests, which
      // then reads this registry.
      new AggregatorRegistry();
      AggregatorRegistry.setRegistries([this.registry]);
    }
  }
}

/** Only a worker's primary can add up all workers: it is asked over IPC (see cluster.ts). */
export type ClusterMetricsReader = () => Promise<string>;

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1';
}

/**
 * Who may read /metrics: any loopback client (the socket's own address, never a forwarded one), others only
 * with the configured metrics token.
 */
export function mayReadMetrics(socketAddress: string | undefined, authorization: string | undefined, metricsToken: string | null): boolean {
  if (isLoopback(socketAddress)) return true;
  if (!metricsToken) return false;
  const presented = Buffer.from(/^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? '');
  const expected = Buffer.from(metricsToken);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}
