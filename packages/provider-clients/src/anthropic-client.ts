import Anthropic from '@anthropic-ai/sdk';
import {
  ToolCallUnavailable,
  type DecisionMessage,
  type DecisionRequest,
  type TokenUsage,
  type ToolCallDecision,
  type ToolCallingClient,
} from './decision';
import { checkThinkingBudget, type ProviderClientOptions } from './client-options';
import { startCallDeadline, type CallDeadline } from './call-deadline';
import { describeFailure, type ProviderLabel, type SdkFailure } from './provider-failure';
import { singleOfferedCall, type RawToolCall } from './tool-call-checks';

const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
/** Output room for the rationale and the call, on top of any thinking budget. */
const DEFAULT_OUTPUT_TOKENS = 1024;

/** Sent once when the model answers with text only, as the API allows under tool_choice "auto". */
const CALL_A_TOOL_NOW =
  'You answered without calling a tool. Call exactly one tool now: an action tool, or finish_task if the goal is done or cannot be done.';

/** The provider options without the provider (one declaration: ProviderClientOptions). */
export type AnthropicClientOptions = Omit<ProviderClientOptions, 'provider'>;

type Reply = Anthropic.Messages.Message;
type CreateParams = Anthropic.Messages.MessageCreateParamsNonStreaming;

function toAnthropicMessage(message: DecisionMessage): Anthropic.Messages.MessageParam {
  return {
    role: message.role,
    content: message.content.map((part) =>
      part.type === 'text'
        ? { type: 'text' as const, text: part.text }
        : { type: 'image' as const, source: { type: 'base64' as const, media_type: part.mediaType, data: part.data } },
    ),
  };
}

/** The reply's blocks that must go back verbatim in a follow-up turn (thinking keeps its signature). */
function replayableBlocks(reply: Reply): Anthropic.Messages.ContentBlockParam[] {
  const blocks: Anthropic.Messages.ContentBlockParam[] = [];
  for (const block of reply.content) {
    if (block.type === 'thinking') blocks.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    else if (block.type === 'redacted_thinking') blocks.push({ type: 'redacted_thinking', data: block.data });
    else if (block.type === 'text' && block.text.trim()) blocks.push({ type: 'text', text: block.text });
  }
  return blocks;
}

interface ReadReply {
  calls: RawToolCall[];
  /** Text blocks before the (first) tool call: the rationale. */
  text: string | null;
  thinking: string | null;
}

function readReply(reply: Reply): ReadReply {
  const calls: RawToolCall[] = [];
  const texts: string[] = [];
  const thoughts: string[] = [];
  for (const block of reply.content) {
    if (block.type === 'tool_use') calls.push({ name: block.name, input: block.input });
    else if (block.type === 'text' && calls.length === 0 && block.text.trim()) texts.push(block.text.trim());
    else if (block.type === 'thinking' && block.thinking.trim()) thoughts.push(block.thinking.trim());
    else if (block.type === 'redacted_thinking') thoughts.push('[thinking redacted by the provider]');
  }
  return {
    calls,
    text: texts.length ? texts.join('\n') : null,
    thinking: thoughts.length ? thoughts.join('\n\n') : null,
  };
}

function sdkFailure(error: unknown): SdkFailure | undefined {
  if (error instanceof Anthropic.APIConnectionTimeoutError) return { sdkTimedOut: true };
  if (error instanceof Anthropic.APIUserAbortError) return undefined;
  if (error instanceof Anthropic.APIConnectionError) return { connectionFailed: true };
  if (error instanceof Anthropic.APIError) {
    return { status: error.status, headers: error.headers, apiMessage: error.apiMessage ?? error.message };
  }
  return undefined;
}

/**
 * Anthropic Messages API, one tool call per turn. tool_choice is "auto" with parallel use disabled (plus the
 * prompt's instruction to call a tool), because forcing a tool ("any"/"tool") makes the API drop the
 * rationale text and is refused together with extended thinking. A text-only reply gets one corrective
 * follow-up; a second text-only reply is a clear "no tool call" failure.
 */
