// The package through its public entry, with the real SDKs and fetch against a loopback server this file starts
// (a package's tests stand alone: the app's provider fakes in test/fakes are not reachable from here).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createCloudProxyClient,
  createProviderClient,
  REDACTED,
  ToolCallUnavailable,
  type DecisionRequest,
} from '@amc/provider-clients';

interface Answer {
  status: number;
  body: unknown;
}

interface Loopback {
  url: string;
  /** Each request as it arrived: path, headers, parsed JSON body. */
  requests: Array<{ path: string; headers: http.IncomingHttpHeaders; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

const servers: Loopback[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server on 127.0.0.1 that answers every POST with `answer` (JSON) and records what it was sent. */
async function startLoopback(answer: Answer): Promise<Loopback> {
  const requests: Loopback['requests'] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(text) as Record<string, unknown> });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const loopback: Loopback = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  servers.push(loopback);
  return loopback;
}

const request: DecisionRequest = {
  system: 'You operate a phone. Call exactly one tool.',
  messages: [{ role: 'user', content: [{ type: 'text', text: '<goal>Open Settings</goal>' }] }],
  tools: [{ name: 'tap', description: 'Tap an element', inputSchema: { type: 'object', properties: { element_id: { type: 'string' } } } }],
};

async function failureOf(promise: Promise<unknown>): Promise<ToolCallUnavailable> {
  const error: unknown = await promise.then(
    () => new Error('expected the decision to fail'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ToolCallUnavailable);
  return error as ToolCallUnavailable;
}

describe('@amc/provider-clients, its public entry', () => {
  it('an OpenAI reply with one tool call becomes one decision, through the real SDK', async () => {
    const server = await startLoopback({
      status: 200,
      body: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 0,
        model: 'gpt-test',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: 'Settings is on screen.',
              tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'tap', arguments: '{"element_id":"e1"}' } }],
            },
          },
        ],
        usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
      },
    });
    const client = createProviderClient({ provider: 'openai', apiKey: 'sk-test-openai-0123456789', baseURL: `${server.url}/v1`, model: 'gpt-test', timeoutMs: 5_000 });

    const decision = await client.decide(request, {});

    expect(decision).toEqual({
      tool: 'tap',
      args: { element_id: 'e1' },
      rationale: 'Settings is on screen.',
      thinking: null,
      usage: { inputTokens: 12, outputTokens: 5 },
    });
    expect(server.requests[0]).toMatchObject({ path: '/v1/chat/completions', body: { tool_choice: 'required', parallel_tool_calls: false } });
  });

  it('a provider that echoes the key in its refusal is quoted with the key redacted', async () => {
    const apiKey = 'k-echoed-by-the-server-0123456789';
    const server = await startLoopback({
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: `model "nope" is unknown for key ${apiKey}` } },
    });
    const client = createProviderClient({ provider: 'anthropic', apiKey, baseURL: server.url, model: 'nope', timeoutMs: 5_000 });

    const failure = await failureOf(client.decide(request, {}));

    expect(failure.kind).toBe('rejected');
    expect(failure.message).toContain('Anthropic refused the request (HTTP 400)');
    expect(failure.message).toContain(`model "nope" is unknown for key ${REDACTED}`);
    expect(failure.message).not.toContain(apiKey);
    // The key did reach the server (in the SDK's credential header): the redaction kept it out of the message.
    expect(JSON.stringify(server.requests[0]!.headers)).toContain(apiKey);
  });

  it('a thinking budget below the API minimum is refused when the client is built, before any call', async () => {
    const server = await startLoopback({ status: 500, body: {} });
    expect(() =>
      createProviderClient({ provider: 'anthropic', apiKey: 'sk-ant-test-0123456789', baseURL: server.url, model: 'm', timeoutMs: 1_000, thinkingBudgetTokens: 512 }),
    ).toThrow(/>= 1024 tokens, got 512/);
    expect(server.requests).toHaveLength(0);
  });

  it('the cloud-proxy client sends the request with its bearer token and returns the decision without text or thinking', async () => {
    const server = await startLoopback({ status: 200, body: { tool_name: 'tap', arguments: { element_id: 'e1' }, usage: { inputTokens: 3, outputTokens: 1 } } });
    const token = `amc_${'0'.repeat(16)}_${'s'.repeat(24)}`;
    const client = createCloudProxyClient({ url: server.url, token, timeoutMs: 5_000 });

    const decision = await client.decide(request, {});

    expect(decision).toEqual({ tool: 'tap', args: { element_id: 'e1' }, rationale: null, thinking: null, usage: { inputTokens: 3, outputTokens: 1 } });
    expect(server.requests[0]).toMatchObject({ path: '/v1/planner/decision', headers: { authorization: `Bearer ${token}` }, body: request });
  });

  it('a control plane that answers a tool it was not offered is refused, as a direct provider would be', async () => {
    const server = await startLoopback({ status: 200, body: { tool_name: 'wipe_phone', arguments: {}, usage: { inputTokens: 1, outputTokens: 1 } } });
    const client = createCloudProxyClient({ url: server.url, token: 'amc-token', timeoutMs: 5_000 });

    const failure = await failureOf(client.decide(request, {}));

    expect(failure.kind).toBe('unknown-tool');
    expect(failure.message).toBe('control plane: model called unknown tool "wipe_phone" (offered: tap)');
  });
});
