// The provider fakes refuse what the real APIs refuse, with the real status, error type and message, so a
// product request that the real API would reject fails here too (see ../shared/reference/llm-provider-facts.md).
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_ANTHROPIC_KEY, FAKE_OPENAI_KEY, finish, sequencePolicy, startAnthropicFake, startOpenAIFake, type AnthropicFake, type OpenAIFake } from './index';

type AnthropicMessages = Anthropic.Messages.MessageParam[];
type OpenAIMessages = OpenAI.Chat.Completions.ChatCompletionMessageParam[];

let anthropicFake: AnthropicFake;
let openaiFake: OpenAIFake;
let anthropic: Anthropic;
let openai: OpenAI;

beforeAll(async () => {
  anthropicFake = await startAnthropicFake({ policy: sequencePolicy({ kind: 'call', tool: 'tap', args: { element_id: 'e1' }, text: 'Tapping.', thinking: 'e1 is Settings.' }) });
  openaiFake = await startOpenAIFake({ policy: sequencePolicy(finish(true, 'done')) });
  anthropic = new Anthropic({ apiKey: FAKE_ANTHROPIC_KEY, baseURL: anthropicFake.url, maxRetries: 0 });
  openai = new OpenAI({ apiKey: FAKE_OPENAI_KEY, baseURL: openaiFake.baseURL, maxRetries: 0 });
});

afterAll(async () => {
  await anthropicFake?.close();
  await openaiFake?.close();
});

const tools = [{ name: 'tap', input_schema: { type: 'object' as const } }];
const thinking = { type: 'enabled' as const, budget_tokens: 1024 };

function askAnthropic(messages: AnthropicMessages, withThinking = false) {
  return anthropic.messages.create({ model: 'claude-test', max_tokens: 4096, tools, messages, ...(withThinking ? { thinking } : {}) });
}

async function anthropicRefusal(messages: AnthropicMessages, withThinking = false): Promise<{ status: number; type: string; message: string }> {
  const error = await askAnthropic(messages, withThinking).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Anthropic.BadRequestError);
  const refused = error as InstanceType<typeof Anthropic.BadRequestError>;
  return { status: refused.status, type: (refused.error as { error: { type: string } }).error.type, message: refused.apiMessage ?? '' };
}

