// The direct tool-calling clients with the real SDKs against the loopback provider fakes.
import { afterEach, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { failureOf } from '../../support/tool-call-failure';
import { createProviderClient, type DecisionRequest } from '@amc/provider-clients';
import {
  FAKE_ANTHROPIC_KEY,
  finish,
  sequencePolicy,
  startAnthropicFake,
  startProviderFake,
  type FakePolicy,
  type FakeProvider,
  type FakeReply,
  type FakeServer,
} from '../../fakes/index';

const started: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

const request: DecisionRequest = {
  system: 'You operate a phone. Call exactly one tool.',
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: '<goal>Open Settings</goal>\n<scene>\n{"screen":{"width":1080,"height":2400,"orientation":"portrait","package":"launcher","keyboardShown":false},"elements":[{"id":"e1","type":"TextView","text":"Settings","bounds":[0,0,100,100],"clickable":true}]}\n</scene>' },
        { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
      ],
    },
  ],
  tools: [
    { name: 'tap', description: 'Tap an element', inputSchema: { type: 'object', properties: { element_id: { type: 'string' } } } },
    { name: 'finish_task', description: 'Finish', inputSchema: { type: 'object', properties: { success: { type: 'boolean' }, reason: { type: 'string' } }, required: ['success', 'reason'] } },
  ],
};

/** The heart of the corrective instruction the Anthropic client sends after a text-only reply. */
const CALL_A_TOOL_NOW = 'Call exactly one tool now';

const tapE1: FakeReply = { kind: 'call', tool: 'tap', args: { element_id: 'e1' }, text: 'Settings is on screen; tapping it.' };

async function setup(provider: FakeProvider, policy: FakePolicy, extra: { timeoutMs?: number; thinkingBudgetTokens?: number; apiKey?: string } = {}) {
  const fake = await startProviderFake(provider, policy);
  started.push(fake);
  const client = createProviderClient({
    provider,
    apiKey: extra.apiKey ?? fake.apiKey,
    baseURL: fake.baseURL,
    model: provider === 'anthropic' ? 'claude-test' : 'gpt-test',
    timeoutMs: extra.timeoutMs ?? 5_000,
    thinkingBudgetTokens: extra.thinkingBudgetTokens,
  });
  return { fake, client };
}

