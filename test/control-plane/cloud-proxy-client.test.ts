import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createCloudProxyClient, type DecisionRequest } from '@amc/provider-clients';
import { failureOf } from '../support/tool-call-failure';
import { sequencePolicy, type FakeReply } from '../fakes/index';
import { decisionRequest, startTestControlPlane, type TestControlPlane } from './support';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function controlPlane(options: Parameters<typeof startTestControlPlane>[0]): Promise<TestControlPlane> {
  const cp = await startTestControlPlane(options);
  cleanups.push(() => cp.stop());
  return cp;
}

/** A bare HTTP server for answers the real service never gives (garbage, proxies' HTML, silence). */
async function rawServer(
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<{ url: string; paths: string[]; headers: http.IncomingHttpHeaders[] }> {
  const paths: string[] = [];
  const headers: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    headers.push(req.headers);
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths, headers };
}

const tap: FakeReply = { kind: 'call', tool: 'tap', args: { element_id: 'e1' }, text: 'I tap it.', thinking: 'Settings is e1.' };

describe('cloud-proxy client', () => {
  it('Scenario: Cloud-proxy client returns the decision without text or thinking', async () => {
    const cp = await controlPlane({ provider: 'openai', policy: sequencePolicy(tap) });
    const fetchedUrls: string[] = [];
    const client = createCloudProxyClient({
      url: cp.service.url,
      token: cp.token,
      timeoutMs: 5000,
      fetch: (input, init) => {
        fetchedUrls.push(String(input));
        return fetch(input, init);
      },
    });
    expect(client.provider).toBe('cloud-proxy');
    const decision = await client.decide(decisionRequest(), {});
    expect(decision).toEqual({
      tool: 'tap',
      args: { element_id: 'e1' },
      rationale: null,
      thinking: null,
      usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number) },
    });
    // The provider did produce text and reasoning; the proxy surface dropped both.
    expect(cp.fake.requests).toHaveLength(1);
    expect(fetchedUrls).toEqual([`${cp.service.url}/v1/planner/decision`]);
  });

  it('finds the decision endpoint from a base URL with or without a path prefix', async () => {
    const body = JSON.stringify({ tool_name: 'tap', arguments: {}, usage: { inputTokens: 1, outputTokens: 1 } });
    const server = await rawServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    for (const url of [server.url, `${server.url}/`, `${server.url}/amc/`, `${server.url}/v1/planner/decision`]) {
      await createCloudProxyClient({ url, token: 'amc_t', timeoutMs: 2000 }).decide(decisionRequest(), {});
    }
    expect(server.paths).toEqual(['/v1/planner/decision', '/v1/planner/decision', '/amc/v1/planner/decision', '/v1/planner/decision']);
    expect(server.headers[0]!.authorization).toBe('Bearer amc_t');
    expect(server.headers[0]!['content-type']).toBe('application/json');
  });

  describe('Scenario: Every control-plane refusal becomes ToolCallUnavailable with the reason', () => {
    it('maps a wrong token (401) and a revoked one (403) to auth failures', async () => {
      const cp = await controlPlane({ policy: sequencePolicy(tap) });
      const wrongToken = `${cp.token.slice(0, -4)}AAAA`;
      const wrong = await failureOf(
        createCloudProxyClient({ url: cp.service.url, token: wrongToken, timeoutMs: 5000 }).decide(decisionRequest(), {}),
      );
      expect(wrong.kind).toBe('auth');
      expect(wrong.message).toBe('control plane rejected the token; check the Control-plane token in Settings (or CONTROL_PLANE_TOKEN where that is set) (401): invalid bearer token');
      expect(wrong.message).not.toContain(wrongToken);
      const revoked = await failureOf(
        createCloudProxyClient({ url: cp.service.url, token: cp.revokedToken, timeoutMs: 5000 }).decide(decisionRequest(), {}),
      );
      expect(revoked.kind).toBe('auth');
      expect(revoked.message).toMatch(/\(403\): token [0-9a-f]{16} has been revoked/);
    });

    it('maps 400, 413 and 429 with the service reason', async () => {
      const cp = await controlPlane({
        policy: sequencePolicy(tap),
        config: { bodyLimitBytes: 2048, rateLimit: { requestsPerMinute: 1, burst: 2 } },
      });
      const client = createCloudProxyClient({ url: cp.service.url, token: cp.token, timeoutMs: 5000 });
      const tooBig = await failureOf(client.decide(decisionRequest({ system: 'x'.repeat(5000) }), {}));
      expect(tooBig.kind).toBe('rejected');
      expect(tooBig.message).toContain('(413): request body exceeds the limit of 2048 bytes');
      const invalid = await failureOf(client.decide({ ...decisionRequest(), tools: [] } as DecisionRequest, {}));
      expect(invalid.kind).toBe('rejected');
      expect(invalid.message).toMatch(/^control plane refused the request \(400\): invalid decision request: tools/);
      const limited = await failureOf(client.decide(decisionRequest(), {}));
      expect(limited.kind).toBe('rate-limited');
      expect(limited.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(limited.message).toMatch(/^control plane rate limit reached, retry after \d+ s \(429\): rate limit reached/);
    });

    it('maps provider failures (502), provider timeouts (504) and an unready service (503)', async () => {
      const failing = await controlPlane({ policy: sequencePolicy({ kind: 'http-error', status: 500, message: 'overloaded' }) });
      const providerError = await failureOf(
        createCloudProxyClient({ url: failing.service.url, token: failing.token, timeoutMs: 5000 }).decide(decisionRequest(), {}),
      );
      expect(providerError.kind).toBe('server-error');
      expect(providerError.message).toMatch(/^the provider behind the control plane failed \(502\): anthropic .*HTTP 500.*overloaded/);

      const slow = await controlPlane({ policy: sequencePolicy({ kind: 'hang' }), config: { upstreamTimeoutMs: 200 } });
      const timedOut = await failureOf(
        createCloudProxyClient({ url: slow.service.url, token: slow.token, timeoutMs: 5000 }).decide(decisionRequest(), {}),
      );
      expect(timedOut.kind).toBe('timeout');
      expect(timedOut.message).toContain('(504)');

      const unready = await controlPlane({ policy: sequencePolicy(tap), apiKey: null });
      const notConfigured = await failureOf(
        createCloudProxyClient({ url: unready.service.url, token: unready.token, timeoutMs: 5000 }).decide(decisionRequest(), {}),
      );
      expect(notConfigured.kind).toBe('server-error');
      expect(notConfigured.message).toMatch(/control plane unavailable \(503\): no API key for anthropic/);
    });

    it('maps malformed replies, foreign error pages, unknown tools and an unreachable service', async () => {
      const cases: Array<[string, (res: http.ServerResponse) => void, RegExp, string]> = [
        ['not JSON', (res) => res.writeHead(200).end('<html>hello</html>'), /malformed reply \(not JSON\)/, 'malformed-reply'],
        ['wrong shape', (res) => res.writeHead(200).end('{"tool":"tap"}'), /malformed reply \(tool_name: /, 'malformed-reply'],
        ['proxy page', (res) => res.writeHead(502).end('<h1>Bad Gateway</h1>'), /\(502\): an HTML page titled "Bad Gateway"/, 'server-error'],
        ['teapot', (res) => res.writeHead(418).end(''), /^control plane refused the request \(418\): no reason given/, 'rejected'],
        [
          'unknown tool',
          (res) => res.writeHead(200).end('{"tool_name":"format_disk","arguments":{},"usage":{"inputTokens":1,"outputTokens":1}}'),
          /unknown tool "format_disk"/,
          'unknown-tool',
        ],
      ];
      for (const [name, answer, message, kind] of cases) {
        const server = await rawServer((_req, res) => answer(res));
        const error = await failureOf(
          createCloudProxyClient({ url: server.url, token: 'amc_secret_token', timeoutMs: 2000 }).decide(decisionRequest(), {}),
        );
        expect(error.message, name).toMatch(message);
        expect(error.kind, name).toBe(kind);
        expect(error.message).not.toContain('amc_secret_token');
      }

      const closed = await rawServer((_req, res) => res.end());
      await cleanups.pop()!();
      const unreachable = await failureOf(
        createCloudProxyClient({ url: closed.url, token: 'amc_secret_token', timeoutMs: 2000 }).decide(decisionRequest(), {}),
      );
      expect(unreachable.kind).toBe('unreachable');
      expect(unreachable.message).toContain(`cannot reach the control plane at ${closed.url}`);
      expect(unreachable.message).toContain('ECONNREFUSED');

      const invalidUrl = await failureOf(createCloudProxyClient({ url: 'cp.example.com', token: 't', timeoutMs: 100 }).decide(decisionRequest(), {}));
      expect(invalidUrl.message).toContain('CONTROL_PLANE_URL is not a valid URL');
    });
  });

  it('Scenario: Cloud-proxy call stops on abort and on timeout', async () => {
    const silent = await rawServer(() => undefined);
    const controller = new AbortController();
    const client = createCloudProxyClient({ url: silent.url, token: 'amc_secret_token', timeoutMs: 10_000 });
    const pending = client.decide(decisionRequest(), { signal: controller.signal });
    for (let i = 0; i < 200 && silent.paths.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    const cancelled = await failureOf(pending);
    expect(cancelled.kind).toBe('cancelled');
    expect(cancelled.message).toBe('control plane call cancelled before it answered');

    const alreadyAborted = await failureOf(client.decide(decisionRequest(), { signal: AbortSignal.abort() }));
    expect(alreadyAborted.kind).toBe('cancelled');

    const impatient = createCloudProxyClient({ url: silent.url, token: 'amc_secret_token', timeoutMs: 150 });
    const timedOut = await failureOf(impatient.decide(decisionRequest(), {}));
    expect(timedOut.kind).toBe('timeout');
    expect(timedOut.message).toContain('did not answer within 0.2 s');
  });
});

describe('Scenario: Cloud-proxy client retries once on 503 or a reset connection, never on 4xx', () => {
  const answered = '{"tool_name":"tap","arguments":{"element_id":"e1"},"usage":{"inputTokens":3,"outputTokens":2}}';

  /** A server that answers each request with the next behaviour of the list (the last one repeats). */
  async function scripted(behaviours: Array<(req: http.IncomingMessage, res: http.ServerResponse) => void>) {
    let count = 0;
    return rawServer((req, res) => behaviours[Math.min(count++, behaviours.length - 1)]!(req, res));
  }
  const status = (code: number) => (_req: http.IncomingMessage, res: http.ServerResponse) =>
    res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'x', message: `answer ${code}` } }));
  const ok = (_req: http.IncomingMessage, res: http.ServerResponse) => res.writeHead(200).end(answered);
  const reset = (req: http.IncomingMessage) => req.socket.destroy();

  it('a 503 from a replica that is shutting down, then an answer: the decision succeeds', async () => {
    const server = await scripted([status(503), ok]);
    const decision = await createCloudProxyClient({ url: server.url, token: 't', timeoutMs: 5000 }).decide(decisionRequest(), {});
    expect(decision.tool).toBe('tap');
    expect(server.paths).toHaveLength(2);
  });

  it('a connection reset before the answer, then an answer: the decision succeeds', async () => {
    const server = await scripted([reset, ok]);
    const decision = await createCloudProxyClient({ url: server.url, token: 't', timeoutMs: 5000 }).decide(decisionRequest(), {});
    expect(decision.args).toEqual({ element_id: 'e1' });
    expect(server.paths).toHaveLength(2);
  });

  it('only once: two 503s fail with the second reason', async () => {
    const server = await scripted([status(503)]);
    const error = await failureOf(createCloudProxyClient({ url: server.url, token: 't', timeoutMs: 5000 }).decide(decisionRequest(), {}));
    expect(error.message).toMatch(/control plane unavailable \(503\): answer 503/);
    expect(server.paths).toHaveLength(2);
  });

  it.each([400, 401, 403, 413, 429, 502])('no retry on %i', async (code) => {
    const server = await scripted([status(code), ok]);
    await failureOf(createCloudProxyClient({ url: server.url, token: 't', timeoutMs: 5000 }).decide(decisionRequest(), {}));
    expect(server.paths).toHaveLength(1);
  });
});
