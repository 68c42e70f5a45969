// Probed as an attacker would: sockets that never finish their headers or trickle their body, floods of bad
// tokens, and a shutdown that such clients must not stretch past its grace.
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mayReadMetrics } from '../../src/control-plane/metrics';
import { createToken } from '../../src/control-plane/token-store';
import { sequencePolicy, startProviderFake, type ProviderFake } from '../fakes/index';
import { decisionRequest, startTestControlPlane, type TestControlPlane } from './support';
import { startReplica, until } from './replicas';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const tap = { kind: 'call', tool: 'tap', args: { element_id: 'e1' } } as const;

async function start(config: Parameters<typeof startTestControlPlane>[0]['config']): Promise<TestControlPlane> {
  const cp = await startTestControlPlane({ policy: sequencePolicy(tap), config });
  cleanups.push(() => cp.stop());
  return cp;
}

/** Opens a socket that sends the start of a request and then nothing (or a byte now and then). */
function openSlowSocket(url: string, first: string): { socket: net.Socket; closed: Promise<void> } {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname, () => socket.write(first));
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, closed };
}

describe('no starving the control plane', () => {
  it('Scenario: Slow-headers sockets are closed after the headers timeout while /healthz keeps answering', async () => {
    const cp = await start({ headersTimeoutMs: 1000, maxConnections: 300 });
    const attackers = Array.from({ length: 200 }, () => openSlowSocket(cp.service.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: '));
    cleanups.push(async () => attackers.forEach((a) => a.socket.destroy()));
    let closedCount = 0;
    for (const attacker of attackers) void attacker.closed.then(() => (closedCount += 1));
    // While they hold their sockets, health checks still get through.
    const health = await fetch(`${cp.service.url}/healthz`);
    expect(health.status).toBe(200);
    await until(() => closedCount === attackers.length, 'the server to close every slow-headers socket', 15_000);
    expect((await fetch(`${cp.service.url}/healthz`)).status).toBe(200);
  });

  it('Scenario: Connections beyond maxConnections are refused at once', async () => {
    const cp = await start({ maxConnections: 20, headersTimeoutMs: 60_000 });
    const held = Array.from({ length: 30 }, () => openSlowSocket(cp.service.url, 'GET /healthz HTTP/1.1\r\n'));
    cleanups.push(async () => held.forEach((a) => a.socket.destroy()));
    let closedCount = 0;
    for (const socket of held) void socket.closed.then(() => (closedCount += 1));
    await until(() => closedCount >= 10, 'the connections over the limit to be closed');
    expect(closedCount).toBeLessThan(30);
    held.forEach((a) => a.socket.destroy());
    await until(async () => (await fetch(`${cp.service.url}/healthz`).catch(() => null))?.status === 200, '/healthz once the sockets are gone');
  });

  it('Scenario: Repeated failed authentications from one address are refused and sampled in the log', async () => {
    const cp = await start({ authFailuresPerMinute: 10 });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await cp.post(decisionRequest(), { token: `amc_${'0'.repeat(16)}_${'A'.repeat(43)}` })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(new Set(statuses.slice(10))).toEqual(new Set([429]));
    const blocked = await cp.post(decisionRequest(), { token: 'amc_bad' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await blocked.json()) as { error: { code: string } }).error.code).toBe('too_many_auth_failures');
    // 41 refusals, a handful of log lines: the first five, and the one that blocks the address (with a warning).
    const logged = cp.logs.filter((line) => line.msg === 'request' || String(line.msg).includes('failed authentications'));
    expect(logged.length).toBeLessThanOrEqual(7);
    expect(logged.some((line) => String(line.msg).includes('failed authentications'))).toBe(true);
    const metrics = await (await fetch(`${cp.service.url}/metrics`)).text();
    expect(metrics).toMatch(/amc_cp_auth_failures_total\{reason="unknown"\} 10/);
    expect(metrics).toMatch(/amc_cp_auth_failures_total\{reason="address_blocked"\} 31/);
  });

  it("Scenario: A valid token is served from an address blocked for others' bad tokens", async () => {
    const cp = await start({ authFailuresPerMinute: 10 });
    for (let i = 0; i < 20; i++) await cp.post(decisionRequest(), { token: `amc_${'0'.repeat(16)}_${'A'.repeat(43)}` });
    expect((await cp.post(decisionRequest(), { token: 'amc_bad' })).status).toBe(429);
    // Another host behind the same address, with its own valid token.
    const valid = await cp.post(decisionRequest());
    expect(valid.status).toBe(200);
  });

  it("Scenario: Wrong secrets for one token id block that id's failures, never its valid secret", async () => {
    // Each guess from its own address (through a trusted proxy): only the token id's count can block them.
    const cp = await start({ authFailuresPerMinute: 10, trustProxy: true });
    const guessed = `amc_${cp.tokenId}_${'B'.repeat(43)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await cp.post(decisionRequest(), { token: guessed, headers: { 'x-forwarded-for': `10.0.0.${i}` } })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    expect((await cp.post(decisionRequest())).status).toBe(200);
  });

  it('Scenario: Shutdown keeps its grace against a slow body and slow headers', async () => {
    let fake: ProviderFake | null = await startProviderFake('anthropic', sequencePolicy(tap));
    cleanups.push(async () => fake?.close());
    const dir = await mkdtemp(path.join(tmpdir(), 'amc-cp-grace-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const tokensFile = path.join(dir, 'tokens.json');
    const { token } = await createToken(tokensFile, { name: 'slow-host' });
    for (const workers of [1, 2]) {
      const replica = await startReplica({ fake, workers, env: { AMC_CP_SHUTDOWN_GRACE_SECONDS: '1', AMC_CP_TOKENS_FILE: tokensFile } });
      cleanups.push(() => replica.stop());
      const exited = new Promise<number>((resolve) => replica.child.once('exit', () => resolve(Date.now())));
      // A body declared as 10,000 bytes, sent one byte every 200 ms: it would take over half an hour.
      const trickler = openSlowSocket(
        replica.url,
        `POST /v1/planner/decision HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{`,
      );
      const drip = setInterval(() => trickler.socket.write(' '), 200);
      cleanups.push(async () => clearInterval(drip));
      const slowHeaders = openSlowSocket(replica.url, 'GET /healthz HTTP/1.1\r\n');
      let healthz = 0;
      for (let i = 0; i < 3; i++) healthz += (await fetch(`${replica.url}/healthz`)).status === 200 ? 1 : 0;
      expect(healthz).toBe(3);
      const signalled = Date.now();
      replica.child.kill('SIGTERM');
      const exitedAt = await exited;
      clearInterval(drip);
      await trickler.closed;
      await slowHeaders.closed;
      // The service ended those sockets itself and exited (within grace + 1 s; the bound here leaves room for a
      // loaded machine, and is still far below the half hour the trickling client asked for).
      expect(exitedAt - signalled, `workers=${workers}`).toBeLessThan(10_000);
      expect(replica.output()).toContain('grace period over');
    }
    await fake.close();
    fake = null;
  }, 120_000);

  it('Scenario: Metrics are served to loopback, and elsewhere only with the metrics token', async () => {
    const cp = await start({});
    expect((await cp.post(decisionRequest())).status).toBe(200);
    const text = await (await fetch(`${cp.service.url}/metrics`)).text();
    expect(text).toMatch(/amc_cp_decisions_total\{provider="anthropic",model="fake-anthropic-model",status="200"\} 1/);
    expect(text).toMatch(/amc_cp_upstream_duration_seconds_count\{provider="anthropic",model="fake-anthropic-model"\} 1/);
    expect(text).toMatch(/amc_cp_decision_duration_seconds_bucket\{le="\+Inf"\} 1/);
    expect(text).toMatch(/amc_cp_decisions_in_flight 0/);
    expect(text).toMatch(new RegExp(`amc_cp_usage_tokens_total\\{token="${cp.tokenId}",direction="input"\\} [1-9]`));
    expect(mayReadMetrics('127.0.0.1', undefined, null)).toBe(true);
    expect(mayReadMetrics('::ffff:127.0.0.1', undefined, null)).toBe(true);
    expect(mayReadMetrics('::1', undefined, null)).toBe(true);
    expect(mayReadMetrics('10.1.2.3', undefined, null)).toBe(false);
    expect(mayReadMetrics('10.1.2.3', 'Bearer metrics-secret-0123456', 'metrics-secret-0123456')).toBe(true);
    expect(mayReadMetrics('10.1.2.3', 'Bearer wrong', 'metrics-secret-0123456')).toBe(false);
  });
});
