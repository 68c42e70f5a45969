/**
 * A loopback server speaking the Anthropic Messages API (`POST /v1/messages`) closely enough for the real
 * `@anthropic-ai/sdk`, including the refusals and quirks the real API has:
 * - a wrong or missing key (`x-api-key` or `Authorization: Bearer`) -> 401 `authentication_error`;
 * - extended thinking together with a forced tool choice (`any`/`tool`) -> 400 `invalid_request_error`;
 * - thinking budget < 1024 or >= max_tokens, or `temperature` with thinking -> 400;
 * - a forced tool choice -> no text block before `tool_use` (the API prefills the tool call);
 * - with thinking on, a `thinking` block (with a signature) comes first;
 * - the conversation rules (400 `invalid_request_error`): roles alternate, starting with `user`; every
 *   `tool_use` is answered by a `tool_result` with its id in the next (user) message, and no `tool_result`
 *   answers an id the previous message did not use; a replayed `thinking` block must come back unchanged
 *   with the signature this fake issued for it; with thinking on, an assistant turn that ends in tool use and
 *   is continued with its results must start with its thinking block.
 */
import { approxTokens, readPrompt, type FakePolicy, type FakeReply, type FakeTurn } from './fake-policy';
import { renderTransportFailure, sleep, startFakeServer, type FakeResponse, type FakeServer, type RecordedRequest } from './fake-http';

export interface AnthropicFakeOptions {
  policy: FakePolicy;
  /** The key the fake accepts (default `test-anthropic-key`). */
  apiKey?: string;
}

export const FAKE_ANTHROPIC_KEY = 'test-anthropic-key';

interface ContentBlock {
  type: string;
  text?: string;
  id?: string;
  tool_use_id?: string;
  thinking?: string;
  signature?: string;
  source?: { type: string; media_type?: string; data?: string };
}

interface MessagesBody {
  model?: string;
  max_tokens?: number;
  system?: string | Array<{ type: string; text?: string }>;
  messages?: Array<{ role: string; content: string | ContentBlock[] }>;
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

const blocksOf = (content: string | ContentBlock[]): ContentBlock[] => (typeof content === 'string' ? [{ type: 'text', text: content }] : content);

const EXTENDED_THINKING_DOCS = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

/**
 * The conversation rules of the Messages API, as its 400 messages. `issued` maps each signature this fake
 * handed out to the thinking text it signed.
 */
function invalidConversation(body: MessagesBody, issued: ReadonlyMap<string, string>): string | null {
  const messages = body.messages ?? [];
  for (const [i, message] of messages.entries()) {
    if (message.role !== 'user' && message.role !== 'assistant') {
      return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    }
    if (typeof message.content !== 'string' && !Array.isArray(message.content)) return `messages.${i}.content: Field required`;
  }
  if (messages[0]!.role !== 'user') return 'messages: first message must use the "user" role';
  for (let i = 1; i < messages.length; i++) {
    if (messages[i]!.role === messages[i - 1]!.role) {
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${messages[i]!.role}" roles in a row`;
    }
  }
  for (const [i, message] of messages.entries()) {
    const blocks = blocksOf(message.content);
    const previousUses = new Set(i > 0 ? blocksOf(messages[i - 1]!.content).filter((b) => b.type === 'tool_use').map((b) => b.id) : []);
    for (const [j, block] of blocks.entries()) {
      if (block.type === 'tool_result' && (message.role !== 'user' || !previousUses.has(block.tool_use_id))) {
        return `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${block.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
      if (block.type === 'thinking') {
        if (message.role !== 'assistant') return `messages.${i}.content.${j}.type: thinking blocks may only appear in assistant messages`;
        if (typeof block.signature !== 'string') return `messages.${i}.content.${j}.thinking.signature: Field required`;
        if (issued.get(block.signature) !== block.thinking) return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`;
      }
    }
    const uses = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id ?? '');
    if (uses.length === 0) continue;
    const next = messages[i + 1];
    const answered = new Set(next ? blocksOf(next.content).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : []);
    const unanswered = uses.filter((id) => !answered.has(id));
    if (next && unanswered.length) {
      return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
  }
  // Continuing a tool-use turn with thinking on: that assistant turn must open with its (replayed) thinking.
  const lastAssistant = messages.findLastIndex((m) => m.role === 'assistant');
  if (body.thinking?.type === 'enabled' && lastAssistant >= 0 && lastAssistant === messages.length - 2) {
    const blocks = blocksOf(messages[lastAssistant]!.content);
    const continuesToolUse = blocks.some((b) => b.type === 'tool_use');
    const first = blocks[0]?.type ?? 'nothing';
    if (continuesToolUse && first !== 'thinking' && first !== 'redacted_thinking') {
      return `messages.${lastAssistant}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${EXTENDED_THINKING_DOCS}`;
    }
  }
  return null;
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
      return `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${EXTENDED_THINKING_DOCS}#max-tokens-and-context-window-size`;
    }
    if (body.temperature !== undefined && body.temperature !== 1) {
      return `\`temperature\` may only be set to 1 when thinking is enabled. Please consult our documentation at ${EXTENDED_THINKING_DOCS}#feature-compatibility`;
    }
  }
  return null;
}