async function openaiRefusal(messages: OpenAIMessages): Promise<{ status: number; message: string; param: string | null | undefined }> {
  const error = await openai.chat.completions.create({ model: 'gpt-test', messages, tools: [{ type: 'function', function: { name: 'tap', parameters: { type: 'object' } } }] }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  const refused = error as InstanceType<typeof OpenAI.BadRequestError>;
  return { status: refused.status, message: refused.message.replace(/^400 /, ''), param: refused.param };
}

describe('the Anthropic fake refuses invalid conversations', () => {
  it('the first message must come from the user', async () => {
    const refused = await anthropicRefusal([{ role: 'assistant', content: 'Hello.' }, { role: 'user', content: 'Hi.' }]);
    expect(refused).toEqual({ status: 400, type: 'invalid_request_error', message: 'messages: first message must use the "user" role' });
  });

  it('roles must alternate', async () => {
    const refused = await anthropicRefusal([{ role: 'user', content: 'Open Settings.' }, { role: 'user', content: 'Call a tool now.' }]);
    expect(refused.message).toBe('messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row');
  });

  it('every tool_use is answered by a tool_result with its id in the next message', async () => {
    const used: AnthropicMessages = [
      { role: 'user', content: 'Open Settings.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'tap', input: {} }] },
    ];
    const unanswered = await anthropicRefusal([...used, { role: 'user', content: 'What now?' }]);
    expect(unanswered.message).toMatch(/^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1\./);
    const wrongId = await anthropicRefusal([...used, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'ok' }] }]);
    expect(wrongId.message).toMatch(/^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1\./);
    const extra = await anthropicRefusal([
      ...used,
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }, { type: 'tool_result', tool_use_id: 'toolu_2', content: 'ok' }] },
    ]);
    expect(extra.message).toMatch(/^messages\.2\.content\.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_2\./);
    const answered = await askAnthropic([...used, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] }]);
    expect(answered.stop_reason).toBe('tool_use');
  });

  it('with thinking on, replayed thinking must come back unchanged with its signature', async () => {
    const first = await askAnthropic([{ role: 'user', content: 'Open Settings.' }], true);
    const [thought, , call] = first.content as [Anthropic.Messages.ThinkingBlock, Anthropic.Messages.TextBlock, Anthropic.Messages.ToolUseBlock];
    expect(thought.type).toBe('thinking');
    const answer: Anthropic.Messages.MessageParam = { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'ok' }] };
    const replay = (content: Anthropic.Messages.ContentBlockParam[]): AnthropicMessages => [{ role: 'user', content: 'Open Settings.' }, { role: 'assistant', content }, answer];
    const toolUse = { type: 'tool_use' as const, id: call.id, name: call.name, input: call.input };

    const edited = await anthropicRefusal(replay([{ type: 'thinking', thinking: `${thought.thinking} (edited)`, signature: thought.signature }, toolUse]), true);
    expect(edited.message).toBe('messages.1.content.0: Invalid `signature` in `thinking` block');
    const dropped = await anthropicRefusal(replay([toolUse]), true);
    expect(dropped.message).toMatch(/^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`\. When `thinking` is enabled, a final `assistant` message must start with a thinking block/);
    const unchanged = await askAnthropic(replay([{ type: 'thinking', thinking: thought.thinking, signature: thought.signature }, toolUse]), true);
    expect(unchanged.content[0]!.type).toBe('thinking');
  });
});

describe('the OpenAI fake refuses invalid message lists', () => {
  it('a tool message must answer a tool_call_id of the assistant message before it', async () => {
    const orphan = await openaiRefusal([{ role: 'user', content: 'Open Settings.' }, { role: 'tool', tool_call_id: 'call_1', content: 'ok' }]);
    expect(orphan).toEqual({ status: 400, message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", param: 'messages.[1].role' });
    const call = { id: 'call_1', type: 'function' as const, function: { name: 'tap', arguments: '{}' } };
    const unanswered = await openaiRefusal([{ role: 'user', content: 'Open Settings.' }, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'user', content: 'Next?' }]);
    expect(unanswered.message).toBe("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_1");
    const wrongId = await openaiRefusal([{ role: 'user', content: 'Open Settings.' }, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_2', content: 'ok' }]);
    expect(wrongId).toMatchObject({ message: expect.stringMatching(/did not have response messages: call_1$/), param: 'messages.[1].role' });
    const extra = await openaiRefusal([
      { role: 'user', content: 'Open Settings.' },
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
      { role: 'tool', tool_call_id: 'call_2', content: 'ok' },
    ]);
    expect(extra.param).toBe('messages.[3].role');
    const answered = await openai.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'Open Settings.' }, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_1', content: 'ok' }],
    });
    expect(answered.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('roles must be known and required fields present', async () => {
    const badRole = await openaiRefusal([{ role: 'robot', content: 'beep' } as unknown as OpenAIMessages[number]]);
    expect(badRole).toMatchObject({ message: "Invalid value: 'robot'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.", param: 'messages[0].role' });
    const noContent = await openaiRefusal([{ role: 'user' } as unknown as OpenAIMessages[number]]);
    expect(noContent).toMatchObject({ message: "Missing required parameter: 'messages[0].content'.", param: 'messages[0].content' });
    const noCallId = await openaiRefusal([{ role: 'user', content: 'Hi.' }, { role: 'tool', content: 'ok' } as unknown as OpenAIMessages[number]]);
    expect(noCallId.param).toBe('messages[1].tool_call_id');
  });
});
