// `amc mcp --http` memory when agents go away without DELETE: 1,000 sessions opened (initialize, initialized,
// tools/list) and abandoned, then left to their idle timeout. The pass/fail version (a session that is idle ends, its
// phone freed) is test/mcp/mcp-http-sessions.test.ts; here the memory it frees is measured.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createApp } from '../../src/app/create-app';
import { startMcpHttpHost } from '../../src/mcp/http-host';
import { isolatedEnv } from '../../test/app/app-fixture';
import type { BenchCase, BenchRow } from '../types';

const SESSIONS = 1_000;
/** Longer than opening them all takes, so none has expired when the abandoned figure is read. */
const IDLE_TIMEOUT_MS = 90_000;
const PARALLEL = 10;
const MiB = 1024 * 1024;

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
function memoryAfterGc(): { heap: number; rss: number } {
  collectGarbage();
  collectGarbage();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, rss: usage.rss };
}

/** One agent that says hello, lists the tools and is never heard from again (no DELETE). */
async function abandonSession(url: string, token: string): Promise<string> {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` };
  const post = async (body: object, sessionId?: string) => {
    const response = await fetch(url, { method: 'POST', headers: { ...headers, ...(sessionId && { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }) }, body: JSON.stringify(body) });
    await response.text();
    return response;
  };
  const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
  const sessionId = init.headers.get('mcp-session-id');
  if (!sessionId) throw new Error(`initialize answered ${init.status} without a session`);
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId);
  await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, sessionId);
  return sessionId;
}

/** Whether the server still knows the session (a request on an ended one gets 404). */
async function alive(url: string, token: string, sessionId: string): Promise<boolean> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await response.text();
  return response.status !== 404;
}

export default {
  name: 'mcp-sessions',
  async run(): Promise<BenchRow[]> {
    const home = await mkdtemp(path.join(os.tmpdir(), 'amc-bench-mcp-'));
    const app = await createApp({ home, env: isolatedEnv({ HOME: home, ANDROID_ADB_SERVER_PORT: '1' }), heartbeatMs: 60_000 });
    // A short-lived host first, so the code paths are loaded before the baseline.
    const warmUp = await startMcpHttpHost(app, { idleTimeoutMs: 100 });
    for (let i = 0; i < 20; i += 1) await abandonSession(warmUp.url, warmUp.token);
    await warmUp.close();
    const host = await startMcpHttpHost(app, { idleTimeoutMs: IDLE_TIMEOUT_MS });
    try {
      const baseline = memoryAfterGc();
      const started = performance.now();
      const ids: string[] = [];
      for (let i = 0; i < SESSIONS; i += PARALLEL) ids.push(...(await Promise.all(Array.from({ length: PARALLEL }, () => abandonSession(host.url, host.token)))));
      const openMs = performance.now() - started;
      const abandoned = memoryAfterGc();
      const firstAlive = await alive(host.url, host.token, ids[0]!);
      // The last request to each session was at most the open time ago; after the timeout every one has ended.
      await new Promise((resolve) => setTimeout(resolve, IDLE_TIMEOUT_MS + 1_000));
      const expired = memoryAfterGc();
      const lastAlive = await alive(host.url, host.token, ids.at(-1)!);
      const row = (metric: string, value: number, unit: string, goal?: string): BenchRow => ({ case: 'mcp-sessions', metric, value, unit, ...(goal && { goal }) });
      return [
        row(`${SESSIONS} abandoned sessions: time to open (${PARALLEL} at a time)`, openMs / SESSIONS, 'ms/session'),
        row('first session still alive at the abandoned reading', firstAlive ? 1 : 0, '', '1'),
        row(`${SESSIONS} abandoned sessions: heap delta`, (abandoned.heap - baseline.heap) / MiB, 'MiB'),
        row(`${SESSIONS} abandoned sessions: RSS delta`, (abandoned.rss - baseline.rss) / MiB, 'MiB'),
        row(`after their ${IDLE_TIMEOUT_MS / 1000} s idle timeout: heap delta`, (expired.heap - baseline.heap) / MiB, 'MiB', 'a few % of the abandoned figure (sessions freed)'),
        row(`after their ${IDLE_TIMEOUT_MS / 1000} s idle timeout: RSS delta`, (expired.rss - baseline.rss) / MiB, 'MiB', 'well below the abandoned figure'),
        row('last session still alive after the timeout', lastAlive ? 1 : 0, '', '0'),
      ];
    } finally {
      await host.close();
      await app.close();
      await rm(home, { recursive: true, force: true });
    }
  },
} satisfies BenchCase;
