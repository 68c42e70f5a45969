// Several control-plane replicas (separate processes, as deployed behind a load balancer) sharing one real
// redis-server: one revocation, one rate limit and one set of quotas for all of them, and an outage of Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../../src/control-plane/redis-store';
import type { NewTokenOptions } from '../../src/control-plane/token-store';
import { runAmc } from '../support/cli';
import { startTestRedis, type TestRedis } from '../support/redis-server';
import { sequencePolicy, startProviderFake, type ProviderFake } from '../fakes/index';
import { startReplica, until, type Replica } from './replicas';

let redis: TestRedis;
let fake: ProviderFake;
let replicas: Replica[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
  fake = await startProviderFake('anthropic', sequencePolicy({ kind: 'call', tool: 'tap', args: { element_id: 'e1' } }));
  // Three replicas; the middle one runs two workers of its own, so a cluster shares Redis too.
  replicas = await Promise.all([1, 2, 1].map((workers) => startReplica({ fake, redisUrl: redis.url, workers })));
}, 60_000);

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await fake?.close();
  await redis?.dispose();
});

async function createToken(options: NewTokenOptions): Promise<{ token: string; id: string }> {
  const store = new RedisStore(redis.url);
  try {
    const { token, record } = await store.create(options);
    return { token, id: record.id };
  } finally {
    await store.close();
  }
}

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

