import { afterEach, describe, expect, it } from 'vitest';
import type { LimitsStore } from '../../src/control-plane/limits';
import { MemoryLimits } from '../../src/control-plane/memory-limits';
import { createToken, revokeToken } from '../../src/control-plane/token-store';
import { finish, sequencePolicy, startProviderFake, type FakePolicy, type FakeReply, type ProviderFake } from '../fakes/index';
import { SCREENSHOT_BASE64, decisionRequest, deferred, startTestControlPlane, type TestControlPlane } from './support';

const tapSettings: FakeReply = { kind: 'call', tool: 'tap', args: { element_id: 'e1' }, text: 'Tapping Settings now.' };

let running: TestControlPlane[] = [];
const extraFakes: ProviderFake[] = [];
async function start(options: Parameters<typeof startTestControlPlane>[0]): Promise<TestControlPlane> {
  const cp = await startTestControlPlane(options);
  running.push(cp);
  return cp;
}

afterEach(async () => {
  await Promise.all(running.map((cp) => cp.stop()));
  await Promise.all(extraFakes.splice(0).map((f) => f.close()));
  running = [];
});

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(Object.keys(body)).toEqual(['error']);
  return body.error;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

describe('planner-decision endpoint', () => {
  it.each(['anthropic', 'openai'] as const)('Scenario: Authorised decision returns only the tool call (%s)', async (provider) => {
    const cp = await start({ provider, policy: sequencePolicy(tapSettings) });
    const response = await cp.post(decisionRequest());
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/.+/);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['arguments', 'tool_name', 'usage']);
    expect(body.tool_name).toBe('tap');
    expect(body.arguments).toEqual({ element_id: 'e1' });
    expect(body.usage).toEqual({ inputTokens: expect.any(Number), outputTokens: expect.any(Number) });
    expect((body.usage as { inputTokens: number }).inputTokens).toBeGreaterThan(0);
    expect(JSON.stringify(body)).not.toContain('Tapping Settings now.');
    // The provider got the service's model and the host's image.
    expect(cp.fake.requests).toHaveLength(1);
    expect(JSON.stringify(cp.fake.bodies()[0])).toContain(`fake-${provider}-model`);
    expect(JSON.stringify(cp.fake.bodies()[0])).toContain(SCREENSHOT_BASE64);
    // Answered decisions stop counting as in flight (shutdown would otherwise wait for them).
    await until(() => cp.service.inFlight === 0, 'the in-flight count to drop to 0');
  });

  it('Scenario: Token override picks provider and model', async () => {
    const openai = await startProviderFake('openai', sequencePolicy(finish(true, 'done')));
    extraFakes.push(openai);
    const cp = await start({
      provider: 'anthropic',
      policy: sequencePolicy(tapSettings),
      config: { baseUrls: { openai: openai.baseURL } },
      extraKeys: { openai: openai.apiKey },
    });
    const { token } = await createToken(cp.config.tokensFile, { name: 'gpt-host', provider: 'openai', model: 'gpt-special' });
    const response = await cp.post(decisionRequest({ modelHint: { provider: 'anthropic', model: 'ignored-hint' } }), { token });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { tool_name: string }).tool_name).toBe('finish_task');
    expect(cp.fake.requests).toHaveLength(0);
    expect(openai.bodies()).toHaveLength(1);
    expect((openai.bodies()[0] as { model: string }).model).toBe('gpt-special');
  });
});

describe('health and readiness', () => {
  it('Scenario: Liveness answers without authentication', async () => {
    const cp = await start({ policy: sequencePolicy(tapSettings) });
    const health = await fetch(`${cp.service.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${cp.service.url}/readyz`);
    expect(ready.status).toBe(200);
  });

  it('Scenario: Readiness reports a missing provider key', async () => {
    const cp = await start({ provider: 'openai', policy: sequencePolicy(tapSettings), apiKey: null });
    const ready = await fetch(`${cp.service.url}/readyz`);
    expect(ready.status).toBe(503);
    const error = await errorOf(ready);
    expect(error.code).toBe('provider_not_configured');
    expect(error.message).toContain('OPENAI_API_KEY');
    const decision = await cp.post(decisionRequest());
    expect(decision.status).toBe(503);
    expect((await errorOf(decision)).code).toBe('provider_not_configured');
    expect(cp.fake.requests).toHaveLength(0);
  });

  it('answers unknown routes with a JSON 404', async () => {
    const cp = await start({ policy: sequencePolicy(tapSettings) });
    const response = await fetch(`${cp.service.url}/v1/nothing-here`);
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('not_found');
  });
});

