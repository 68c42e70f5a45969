/**
 * A loopback server speaking OpenAI Chat Completions (`POST /v1/chat/completions`) closely enough for the
 * real `openai` SDK: a wrong key -> 401 `invalid_api_key`; tool calls with `arguments` as a JSON string;
 * `content: null` next to tool calls unless the policy adds text; `reasoning_content` when the policy
 * thinks (as DeepSeek / vLLM-style servers do).
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
interface ChatBody {
  model?: string;
  messages?: Array<{ role: string; content: string | Part[] | null }>;
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

function errorResponse(status: number, message: string, headers: Record<string, string> = {}): FakeResponse {
  const kind = ERROR_TYPES[status] ?? { type: 'server_error', code: null };
  return { status, headers, body: { error: { message, type: kind.type, param: null, code: kind.code } } };
}

function turnOf(body: ChatBody, callIndex: number): FakeTurn {
  const all: string[] = [];
  let system = '';
  let lastUser = '';
  let hasImage = false;
  for (const message of body.messages ?? []) {
    const parts: Part[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content ?? []);
    const text = parts.filter((p) => p.type === 'text').map((p) => p.text ?? '').join('\n');
    hasImage ||= parts.some((p) => p.type === 'image_url' && p.image_url?.url.startsWith('data:image/'));
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
    const turn = turnOf(body, served++);
    return render(await options.policy(turn), turn, request.bytes);
  });
  return {
    ...server,
    baseURL: `${server.url}/v1`,
    bodies: () => server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as ChatBody),
  };
}