describe.each(['anthropic', 'openai'] as const)('%s direct client', (provider) => {
  it('Scenario: Provider response resolves to a single decision', async () => {
    const { client } = await setup(provider, sequencePolicy(tapE1));
    const decision = await client.decide(request, {});
    expect(decision.tool).toBe('tap');
    expect(decision.args).toEqual({ element_id: 'e1' });
    expect(decision.rationale).toBe('Settings is on screen; tapping it.');
    expect(decision.usage.inputTokens).toBeGreaterThan(0);
    expect(decision.usage.outputTokens).toBeGreaterThan(0);
  });

  it('sends the image in the provider format and the tools as JSON Schema', async () => {
    const { fake, client } = await setup(provider, sequencePolicy(tapE1));
    await client.decide(request, {});
    const body = JSON.stringify(fake.bodies()[0]);
    if (provider === 'anthropic') {
      expect(body).toContain('"source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}');
      expect(body).toContain('"input_schema":{"type":"object"');
    } else {
      expect(body).toContain('"image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}');
      expect(body).toContain('"parameters":{"type":"object"');
    }
  });

  it('Scenario: A bad key names the setting to fix (401, never echoing the key)', async () => {
    const { client } = await setup(provider, sequencePolicy(tapE1), { apiKey: 'sk-wrong-secret-123' });
    const error = await failureOf(client.decide(request, {}));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/HTTP 401/);
    expect(error.message).toContain(provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY');
    expect(error.message).not.toContain('sk-wrong-secret-123');
  });

  it('Scenario: Rate limiting says when to retry', async () => {
    const { client } = await setup(provider, sequencePolicy({ kind: 'http-error', status: 429, retryAfterSeconds: 7 }));
    const error = await failureOf(client.decide(request, {}));
    expect(error.kind).toBe('rate-limited');
    expect(error.retryAfterSeconds).toBe(7);
    expect(error.message).toMatch(/HTTP 429.*retry after 7 s/);
  });

  it("Scenario: Server errors are not retried behind the caller's back", async () => {
    const { fake, client } = await setup(provider, sequencePolicy({ kind: 'http-error', status: 500 }));
    const error = await failureOf(client.decide(request, {}));
    expect(error.kind).toBe('server-error');
    expect(error.message).toMatch(/answered with a server error \(HTTP 500\)/);
    // "OpenAI-compatible server server error" read badly.
    expect(error.message).not.toMatch(/server server/);
    expect(fake.requests).toHaveLength(1);
  });

  it('an HTML error page from a proxy in the way is summarised, not quoted', async () => {
    const html = '<html><body><h1>502 Bad Gateway</h1><center>nginx</center></body></html>';
    const { client } = await setup(provider, sequencePolicy({ kind: 'error-page', status: 502, html }));
    const error = await failureOf(client.decide(request, {}));
    expect(error.kind).toBe('server-error');
    // The page is summarised (its heading), never quoted.
    expect(error.message).toMatch(/answered with a server error \(HTTP 502\): an HTML page titled "502 Bad Gateway"/);
    expect(error.message).not.toContain('<');
  });

  it('Scenario: A slow provider times out after the configured seconds', async () => {
    const { fake, client } = await setup(provider, sequencePolicy({ kind: 'hang' }), { timeoutMs: 300 });
    const error = await failureOf(client.decide(request, {}));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/did not answer within 0\.3 s/);
    expect(fake.requests).toHaveLength(1);
  });

  it('aborting the signal cancels the in-flight call', async () => {
    const { fake, client } = await setup(provider, sequencePolicy({ kind: 'hang' }));
    const controller = new AbortController();
    const pending = client.decide(request, { signal: controller.signal });
    await expect.poll(() => fake.requests.length).toBe(1);
    controller.abort();
    const error = await failureOf(pending);
    expect(error.kind).toBe('cancelled');
    await expect.poll(() => fake.abandoned()).toBe(1);
  });

  it('a reply that is not the provider JSON is a malformed reply', async () => {
    const { client } = await setup(provider, sequencePolicy({ kind: 'garbage-body' }));
    const error = await failureOf(client.decide(request, {}));
    expect(error.kind).toBe('malformed-reply');
  });

  it('Scenario: A reply cut off mid-way says the connection was cut', async () => {
    const { client } = await setup(provider, sequencePolicy({ kind: 'cut-off' }));
    const error = await failureOf(client.decide(request, {}));
    expect(error.kind).toBe('unreachable');
    expect(error.message).toMatch(/closed the connection before its reply was complete; try again/);
    expect(error.message).not.toMatch(/TypeError|terminated/);
  });

  it('Scenario: Replies that are not exactly one offered tool call are refused: two calls', async () => {
    const { client } = await setup(provider, sequencePolicy({ kind: 'calls', calls: [{ tool: 'tap', args: { element_id: 'e1' } }, { tool: 'finish_task', args: { success: true, reason: 'x' } }] }));
    const error = await failureOf(client.decide(request, {}));
    expect(error.kind).toBe('several-tool-calls');
    expect(error.message).toContain('called 2 tools in one turn (tap, finish_task)');
  });

  it('Scenario: Replies that are not exactly one offered tool call are refused: unknown tool', async () => {
    const { client } = await setup(provider, sequencePolicy({ kind: 'call', tool: 'rm_rf', args: {} }));
    const error = await failureOf(client.decide(request, {}));
    expect(error.kind).toBe('unknown-tool');
    expect(error.message).toContain('unknown tool "rm_rf" (offered: tap, finish_task)');
  });

  it('Scenario: Replies that are not exactly one offered tool call are refused: malformed arguments', async () => {
    const { client } = await setup(provider, sequencePolicy({ kind: 'raw-arguments', tool: 'tap', raw: '{"element_id": "e1"' }));
    const error = await failureOf(client.decide(request, {}));
    expect(error.kind).toBe('malformed-reply');
    expect(error.message).toContain('"tap"');
  });

  it('an unreachable server is reported with its address', async () => {
    const { fake, client } = await setup(provider, sequencePolicy(tapE1));
    await fake.close();
    const error = await failureOf(client.decide(request, {}));
    expect(error.kind).toBe('unreachable');
    expect(error.message).toContain(fake.url);
  });
});