describe('authentication', () => {
  it('Scenario: Decision without a token is unauthorised', async () => {
    const cp = await start({ policy: sequencePolicy(tapSettings) });
    const response = await cp.post(decisionRequest(), { token: null });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Bearer');
    expect((await errorOf(response)).code).toBe('unauthorized');
    expect(cp.fake.requests).toHaveLength(0);
  });

  it('Scenario: Decision with a wrong token is unauthorised', async () => {
    const cp = await start({ policy: sequencePolicy(tapSettings) });
    const wrongSecret = `${cp.token.slice(0, -4)}AAAA`;
    const unknownId = `amc_0123456789abcdef_${cp.token.split('_').slice(2).join('_')}`;
    for (const token of [wrongSecret, unknownId, 'not-a-token', `${cp.token}x`]) {
      const response = await cp.post(decisionRequest(), { token });
      expect(response.status, token).toBe(401);
      const error = await errorOf(response);
      expect(error.code).toBe('unauthorized');
      expect(error.message).not.toContain(token);
    }
    expect(cp.fake.requests).toHaveLength(0);
  });

  it('Scenario: Decision with a revoked token is forbidden', async () => {
    const cp = await start({ policy: sequencePolicy(tapSettings) });
    const response = await cp.post(decisionRequest(), { token: cp.revokedToken });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).code).toBe('token_disabled');
    expect(cp.fake.requests).toHaveLength(0);
  });

  it('Scenario: Revocation reaches a running service', async () => {
    const cp = await start({ policy: sequencePolicy(tapSettings) });
    expect((await cp.post(decisionRequest())).status).toBe(200);
    await revokeToken(cp.config.tokensFile, cp.tokenId);
    const response = await cp.post(decisionRequest());
    expect(response.status).toBe(403);
    expect((await errorOf(response)).message).toContain(cp.tokenId);
  });
});