describe('control-plane replicas sharing Redis', () => {
  it('Scenario: A token revoked through the shared store is refused by every replica at once', async () => {
    const { token } = await createToken({ name: 'to-revoke' });
    for (const replica of replicas) expect((await replica.post(token)).status).toBe(200);
    const revoked = await runAmc(['control-plane', 'token', 'revoke', 'to-revoke', '--redis', redis.url]);
    expect(revoked.code, revoked.stderr).toBe(0);
    // Every replica reads the token from Redis on each decision: the very next request is refused, no wait.
    for (const replica of replicas) {
      const response = await replica.post(token);
      expect(response.status).toBe(403);
      expect((await errorOf(response)).code).toBe('token_disabled');
    }
  });

  it('Scenario: One rate limit holds across replicas', async () => {
    const rate = { requestsPerMinute: 60, burst: 60 };
    const { token } = await createToken({ name: 'rate', rateLimit: rate });
    const started = Date.now();
    // 3x the burst, spread over the replicas, 10 at a time on each.
    const statuses: number[] = [];
    await Promise.all(
      replicas.map(async (replica) => {
        await Promise.all(
          Array.from({ length: 10 }, async () => {
            for (let i = 0; i < 6; i++) statuses.push((await replica.post(token)).status);
          }),
        );
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    const allowed = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    // One bucket: the burst plus what refilled while the test ran (each replica alone would allow 60).
    const expected = rate.burst + (rate.requestsPerMinute * seconds) / 60;
    expect(allowed).toBeGreaterThanOrEqual(Math.floor(rate.burst * 0.95));
    expect(allowed).toBeLessThanOrEqual(Math.ceil(expected * 1.05));
  });

  it('Scenario: Quotas hold across replicas and usage lists the same numbers', async () => {
    const probe = await createToken({ name: 'probe' });
    const first = (await (await replicas[0]!.post(probe.token)).json()) as { usage: { inputTokens: number; outputTokens: number } };
    const perDecision = first.usage.inputTokens + first.usage.outputTokens;
    expect(perDecision).toBeGreaterThan(0);
    const { token, id } = await createToken({ name: 'quota-host', quotas: { daily: { tokens: perDecision * 5 } } });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await replicas[i % replicas.length]!.post(token)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const refused = await replicas[1]!.post(token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const error = await errorOf(refused);
    expect(error.code).toBe('quota_exceeded');
    expect(error.message).toContain(`daily tokens quota reached for token ${id}`);

    const usage = await runAmc(['control-plane', 'usage', '--token', 'quota-host', '--redis', redis.url]);
    expect(usage.code, usage.stderr).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const [header, ...rows] = usage.stdout.trim().split('\n');
    expect(header).toMatch(/^TOKEN\s+NAME\s+PERIOD\s+DECISIONS\s+INPUT TOKENS\s+OUTPUT TOKENS\s+COST USD$/);
    const dayRow = rows.find((row) => row.includes(today))!.split(/\s+/);
    expect(dayRow.slice(0, 4)).toEqual([id, 'quota-host', today, '5']);
    expect(Number(dayRow[4]) + Number(dayRow[5])).toBe(perDecision * 5);
    expect(rows.some((row) => row.includes(today.slice(0, 7)) && !row.includes(today))).toBe(true);

    // The metrics of the two-worker replica add up its workers: refusals counted by quota.
    const metrics = await (await fetch(`${replicas[1]!.url}/metrics`)).text();
    expect(metrics).toMatch(/amc_cp_quota_refusals_total\{quota="daily tokens"\} [1-9]/);
  });

  it('Scenario: Usage held back in batches reaches Redis when a replica stops', async () => {
    const { token } = await createToken({ name: 'batched-host', rateLimit: { requestsPerMinute: 100_000, burst: 1_000 } });
    const replica = await startReplica({ fake, redisUrl: redis.url, workers: 1 });
    for (let i = 0; i < 3; i++) expect((await replica.post(token)).status).toBe(200);
    // Stopped at once: the usage of these decisions is still in the replica's 100 ms batch.
    await replica.stop();
    const usage = await runAmc(['control-plane', 'usage', '--token', 'batched-host', '--redis', redis.url]);
    expect(usage.code, usage.stderr).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const dayRow = usage.stdout.trim().split('\n').find((row) => row.includes(today))!.split(/\s+/);
    expect(dayRow.slice(1, 4)).toEqual(['batched-host', today, '3']);
  });

  it('Scenario: A worker that dies is replaced while its replica keeps serving', async () => {
    const clustered = replicas[1]!;
    const workerPids = () => [...clustered.output().matchAll(/"msg":"listening","worker":\d+,"url":"[^"]+","pid":(\d+)/g)].map((m) => Number(m[1]));
    expect(workerPids()).toHaveLength(2);
    const { token } = await createToken({ name: 'worker-crash' });
    process.kill(workerPids()[0]!, 'SIGKILL');
    await until(() => workerPids().length === 3, 'a new worker to listen', 30_000);
    expect(clustered.output()).toContain('worker exited; starting another');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await clustered.post(token)).status);
    expect(statuses).toEqual(Array(6).fill(200));
  }, 60_000);

  it('Scenario: Redis stopped and restarted mid-load', async () => {
    // The load runs as fast as the machine allows: a limit high enough that only the outage could refuse it.
    const known = await createToken({ name: 'known', rateLimit: { requestsPerMinute: 1_000_000, burst: 1_000_000 } });
    const neverUsed = await createToken({ name: 'never-used' });
    // The single-process replicas: "verified recently" is per process, and the load's kept-alive connections
    // would reach only one worker of the two-worker replica.
    const [a, , b] = replicas as [Replica, Replica, Replica];
    for (const replica of [a, b]) expect((await replica.post(known.token)).status).toBe(200);

    // Load: the known token keeps deciding through both replicas the whole time.
    let loading = true;
    const loadStatuses: number[] = [];
    const load = (async () => {
      for (let i = 0; loading; i++) loadStatuses.push((await [a, b][i % 2]!.post(known.token)).status);
    })();
    await until(() => loadStatuses.length >= 10, 'some load before the outage');

    await redis.stop({ saveFirst: true });
    const atOutage = loadStatuses.length;
    await until(async () => (await fetch(`${a.url}/readyz`)).status === 503, 'readiness to report the outage');
    const notReady = await fetch(`${b.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect((await errorOf(notReady)).message).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+ is unavailable/);
    // Fail closed for a token this replica has not verified recently.
    const unknown = await a.post(neverUsed.token);
    expect(unknown.status).toBe(503);
    expect((await errorOf(unknown)).code).toBe('store_unavailable');
    await until(() => loadStatuses.length >= atOutage + 10, 'load served during the outage');

    await redis.start();
    await until(async () => (await fetch(`${a.url}/readyz`)).status === 200 && (await fetch(`${b.url}/readyz`)).status === 200, 'recovery');
    expect((await a.post(neverUsed.token)).status).toBe(200);
    loading = false;
    await load;
    expect(loadStatuses.filter((s) => s !== 200)).toEqual([]);
    expect(await (await fetch(`${a.url}/metrics`)).text()).toMatch(/amc_cp_redis_errors_total [1-9]/);
  }, 60_000);
});