export function createAnthropicClient(options: AnthropicClientOptions): ToolCallingClient {
  const budget = options.thinkingBudgetTokens;
  checkThinkingBudget(budget);
  const baseURL = options.baseURL ?? DEFAULT_ANTHROPIC_BASE_URL;
  const sdk = new Anthropic({ apiKey: options.apiKey, baseURL, timeout: options.timeoutMs, maxRetries: 0, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const label: ProviderLabel = { name: 'Anthropic', baseURL, apiKey: options.apiKey, keyHint: 'the Anthropic API key in Settings → Direct access (or ANTHROPIC_API_KEY where that is set)' };

  function params(request: DecisionRequest, messages: Anthropic.Messages.MessageParam[], forceTool: boolean): CreateParams {
    const output = request.maxOutputTokens ?? DEFAULT_OUTPUT_TOKENS;
    return {
      model: options.model,
      max_tokens: budget === undefined ? output : budget + output,
      system: request.system,
      messages,
      tools: request.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        input_schema: tool.inputSchema as Anthropic.Messages.Tool.InputSchema,
      })),
      tool_choice: forceTool
        ? { type: 'any', disable_parallel_tool_use: true }
        : { type: 'auto', disable_parallel_tool_use: true },
      ...(budget === undefined ? {} : { thinking: { type: 'enabled' as const, budget_tokens: budget } }),
    };
  }

  async function send(body: CreateParams, deadline: CallDeadline): Promise<Reply> {
    try {
      const reply = await sdk.messages.create(body, { signal: deadline.signal, timeout: deadline.timeoutMs });
      if (!reply || !Array.isArray(reply.content)) throw new TypeError('the reply has no content list');
      return reply;
    } catch (error) {
      throw describeFailure(label, error, sdkFailure(error), deadline);
    }
  }

  return {
    provider: 'anthropic',
    async decide(request, { signal }): Promise<ToolCallDecision> {
      const deadline = startCallDeadline(options.timeoutMs, signal);
      try {
        const messages = request.messages.map(toAnthropicMessage);
        const first = await send(params(request, messages, false), deadline);
        let read = readReply(first);
        const usage: TokenUsage = { inputTokens: first.usage.input_tokens, outputTokens: first.usage.output_tokens };
        let rationale = read.text;
        let thinking = read.thinking;
        if (read.calls.length === 0) {
          if (first.stop_reason === 'max_tokens') {
            throw new ToolCallUnavailable(
              `Anthropic: the reply was cut off at max_tokens before any tool call${budget ? ' (the thinking budget may be too large)' : ''}`,
              { kind: 'no-tool-call' },
            );
          }
          // Without thinking the follow-up may force the call; with thinking the API only allows "auto".
          const replay = replayableBlocks(first);
          const callNow = { type: 'text' as const, text: CALL_A_TOOL_NOW };
          // Roles must alternate: with nothing to replay, the instruction joins the request's closing user turn.
          const lastUser = messages.at(-1)!.content as Anthropic.Messages.ContentBlockParam[];
          const followUp: Anthropic.Messages.MessageParam[] = replay.length
            ? [...messages, { role: 'assistant', content: replay }, { role: 'user', content: [callNow] }]
            : [...messages.slice(0, -1), { role: 'user', content: [...lastUser, callNow] }];
          const second = await send(params(request, followUp, budget === undefined), deadline);
          usage.inputTokens += second.usage.input_tokens;
          usage.outputTokens += second.usage.output_tokens;
          const secondRead = readReply(second);
          rationale = secondRead.text ?? rationale;
          thinking = [thinking, secondRead.thinking].filter(Boolean).join('\n\n') || null;
          read = { ...secondRead, text: secondRead.text ?? read.text };
        }
        const call = singleOfferedCall('Anthropic', request, read.calls, read.text);
        return { ...call, rationale, thinking, usage };
      } catch (error) {
        throw describeFailure(label, error, undefined, deadline);
      } finally {
        deadline.dispose();
      }
    },
  };
}