function textsOf(body: MessagesBody): { all: string[]; lastUser: string; hasImage: boolean; image?: Buffer } {
  const all: string[] = [];
  let lastUser = '';
  let hasImage = false;
  let image: Buffer | undefined;
  for (const message of body.messages ?? []) {
    const parts = blocksOf(message.content);
    const text = parts.filter((p) => p.type === 'text').map((p) => p.text ?? '').join('\n');
    hasImage ||= parts.some((p) => p.type === 'image');
    for (const part of parts) if (part.type === 'image' && part.source?.data) image = Buffer.from(part.source.data, 'base64');
    all.push(text);
    if (message.role === 'user') lastUser = text;
  }
  return { all, lastUser, hasImage, ...(image && { image }) };
}

function turnOf(body: MessagesBody, callIndex: number): FakeTurn {
  const { all, lastUser, hasImage, image } = textsOf(body);
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
    ...(image && { image }),
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

async function render(reply: FakeReply, turn: FakeTurn, rawBytes: number, issued: Map<string, string>): Promise<FakeResponse | undefined> {
  const thinkingBlock = (thinking = 'Looking at the current screen before acting.') => {
    if (!turn.thinkingEnabled) return [];
    const signature = `sig_fake_${turn.callIndex}`;
    issued.set(signature, thinking);
    return [{ type: 'thinking', thinking, signature }];
  };
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
      return render(reply.then, turn, rawBytes, issued);
  }
}

export interface AnthropicFake extends FakeServer {
  /** Request bodies of `POST /v1/messages`, in order. */
  bodies(): MessagesBody[];
}

export async function startAnthropicFake(options: AnthropicFakeOptions): Promise<AnthropicFake> {
  const apiKey = options.apiKey ?? FAKE_ANTHROPIC_KEY;
  let served = 0;
  const issuedSignatures = new Map<string, string>();
  const server = await startFakeServer(async (request: RecordedRequest) => {
    if (request.method !== 'POST' || request.path !== '/v1/messages') return errorResponse(404, `Not found: ${request.path}`);
    // The API takes the key as `x-api-key` or as a bearer token (what SDK 1.x sends).
    const presented = request.headers['x-api-key'] ?? request.headers.authorization?.replace(/^Bearer /, '');
    if (presented !== apiKey) return errorResponse(401, 'invalid x-api-key');
    const body = request.body as MessagesBody | undefined;
    if (!body || typeof body !== 'object') return errorResponse(400, 'The request body is not valid JSON.');
    const problem = invalidRequest(body) ?? invalidConversation(body, issuedSignatures);
    if (problem) return errorResponse(400, problem);
    const turn = turnOf(body, served++);
    return render(await options.policy(turn), turn, request.bytes, issuedSignatures);
  });
  return {
    ...server,
    bodies: () => server.requests.filter((r) => r.path === '/v1/messages').map((r) => r.body as MessagesBody),
  };
}
