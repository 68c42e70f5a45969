/**
 * A loopback server speaking the Anthropic Messages API (`POST /v1/messages`) closely enough for the real
 * `@anthropic-ai/sdk`, including the refusals and quirks the real API has:
 * - a wrong or missing key (`x-api-key` or `Authorization: Bearer`) -> 401 `authentication_error`;
 * - extended thinking together with a forced tool choice (`any`/`tool`) -> 400 `invalid_request_error`;
 * - thinking budget < 1024 or >= max_tokens, or `temperature` with thinking -> 400;
 * - a forced tool choice -> no text block before `tool_use` (the API prefills the tool call);
 * - with thinking on, a `thinking` block (with a signature) comes first.
 */
import { approxTokens, readPrompt, type FakePolicy, type FakeReply, type FakeTurn } from './fake-policy';
import { renderTransportFailure, sleep, startFakeServer, type FakeResponse, type FakeServer, type RecordedRequest } from './fake-http';

export interface AnthropicFakeOptions {
  policy: FakePolicy;
  /** The key the fake accepts (default `test-anthropic-key`). */
  apiKey?: string;
}

export const FAKE_ANTHROPIC_KEY = 'test-anthropic-key';

interface MessagesBody {
  model?: string;
  max_tokens?: number;
  system?: string | Array<{ type: string; text?: string }>;
  messages?: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
  tools?: Array<{ name: string }>;
  tool_choice?: { type: string };
  thinking?: { type: string; budget_tokens?: number };
  temperature?: number;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

let requestCounter = 0;

function errorResponse(status: number, message: string, headers: Record<string, string> = {}): FakeResponse {
  const id = `req_fake_${++requestCounter}`;
  return {
    status,
    headers: { 'request-id': id, ...headers },
    body: { type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message }, request_id: id },
  };
}