describe('Anthropic direct client: the real API shape', () => {
  it('uses tool_choice auto with parallel tool use disabled (forcing a tool would drop the rationale)', async () => {
    const { fake, client } = await setup('anthropic', sequencePolicy(tapE1));
    await client.decide(request, {});
    const body = fake.bodies()[0] as { tool_choice: unknown; max_tokens: number; thinking?: unknown; temperature?: unknown };
    expect(body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(body.thinking).toBeUndefined();
    expect(body.max_tokens).toBeGreaterThan(0);
  });

  it('Scenario: PlannedStep carries thinking when extended thinking is enabled and the LLM outputs a thinking block', async () => {
    const { fake, client } = await setup('anthropic', sequencePolicy({ ...tapE1, thinking: 'The Settings icon is e1.' }), { thinkingBudgetTokens: 2048 });
    const decision = await client.decide(request, {});
    expect(decision.thinking).toBe('The Settings icon is e1.');
    expect(decision.rationale).toBe('Settings is on screen; tapping it.');
    const body = fake.bodies()[0] as { thinking: unknown; max_tokens: number; temperature?: unknown };
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(body.max_tokens).toBeGreaterThan(2048);
    expect(body.temperature).toBeUndefined();
  });

  it('the fake refuses thinking with a forced tool choice, as the real API does (HTTP 400)', async () => {
    const fake = await startAnthropicFake({ policy: sequencePolicy(tapE1) });
    started.push(fake);
    const sdk = new Anthropic({ apiKey: FAKE_ANTHROPIC_KEY, baseURL: fake.url, maxRetries: 0 });
    const refused = await sdk.messages
      .create({
        model: 'claude-test',
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 2048 },
        tool_choice: { type: 'any' },
        tools: [{ name: 'tap', input_schema: { type: 'object' } }],
        messages: [{ role: 'user', content: 'hi' }],
      })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as InstanceType<typeof Anthropic.BadRequestError>).apiMessage).toBe('Thinking may not be enabled when tool_choice forces tool use.');
  });

  it('the fake drops the text block before a forced tool call, as the real API does', async () => {
    const fake = await startAnthropicFake({ policy: sequencePolicy(tapE1) });
    started.push(fake);
    const sdk = new Anthropic({ apiKey: FAKE_ANTHROPIC_KEY, baseURL: fake.url, maxRetries: 0 });
    const reply = await sdk.messages.create({
      model: 'claude-test',
      max_tokens: 1024,
      tool_choice: { type: 'any' },
      tools: [{ name: 'tap', input_schema: { type: 'object' } }],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(reply.content.map((b) => b.type)).toEqual(['tool_use']);
  });

  it('Scenario: PlannedStep carries None rationale when no text block is present', async () => {
    const { client } = await setup('anthropic', sequencePolicy({ kind: 'call', tool: 'tap', args: { element_id: 'e1' } }));
    const decision = await client.decide(request, {});
    expect(decision.rationale).toBeNull();
    expect(decision.tool).toBe('tap');
  });

  it('Scenario: A text-only Anthropic reply gets one forced follow-up', async () => {
    const { fake, client } = await setup('anthropic', sequencePolicy({ kind: 'text', text: 'I should open Settings.' }, tapE1));
    const decision = await client.decide(request, {});
    expect(decision.tool).toBe('tap');
    expect(decision.rationale).toBe('I should open Settings.');
    const bodies = fake.bodies() as Array<{ tool_choice: unknown; messages: Array<{ role: string; content: unknown }> }>;
    expect(bodies).toHaveLength(2);
    expect(bodies[1]!.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(JSON.stringify(bodies[1]!.messages.at(-1))).toContain(CALL_A_TOOL_NOW);
    expect(decision.usage.inputTokens).toBeGreaterThan(0);
  });

  it('a text-only reply with nothing to replay gets a follow-up whose roles still alternate', async () => {
    const { fake, client } = await setup('anthropic', sequencePolicy({ kind: 'text', text: '   ' }, tapE1));
    const decision = await client.decide(request, {});
    expect(decision.tool).toBe('tap');
    const bodies = fake.bodies() as Array<{ messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> }>;
    expect(bodies).toHaveLength(2);
    expect(bodies[1]!.messages.map((m) => m.role)).toEqual(['user']);
    expect(bodies[1]!.messages[0]!.content.at(-1)).toEqual({ type: 'text', text: expect.stringContaining(CALL_A_TOOL_NOW) });
  });

  it('Scenario: Anthropic thinking is never combined with a forced tool choice', async () => {
    const { fake, client } = await setup('anthropic', sequencePolicy({ kind: 'text', text: 'Hmm, not sure.' }), { thinkingBudgetTokens: 1024 });
    const error = await failureOf(client.decide(request, {}));
    expect(error.kind).toBe('no-tool-call');
    expect(error.message).toContain('model answered without calling a tool');
    const bodies = fake.bodies() as Array<{ tool_choice: unknown; messages: Array<{ role: string; content: Array<{ type: string; signature?: string }> }> }>;
    expect(bodies).toHaveLength(2);
    expect(bodies[1]!.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    const replayed = bodies[1]!.messages.at(-2)!;
    expect(replayed.role).toBe('assistant');
    expect(replayed.content[0]).toMatchObject({ type: 'thinking', signature: 'sig_fake_0' });
  });

  it('a thinking budget below the API minimum is rejected before any call', () => {
    expect(() =>
      createProviderClient({ provider: 'anthropic', apiKey: 'k', model: 'm', timeoutMs: 1000, thinkingBudgetTokens: 512 }),
    ).toThrow(/>= 1024/);
  });
});

describe('OpenAI direct client: the real API shape', () => {
  it('forces exactly one call with tool_choice "required" and parallel_tool_calls false', async () => {
    const { fake, client } = await setup('openai', sequencePolicy(tapE1));
    await client.decide(request, {});
    const body = fake.bodies()[0] as { tool_choice: unknown; parallel_tool_calls: unknown; messages: Array<{ role: string }> };
    expect(body.tool_choice).toBe('required');
    expect(body.parallel_tool_calls).toBe(false);
    expect(body.messages[0]!.role).toBe('system');
  });

  it('captures reasoning_content as thinking when the server sends it', async () => {
    const { client } = await setup('openai', sequencePolicy({ ...tapE1, thinking: 'Settings is e1.' }));
    const decision = await client.decide(request, {});
    expect(decision.thinking).toBe('Settings is e1.');
  });

  it('thinking is null when the server sends no reasoning_content, and content null means no rationale', async () => {
    const { client } = await setup('openai', sequencePolicy(finish(true, 'done')));
    const decision = await client.decide(request, {});
    expect(decision).toMatchObject({ tool: 'finish_task', args: { success: true, reason: 'done' }, thinking: null, rationale: null });
  });

  it('Scenario: Replies that are not exactly one offered tool call are refused: no call (non-compliant server)', async () => {
    const { client } = await setup('openai', sequencePolicy({ kind: 'text', text: 'Sure, I can help.' }));
    const error = await failureOf(client.decide(request, {}));
    expect(error.kind).toBe('no-tool-call');
    expect(error.message).toContain('model answered without calling a tool: "Sure, I can help."');
  });
});
