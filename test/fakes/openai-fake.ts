/**
 * A loopback server speaking OpenAI Chat Completions (`POST /v1/chat/completions`) closely enough for the
 * real `openai` SDK: a wrong key -> 401 `invalid_api_key`; tool calls with `arguments` as a JSON string;
 * `content: null` next to tool calls unless the policy adds text; `reasoning_content` when the policy
 * thinks (as DeepSeek / vLLM-style servers do). Like the real API it refuses (400 `invalid_request_error`,
 * with `param`): an unknown role, a message without its required fields, a `tool` message that does not
 * answer a `tool_call_id` of the assistant message before it, an assistant's tool calls left unanswered, and
 * `tool_choice` / `parallel_tool_calls` without `tools`.
 */
import { approxTokens, readPrompt, type FakePolicy, type FakeReply, type FakeTurn } from './fake-policy';
import { renderTransportFailure, sleep, startFakeServer, type FakeResponse, type FakeServer, type RecordedRequest } from './fake-http';

export interface OpenAIFakeOptions {
  policy: FakePolicy;
  /** The key the fake accepts (default `test-openai-key`). */
  apiKey?: string;
}

export const FAKE_OPENAI_KEY = 'test-openai-key';

type Part = { type: string; text?: string; image_url?: { url: string } };
interface ChatMessage {
  role: string;
  content?: string | Part[] | null;
  tool_calls?: Array<{ id?: string; type?: string; function?: { name?: string; arguments?: string } }>;
  tool_call_id?: string;
}
interface ChatBody {
  model?: string;
  messages?: ChatMessage[];
  tools?: Array<{ type: string; function: { name: string } }>;
  tool_choice?: unknown;
  parallel_tool_calls?: boolean;
}

const ERROR_TYPES: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
};

function errorResponse(status: number, message: string, headers: Record<string, string> = {}, param: string | null = null): FakeResponse {
  const kind = ERROR_TYPES[status] ?? { type: 'server_error', code: null };
  return { status, headers, body: { error: { message, type: kind.type, param, code: kind.code } } };
}

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];