describe('validation and limits', () => {
  it('Scenario: The next decision is checked against the usage of the one before (the answer waits for its usage)', async () => {
    // A store whose usage writes take a while, as a remote one's do.
    const memory = await MemoryLimits.open(null);
    const slowWrites: LimitsStore = {
      admit: (tokenId, policy, now) => memory.admit(tokenId, policy, now),
      record: async (tokenId, delta, now) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await memory.record(tokenId, delta, now);
      },
      usage: (tokenIds, now) => memory.usage(tokenIds, now),
      close: () => memory.close(),
    };
    const cp = await start({ policy: sequencePolicy(tapSettings, tapSettings), config: { quotas: { daily: { tokens: 1 } } }, limits: slowWrites });
    expect((await cp.post(decisionRequest())).status).toBe(200);
    const refused = await cp.post(decisionRequest());
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).code).toBe('quota_exceeded');
  });

  it('Scenario: Invalid decision request is rejected with its issues', async () => {
    const cp = await start({ policy: sequencePolicy(tapSettings) });
    const notJson = await cp.post(undefined, { rawBody: '{"system": "x", ' });
    expect(notJson.status).toBe(400);
    expect((await errorOf(notJson)).code).toBe('invalid_json');

    const noTools = await cp.post({ ...decisionRequest(), tools: [] });
    expect(noTools.status).toBe(400);
    const noToolsError = await errorOf(noTools);
    expect(noToolsError.code).toBe('invalid_request');
    expect(noToolsError.message).toContain('tools');

    const request = decisionRequest();
    const badImage = {
      ...request,
      messages: [{ role: 'user', content: [{ type: 'image', mediaType: 'image/bmp', data: 'AAAA' }] }],
    };
    const badImageError = await errorOf(await cp.post(badImage));
    expect(badImageError.message).toContain('messages.0.content.0.mediaType');
    expect(cp.fake.requests).toHaveLength(0);
  });

  it('Scenario: Oversized body is rejected with 413', async () => {
    const cp = await start({ policy: sequencePolicy(tapSettings), config: { bodyLimitBytes: 4096 } });
    const big = decisionRequest({ system: 'x'.repeat(10_000) });
    const declared = await cp.post(big);
    expect(declared.status).toBe(413);
    const error = await errorOf(declared);
    expect(error.code).toBe('payload_too_large');
    expect(error.message).toContain('4096');

    // Without a content-length (chunked upload) the limit is enforced while reading.
    const bytes = new TextEncoder().encode(JSON.stringify(big));
    const chunked = await fetch(`${cp.service.url}/v1/planner/decision`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${cp.token}` },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 1000) controller.enqueue(bytes.subarray(i, i + 1000));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(cp.fake.requests).toHaveLength(0);

    // A request under the limit still works.
    expect((await cp.post(decisionRequest())).status).toBe(200);
  });

  it('Scenario: Token over its rate limit gets 429 with retry-after', async () => {
    const cp = await start({
      policy: sequencePolicy(tapSettings),
      config: { rateLimit: { requestsPerMinute: 6, burst: 2 } },
    });
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 3; i++) {
      const response = await cp.post(decisionRequest());
      statuses.push(response.status);
      if (response.status === 429) limited = response;
      else await response.body?.cancel();
    }
    expect(statuses).toEqual([200, 200, 429]);
    const retryAfter = Number(limited!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);
    expect((await errorOf(limited!)).code).toBe('rate_limited');
    expect(cp.fake.requests).toHaveLength(2);

    const { token: other } = await createToken(cp.config.tokensFile, { name: 'other-host' });
    expect((await cp.post(decisionRequest(), { token: other })).status).toBe(200);
  });
});

describe('upstream failures', () => {
  it.each([
    ['anthropic', 500, 'overloaded right now'],
    ['anthropic', 400, 'max_tokens: too large for this model'],
    ['openai', 500, 'the engine is down'],
    ['openai', 429, 'slow down please'],
  ] as const)("Scenario: Provider error status becomes 502 with the provider's reason (%s %i)", async (provider, status, message) => {
    const cp = await start({ provider, policy: sequencePolicy({ kind: 'http-error', status, message }) });
    const response = await cp.post(decisionRequest());
    expect(response.status).toBe(502);
    const error = await errorOf(response);
    expect(error.code).toBe('upstream_error');
    expect(error.message).toContain(message);
    expect(error.message).toContain(`HTTP ${status}`);
    expect(error.message).not.toContain(cp.fake.apiKey);
  });

  it('never passes the provider key back, even when the provider echoes it', async () => {
    const policy: FakePolicy = () => ({ kind: 'http-error', status: 400, message: `bad request for key test-anthropic-key` });
    const cp = await start({ provider: 'anthropic', policy });
    const response = await cp.post(decisionRequest());
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(text).not.toContain(cp.fake.apiKey);
    expect(text).toContain('[redacted]');
  });

  it("Scenario: A rejected provider key is the operator's to fix", async () => {
    const cp = await start({ provider: 'openai', policy: sequencePolicy(tapSettings), apiKey: 'sk-wrong-service-key-1234567890' });
    const response = await cp.post(decisionRequest());
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(text).not.toContain('sk-wrong-service-key-1234567890');
    const error = JSON.parse(text) as { error: { code: string; message: string } };
    expect(error.error.code).toBe('upstream_error');
    expect(error.error.message).toMatch(/rejected the control plane's API key \(HTTP 401\); the control plane's operator must set a valid OPENAI_API_KEY/);
    // Not the direct transport's hint, which would send the host's user to their own settings.
    expect(error.error.message).not.toMatch(/in Settings/);
  });

  it.each(['anthropic', 'openai'] as const)('Scenario: Provider timeout becomes 504 (%s)', async (provider) => {
    const cp = await start({ provider, policy: sequencePolicy({ kind: 'hang' }), config: { upstreamTimeoutMs: 300 } });
    const response = await cp.post(decisionRequest());
    expect(response.status).toBe(504);
    const error = await errorOf(response);
    expect(error.code).toBe('upstream_timeout');
    expect(error.message).toContain('0.3 s');
    await until(() => cp.fake.abandoned() === 1, 'the provider call to be abandoned');
  });

  it('maps a reply without a tool call to 502', async () => {
    const cp = await start({ provider: 'openai', policy: sequencePolicy({ kind: 'text', text: 'I would rather chat.' }) });
    const response = await cp.post(decisionRequest());
    expect(response.status).toBe(502);
    expect((await errorOf(response)).message).toContain('without calling a tool');
  });
});

describe('logs', () => {
  it('Scenario: Logs carry ids and latencies but no secret', async () => {
    let call = 0;
    const policy: FakePolicy = () => (call++ === 0 ? tapSettings : { kind: 'http-error', status: 500, message: 'boom' });
    const cp = await start({ policy });
    expect((await cp.post(decisionRequest(), { headers: { 'x-request-id': 'req-from-host-1' } })).status).toBe(200);
    expect((await cp.post(decisionRequest())).status).toBe(502);
    expect((await cp.post(decisionRequest(), { token: `${cp.token.slice(0, -4)}AAAA` })).status).toBe(401);
    expect((await cp.post(decisionRequest(), { token: cp.revokedToken })).status).toBe(403);

    const requests = cp.logs.filter((line) => line.msg === 'request');
    expect(requests).toHaveLength(4);
    for (const line of requests) {
      expect(line.requestId).toEqual(expect.any(String));
      expect(line.latencyMs).toEqual(expect.any(Number));
      expect(line.status).toEqual(expect.any(Number));
      expect(line.path).toBe('/v1/planner/decision');
    }
    const [ok, failed, wrong, revoked] = requests as [Record<string, unknown>, ...Array<Record<string, unknown>>];
    expect(ok).toMatchObject({ requestId: 'req-from-host-1', status: 200, tokenId: cp.tokenId, provider: 'anthropic' });
    expect(ok.upstreamLatencyMs).toEqual(expect.any(Number));
    expect(failed).toMatchObject({ status: 502, tokenId: cp.tokenId, errorCode: 'upstream_error' });
    expect(failed!.upstreamLatencyMs).toEqual(expect.any(Number));
    expect(wrong).toMatchObject({ status: 401, errorCode: 'unauthorized' });
    expect(revoked).toMatchObject({ status: 403, errorCode: 'token_disabled' });

    const text = cp.logText();
    expect(text).not.toContain(cp.fake.apiKey);
    expect(text).not.toContain(cp.token);
    expect(text).not.toContain(cp.token.split('_').slice(2).join('_'));
    expect(text).not.toContain(cp.revokedToken);
    expect(text).not.toContain(SCREENSHOT_BASE64);
  });
});

describe('graceful shutdown', () => {
  it('Scenario: In-flight decision finishes during shutdown while new ones get 503', async () => {
    const held = deferred<FakeReply>();
    const cp = await start({ policy: () => held.promise });
    const inFlight = cp.post(decisionRequest());
    await until(() => cp.fake.requests.length === 1, 'the decision to reach the provider');
    expect(cp.service.inFlight).toBe(1);

    const closed = cp.service.close();
    const refused = await cp.post(decisionRequest());
    expect(refused.status).toBe(503);
    expect((await errorOf(refused)).code).toBe('shutting_down');
    const ready = await fetch(`${cp.service.url}/readyz`);
    expect(ready.status).toBe(503);

    held.resolve(tapSettings);
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { tool_name: string }).tool_name).toBe('tap');
    await closed;
    await expect(fetch(`${cp.service.url}/healthz`)).rejects.toThrow();
    expect(cp.fake.requests).toHaveLength(1);
  });

  it('Scenario: A host that goes away is logged as such, not as a shutdown', async () => {
    const cp = await start({ policy: sequencePolicy({ kind: 'hang' }) });
    const host = new AbortController();
    const pending = cp.post(decisionRequest(), { signal: host.signal }).catch((error: unknown) => error);
    await until(() => cp.fake.requests.length === 1, 'the decision to reach the provider');
    host.abort();
    await pending;
    await until(() => cp.logs.some((line) => line.msg === 'request'), 'the request log line');
    expect(cp.logs.find((line) => line.msg === 'request')).toMatchObject({ status: 499, errorCode: 'client_closed' });
    await until(() => cp.fake.abandoned() === 1, 'the provider call to be abandoned');
    expect(cp.service.inFlight).toBe(0);
  });

  it('aborts decisions still running when the grace period ends', async () => {
    const cp = await start({ policy: sequencePolicy({ kind: 'hang' }), config: { shutdownGraceMs: 200 } });
    const inFlight = cp.post(decisionRequest());
    await until(() => cp.fake.requests.length === 1, 'the decision to reach the provider');
    await cp.service.close();
    const response = await inFlight;
    expect(response.status).toBe(503);
    expect((await errorOf(response)).code).toBe('shutting_down');
    expect(cp.logs.some((line) => line.msg === 'grace period over; aborting in-flight decisions')).toBe(true);
  });
});
