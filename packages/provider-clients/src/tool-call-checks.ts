import { ToolCallUnavailable, type DecisionRequest, type ToolCallDecision } from './decision';

/** The one tool call of a reply, as both providers describe it after their own parsing. */
export interface RawToolCall {
  name: string;
  /** Already-parsed arguments; anything but a plain object is a malformed reply. */
  input: unknown;
}

/** Exactly one call to a tool that was offered, with an object of arguments; anything else is a clear failure. */
export function singleOfferedCall(
  providerName: string,
  request: DecisionRequest,
  calls: readonly RawToolCall[],
  textWithoutCall: string | null,
): Pick<ToolCallDecision, 'tool' | 'args'> {
  if (calls.length === 0) {
    const said = textWithoutCall ? `: "${textWithoutCall.replace(/\s+/g, ' ').slice(0, 200)}"` : '';
    throw new ToolCallUnavailable(`${providerName}: model answered without calling a tool${said}`, { kind: 'no-tool-call' });
  }
  if (calls.length > 1) {
    throw new ToolCallUnavailable(
      `${providerName}: model called ${calls.length} tools in one turn (${calls.map((c) => c.name).join(', ')}); exactly one is allowed`,
      { kind: 'several-tool-calls' },
    );
  }
  const call = calls[0]!;
  const offered = request.tools.map((t) => t.name);
  if (!offered.includes(call.name)) {
    throw new ToolCallUnavailable(
      `${providerName}: model called unknown tool "${call.name.slice(0, 64)}" (offered: ${offered.join(', ')})`,
      { kind: 'unknown-tool' },
    );
  }
  const input = call.input;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ToolCallUnavailable(`${providerName}: arguments of "${call.name}" are not a JSON object`, {
      kind: 'malformed-reply',
    });
  }
  return { tool: call.name, args: input as Record<string, unknown> };
}