/** The request checks the real API performs that matter to us, as its 400 messages. */
function invalidRequest(body: MessagesBody): string | null {
  if (typeof body.model !== 'string') return 'model: Field required';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: Field required';
  const forced = body.tool_choice?.type === 'any' || body.tool_choice?.type === 'tool';
  if (body.thinking?.type === 'enabled') {
    const budget = body.thinking.budget_tokens ?? 0;
    if (forced) return 'Thinking may not be enabled when tool_choice forces tool use.';
    if (budget < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
    if (budget >= body.max_tokens) {
      return '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size';
    }
    if (body.temperature !== undefined && body.temperature !== 1) {
      return '`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility';
    }
  }
  return null;
}

function textsOf(body: MessagesBody): { all: string[]; lastUser: string; hasImage: boolean } {
  const all: string[] = [];
  let lastUser = '';
  let hasImage = false;
  for (const message of body.messages ?? []) {
    const parts = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    const text = parts.filter((p) => p.type === 'text').map((p) => p.text ?? '').join('\n');
    hasImage ||= parts.some((p) => p.type === 'image');
    all.push(text);
    if (message.role === 'user') lastUser = text;
  }
  return { all, lastUser, hasImage };
}

function turnOf(body: MessagesBody, callIndex: number): FakeTurn {
  const { all, lastUser, hasImage } = textsOf(body);
  const system = typeof body.system === 'string' ? body.system : (body.system ?? []).map((b) => b.text ?? '').join('\n');
  return {
    provider: 'anthropic',
    callIndex,
    model: body.model ?? '',
    system,
    ...readPrompt(all),
    lastUserText: lastUser,
    allText: all.join('\n'),
    hasImage,
    toolNames: (body.tools ?? []).map((t) => t.name),
    forcedTool: body.tool_choice?.type === 'any' || body.tool_choice?.type === 'tool',
    thinkingEnabled: body.thinking?.type === 'enabled',
  };
}

function message(turn: FakeTurn, rawBytes: number, content: unknown[], stopReason: string): FakeResponse {
  return {
    status: 200,
    headers: { 'request-id': `req_fake_${++requestCounter}` },
    body: {
      id: `msg_fake_${requestCounter}`,
      type: 'message',
      role: 'assistant',
      model: turn.model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { input_tokens: Math.ceil(rawBytes / 4), output_tokens: approxTokens(JSON.stringify(content)) },
    },
  };
}

async function render(reply: FakeReply, turn: FakeTurn, rawBytes: number): Promise<FakeResponse | undefined> {
  const thinkingBlock = (thinking: string | undefined) =>
    turn.thinkingEnabled
      ? [{ type: 'thinking', thinking: thinking ?? 'Looking at the current screen before acting.', signature: `sig_fake_${turn.callIndex}` }]
      : [];
  // Forcing a tool prefills the assistant turn with the call: no text can come before it.
  const textBlock = (text: string | undefined) => (text && !turn.forcedTool ? [{ type: 'text', text, citations: null }] : []);
  const toolUse = (tool: string, input: unknown, n: number) => ({ type: 'tool_use', id: `toolu_fake_${turn.callIndex}_${n}`, name: tool, input, caller: { type: 'direct' } });
  switch (reply.kind) {
    case 'call':
      return message(turn, rawBytes, [...thinkingBlock(reply.thinking), ...textBlock(reply.text), toolUse(reply.tool, reply.args, 0)], 'tool_use');
    case 'raw-arguments':
      // The Messages API always sends `input` as a JSON object; a string there is the closest "malformed" shape.
      return message(turn, rawBytes, [...thinkingBlock(undefined), ...textBlock(reply.text), toolUse(reply.tool, reply.raw, 0)], 'tool_use');
    case 'calls':
      return message(turn, rawBytes, [...thinkingBlock(undefined), ...textBlock(reply.text), ...reply.calls.map((c, n) => toolUse(c.tool, c.args, n))], 'tool_use');
    case 'text':
      if (turn.forcedTool) throw new Error('policy answered text-only to a forced tool choice; the real API cannot');
      return message(turn, rawBytes, [...thinkingBlock(reply.thinking), { type: 'text', text: reply.text, citations: null }], 'end_turn');
    case 'http-error': {
      const headers: Record<string, string> = reply.retryAfterSeconds === undefined ? {} : { 'retry-after': String(reply.retryAfterSeconds) };
      const defaults: Record<number, string> = { 401: 'invalid x-api-key', 429: 'Number of request tokens has exceeded your per-minute rate limit', 500: 'Internal server error', 529: 'Overloaded' };
      return errorResponse(reply.status, reply.message ?? defaults[reply.status] ?? 'error', headers);
    }
    case 'garbage-body':
    case 'error-page':
    case 'cut-off':
    case 'hang':
      return renderTransportFailure(reply);
    case 'delay':
      await sleep(reply.ms);
      return render(reply.then, turn, rawBytes);
  }
}

export interface AnthropicFake extends FakeServer {
  /** Request bodies of `POST /v1/messages`, in order. */
  bodies(): MessagesBody[];
}

export async function startAnthropicFake(options: AnthropicFakeOptions): Promise<AnthropicFake> {
  const apiKey = options.apiKey ?? FAKE_ANTHROPIC_KEY;
  let served = 0;
  const server = await startFakeServer(async (request: RecordedRequest) => {
    if (request.method !== 'POST' || request.path !== '/v1/messages') return errorResponse(404, `Not found: ${request.path}`);
    // The API takes the key as `x-api-key` or as a bearer token (what SDK 1.x sends).
    const presented = request.headers['x-api-key'] ?? request.headers.authorization?.replace(/^Bearer /, '');
    if (presented !== apiKey) return errorResponse(401, 'invalid x-api-key');
    const body = request.body as MessagesBody | undefined;
    if (!body || typeof body !== 'object') return errorResponse(400, 'The request body is not valid JSON.');
    const problem = invalidRequest(body);
    if (problem) return errorResponse(400, problem);
    const turn = turnOf(body, served++);
    return render(await options.policy(turn), turn, request.bytes);
  });
  return {
    ...server,
    bodies: () => server.requests.filter((r) => r.path === '/v1/messages').map((r) => r.body as MessagesBody),
  };
}
