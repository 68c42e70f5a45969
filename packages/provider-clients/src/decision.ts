import { z } from 'zod';

/**
 * The inputs of one planner decision, independent of provider and transport. The AI planner builds it; a
 * tool-calling client (Anthropic direct, OpenAI direct, or cloud-proxy) turns it into exactly one tool call.
 * The cloud-proxy transport sends it as JSON to the control plane's `POST /v1/planner/decision`.
 */
export const DecisionTextPartSchema = z.object({ type: z.literal('text'), text: z.string() });
export const DecisionImagePartSchema = z.object({
  type: z.literal('image'),
  mediaType: z.enum(['image/png', 'image/jpeg', 'image/webp']),
  /** base64, no data: prefix */
  data: z.string().min(1),
});
export const DecisionMessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.array(z.discriminatedUnion('type', [DecisionTextPartSchema, DecisionImagePartSchema])).min(1),
});
export const DecisionToolSpecSchema = z.object({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
  description: z.string(),
  /** JSON Schema of the tool's arguments (type: object). */
  inputSchema: z.record(z.string(), z.unknown()),
});
export const DecisionRequestSchema = z.object({
  system: z.string(),
  messages: z.array(DecisionMessageSchema).min(1),
  tools: z.array(DecisionToolSpecSchema).min(1),
  /** Hints only: the cloud-proxy service picks provider and model from its own configuration. */
  modelHint: z.object({ provider: z.enum(['anthropic', 'openai']).optional(), model: z.string().optional() }).optional(),
  maxOutputTokens: z.number().int().positive().max(64_000).optional(),
});

export const TokenUsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
});

/**
 * Exactly one tool call chosen by the model, plus what it said and thought before it (when exposed): the first
 * form of a turn's plan, whose fields keep their names up to the task record (`PlannedStep` extends it).
 */
export const ToolCallDecisionSchema = z.object({
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()),
  /** The model's short text before the call; null when none or when the transport hides it. */
  rationale: z.string().nullable(),
  /** Extended thinking / reasoning_content; null when none or when the transport hides it. */
  thinking: z.string().nullable(),
  usage: TokenUsageSchema,
});

/** The control plane's answer: tool name and arguments only (the proxy surface exposes no text and no thinking). */
export const ProxyDecisionResponseSchema = z.object({
  tool_name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  usage: TokenUsageSchema,
});

export type DecisionTextPart = z.infer<typeof DecisionTextPartSchema>;
export type DecisionImagePart = z.infer<typeof DecisionImagePartSchema>;
export type DecisionMessage = z.infer<typeof DecisionMessageSchema>;
export type DecisionToolSpec = z.infer<typeof DecisionToolSpecSchema>;
export type DecisionRequest = z.infer<typeof DecisionRequestSchema>;
export type TokenUsage = z.infer<typeof TokenUsageSchema>;
export type ToolCallDecision = z.infer<typeof ToolCallDecisionSchema>;
export type ProxyDecisionResponse = z.infer<typeof ProxyDecisionResponseSchema>;

export type ProviderName = 'anthropic' | 'openai';

/** One interface for every provider and transport. Implementations throw ToolCallUnavailable on any failure. */
export interface ToolCallingClient {
  readonly provider: ProviderName | 'cloud-proxy';
  decide(request: DecisionRequest, options: { signal?: AbortSignal }): Promise<ToolCallDecision>;
}

/** Why a decision call failed, for callers that react differently (e.g. the control plane's HTTP status). */
export type ToolCallFailureKind =
  | 'auth' // key rejected (401/403)
  | 'rate-limited' // 429; retryAfterSeconds when the provider said
  | 'timeout' // no answer within the per-call timeout
  | 'cancelled' // the caller's AbortSignal fired
  | 'unreachable' // network / DNS / connection refused
  | 'server-error' // 5xx / overloaded
  | 'rejected' // other 4xx: the provider refused the request
  | 'malformed-reply' // unparseable body or tool arguments
  | 'unknown-tool' // the model called a tool that was not offered
  | 'no-tool-call' // the model answered without calling a tool
  | 'several-tool-calls'; // more than one tool call in one turn

export interface ToolCallFailureDetails {
  kind?: ToolCallFailureKind;
  retryAfterSeconds?: number;
  cause?: unknown;
}

/** The single error every SDK, network, HTTP-status and parse failure of a decision call becomes. */
export class ToolCallUnavailable extends Error {
  override name = 'ToolCallUnavailable';
  readonly kind: ToolCallFailureKind | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, details: ToolCallFailureDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = details.kind;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}
