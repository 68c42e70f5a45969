import OpenAI from 'openai';
import {
  ToolCallUnavailable,
  type DecisionMessage,
  type DecisionRequest,
  type ToolCallDecision,
  type ToolCallingClient,
} from './decision';
import { startCallDeadline } from './call-deadline';
import type { ProviderClientOptions } from './client-options';
import { describeFailure, type ProviderLabel, type SdkFailure } from './provider-failure';
import { singleOfferedCall, type RawToolCall } from './tool-call-checks';

const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** OpenAI's reasoning is the model's own: no thinking budget. */
export type OpenAIClientOptions = Omit<ProviderClientOptions, 'provider' | 'thinkingBudgetTokens'>;

type ChatParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

function toOpenAIMessage(message: DecisionMessage): ChatMessage {
  if (message.role === 'assistant') {
    return { role: 'assistant', content: message.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n') };
  }
  return {
    role: 'user',
    content: message.content.map((part) =>
      part.type === 'text'
        ? { type: 'text' as const, text: part.text }
        : { type: 'image_url' as const, image_url: { url: `data:${part.mediaType};base64,${part.data}` } },
    ),
  };
}

function sdkFailure(error: unknown): SdkFailure | undefined {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { sdkTimedOut: true };
  if (error instanceof OpenAI.APIUserAbortError) return undefined;
  if (error instanceof OpenAI.APIConnectionError) return { connectionFailed: true };
  if (error instanceof OpenAI.APIError) {
    const body = error.error as { message?: unknown } | undefined;
    // A body that is not JSON (an HTML page from a proxy in the way) is only in the SDK's message.
    const apiMessage = typeof body?.message === 'string' ? body.message : body === undefined ? error.message : null;
    return { status: error.status, headers: error.headers, apiMessage };
  }
  return undefined;
}

/** `arguments` is a JSON string written by the model: anything unparseable is the provider's failure. */
function parseArguments(name: string, raw: unknown): unknown {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return {};
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    throw new ToolCallUnavailable(
      `OpenAI: model sent malformed arguments for "${name}" (not valid JSON: ${JSON.stringify(raw.slice(0, 120))})`,
      { kind: 'malformed-reply' },
    );
  }
}

/** Non-standard reasoning text that OpenAI-compatible servers (DeepSeek, vLLM, Ollama) put on the message. */
function reasoningOf(message: object): string | null {
  const record = message as { reasoning_content?: unknown; reasoning?: unknown };
  const text = typeof record.reasoning_content === 'string' ? record.reasoning_content : record.reasoning;
  return typeof text === 'string' && text.trim() ? text.trim() : null;
}

/**
 * OpenAI Chat Completions, one tool call per turn: tool_choice "required" and parallel_tool_calls false.
 * No corrective follow-up: "required" already forces the call, so a reply without one is reported as is.
 */
export function createOpenAIClient(options: OpenAIClientOptions): ToolCallingClient {
  const baseURL = options.baseURL ?? DEFAULT_OPENAI_BASE_URL;
  const sdk = new OpenAI({ apiKey: options.apiKey, baseURL, timeout: options.timeoutMs, maxRetries: 0, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const name = baseURL === DEFAULT_OPENAI_BASE_URL ? 'OpenAI' : `OpenAI-compatible server`;
  const label: ProviderLabel = { name, baseURL, apiKey: options.apiKey, keyHint: 'the OpenAI API key in Settings → Direct access (or OPENAI_API_KEY where that is set)' };

  function params(request: DecisionRequest): ChatParams {
    return {
      model: options.model,
      messages: [{ role: 'system', content: request.system }, ...request.messages.map(toOpenAIMessage)],
      tools: request.tools.map((tool) => ({
        type: 'function' as const,
        function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
      })),
      tool_choice: 'required',
      parallel_tool_calls: false,
      ...(request.maxOutputTokens === undefined ? {} : { max_completion_tokens: request.maxOutputTokens }),
    };
  }

  return {
    provider: 'openai',
    async decide(request, { signal }): Promise<ToolCallDecision> {
      const deadline = startCallDeadline(options.timeoutMs, signal);
      try {
        let reply: OpenAI.Chat.Completions.ChatCompletion;
        try {
          reply = await sdk.chat.completions.create(params(request), { signal: deadline.signal, timeout: deadline.timeoutMs });
        } catch (error) {
          throw describeFailure(label, error, sdkFailure(error), deadline);
        }
        const message = reply?.choices?.[0]?.message;
        if (!message) throw new ToolCallUnavailable(`${name}: the reply has no message`, { kind: 'malformed-reply' });
        const toolCalls = message.tool_calls ?? [];
        // Arguments are parsed only for a lone call, so "two calls" is reported as such even if one is malformed.
        const calls: RawToolCall[] = toolCalls.map((call) => {
          if (call.type !== 'function') return { name: String(call.type), input: {} };
          const input = toolCalls.length === 1 ? parseArguments(call.function.name, call.function.arguments) : {};
          return { name: call.function.name, input };
        });
        const text = typeof message.content === 'string' && message.content.trim() ? message.content.trim() : null;
        const call = singleOfferedCall(name, request, calls, text);
        return {
          ...call,
          rationale: text,
          thinking: reasoningOf(message),
          usage: { inputTokens: reply.usage?.prompt_tokens ?? 0, outputTokens: reply.usage?.completion_tokens ?? 0 },
        };
      } catch (error) {
        throw describeFailure(label, error, undefined, deadline);
      } finally {
        deadline.dispose();
      }
    },
  };
}