/** The message-list rules of Chat Completions: the real API's 400 message and the `param` it names. */
function invalidMessages(body: ChatBody): { message: string; param: string } | null {
  const messages = body.messages ?? [];
  for (const [i, message] of messages.entries()) {
    if (!ROLES.includes(message.role)) {
      return { message: `Invalid value: '${message.role}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`, param: `messages[${i}].role` };
    }
    const hasContent = message.content !== undefined && message.content !== null;
    if (!hasContent && !(message.role === 'assistant' && message.tool_calls?.length)) {
      return { message: `Missing required parameter: 'messages[${i}].content'.`, param: `messages[${i}].content` };
    }
    if (message.role === 'tool') {
      if (typeof message.tool_call_id !== 'string') {
        return { message: `Missing required parameter: 'messages[${i}].tool_call_id'.`, param: `messages[${i}].tool_call_id` };
      }
      // A tool message answers a call of the nearest assistant message before it (other tool messages may sit between).
      let owner = i - 1;
      while (owner >= 0 && messages[owner]!.role === 'tool') owner -= 1;
      const calls = owner >= 0 && messages[owner]!.role === 'assistant' ? (messages[owner]!.tool_calls ?? []) : [];
      if (!calls.some((call) => call.id === message.tool_call_id)) {
        return { message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", param: `messages.[${i}].role` };
      }
    }
    if (message.role === 'assistant' && message.tool_calls?.length) {
      const answered = new Set<string | undefined>();
      for (let next = i + 1; next < messages.length && messages[next]!.role === 'tool'; next++) answered.add(messages[next]!.tool_call_id);
      const missing = message.tool_calls.map((call) => call.id).filter((id) => !answered.has(id));
      if (missing.length) {
        return {
          message: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`,
          param: `messages.[${i}].role`,
        };
      }
    }
  }
  const tools = body.tools ?? [];
  for (const [i, tool] of tools.entries()) {
    if (typeof tool?.function?.name !== 'string') return { message: `Missing required parameter: 'tools[${i}].function.name'.`, param: `tools[${i}].function.name` };
  }
  if (!tools.length && body.tool_choice !== undefined) {
    return { message: "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", param: 'tool_choice' };
  }
  if (!tools.length && body.parallel_tool_calls !== undefined) {
    return { message: "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.", param: 'parallel_tool_calls' };
  }
  return null;
}

function turnOf(body: ChatBody, callIndex: number): FakeTurn {
  const all: string[] = [];
  let system = '';
  let lastUser = '';
  let hasImage = false;
  let image: Buffer | undefined;
  for (const message of body.messages ?? []) {
    const parts: Part[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content ?? []);
    const text = parts.filter((p) => p.type === 'text').map((p) => p.text ?? '').join('\n');
    hasImage ||= parts.some((p) => p.type === 'image_url' && p.image_url?.url.startsWith('data:image/'));
    for (const part of parts) if (part.type === 'image_url' && part.image_url?.url.startsWith('data:image/')) image = Buffer.from(part.image_url.url.slice(part.image_url.url.indexOf(',') + 1), 'base64');
    if (message.role === 'system') system = text;
    else all.push(text);
    if (message.role === 'user') lastUser = text;
  }
  return {
    provider: 'openai',
    callIndex,
    model: body.model ?? '',
    system,
    ...readPrompt(all),
    lastUserText: lastUser,
    allText: all.join('\n'),
    hasImage,
    ...(image && { image }),
    toolNames: (body.tools ?? []).map((t) => t.function.name),
    forcedTool: body.tool_choice === 'required' || typeof body.tool_choice === 'object',
    thinkingEnabled: false,
  };
}

let completionCounter = 0;

function completion(turn: FakeTurn, rawBytes: number, message: Record<string, unknown>, finishReason: string): FakeResponse {
  const completionTokens = approxTokens(JSON.stringify(message));
  const promptTokens = Math.ceil(rawBytes / 4);
  return {
    status: 200,
    body: {
      id: `chatcmpl-fake-${++completionCounter}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: turn.model,
      choices: [{ index: 0, message: { role: 'assistant', refusal: null, ...message }, finish_reason: finishReason, logprobs: null }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    },
  };
}

async function render(reply: FakeReply, turn: FakeTurn, rawBytes: number): Promise<FakeResponse | undefined> {
  const toolCall = (tool: string, args: string, n: number) => ({ id: `call_fake_${turn.callIndex}_${n}`, type: 'function', function: { name: tool, arguments: args } });
  switch (reply.kind) {
    case 'call':
      return completion(turn, rawBytes, {
        content: reply.text ?? null,
        tool_calls: [toolCall(reply.tool, JSON.stringify(reply.args), 0)],
        ...(reply.thinking ? { reasoning_content: reply.thinking } : {}),
      }, 'tool_calls');
    case 'raw-arguments':
      return completion(turn, rawBytes, { content: reply.text ?? null, tool_calls: [toolCall(reply.tool, reply.raw, 0)] }, 'tool_calls');
    case 'calls':
      return completion(turn, rawBytes, {
        content: reply.text ?? null,
        tool_calls: reply.calls.map((c, n) => toolCall(c.tool, JSON.stringify(c.args), n)),
      }, 'tool_calls');
    case 'text':
      return completion(turn, rawBytes, { content: reply.text, ...(reply.thinking ? { reasoning_content: reply.thinking } : {}) }, 'stop');
    case 'http-error': {
      const headers: Record<string, string> = reply.retryAfterSeconds === undefined ? {} : { 'retry-after': String(reply.retryAfterSeconds) };
      const defaults: Record<number, string> = {
        401: 'Incorrect API key provided: sk-fake***ey. You can find your API key at https://platform.openai.com/account/api-keys.',
        429: 'Rate limit reached for requests',
        500: 'The server had an error while processing your request. Sorry about that!',
      };
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

export interface OpenAIFake extends FakeServer {
  /** Base URL for the SDK (`<url>/v1`). */
  baseURL: string;
  /** Request bodies of `POST /v1/chat/completions`, in order. */
  bodies(): ChatBody[];
}

export async function startOpenAIFake(options: OpenAIFakeOptions): Promise<OpenAIFake> {
  const apiKey = options.apiKey ?? FAKE_OPENAI_KEY;
  let served = 0;
  const server = await startFakeServer(async (request: RecordedRequest) => {
    if (request.method !== 'POST' || request.path !== '/v1/chat/completions') {
      return errorResponse(404, `Invalid URL (${request.method} ${request.path})`);
    }
    if (request.headers.authorization !== `Bearer ${apiKey}`) {
      return errorResponse(401, 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.');
    }
    const body = request.body as ChatBody | undefined;
    if (!body || typeof body !== 'object') return errorResponse(400, 'We could not parse the JSON body of your request.');
    if (typeof body.model !== 'string') return errorResponse(400, 'you must provide a model parameter');
    if (!Array.isArray(body.messages) || body.messages.length === 0) return errorResponse(400, "Missing required parameter: 'messages'.");
    const invalid = invalidMessages(body);
    if (invalid) return errorResponse(400, invalid.message, {}, invalid.param);
    const turn = turnOf(body, served++);
    return render(await options.policy(turn), turn, request.bytes);
  });
  return {
    ...server,
    baseURL: `${server.url}/v1`,
    bodies: () => server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as ChatBody),
  };
}
