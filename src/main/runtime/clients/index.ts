import type { ProviderName, ToolCallingClient } from '../../../shared/decision';
import { createAnthropicClient } from './anthropic-client';
import { createOpenAIClient } from './openai-client';

export { createAnthropicClient, DEFAULT_ANTHROPIC_BASE_URL, MIN_THINKING_BUDGET_TOKENS } from './anthropic-client';
export { createOpenAIClient, DEFAULT_OPENAI_BASE_URL } from './openai-client';

export interface ProviderClientOptions {
  provider: ProviderName;
  apiKey: string;
  /** Defaults to the provider's public endpoint. */
  baseURL?: string | undefined;
  model: string;
  /** Budget of one decide() call, corrective follow-up included. */
  timeoutMs: number;
  /** Anthropic extended thinking (>= 1024); ignored by OpenAI, whose reasoning is the model's own. */
  thinkingBudgetTokens?: number | undefined;
}

/** A direct-to-provider ToolCallingClient (no hidden SDK retries; every failure is a ToolCallUnavailable). */
export function createProviderClient(options: ProviderClientOptions): ToolCallingClient {
  switch (options.provider) {
    case 'anthropic':
      return createAnthropicClient(options);
    case 'openai':
      return createOpenAIClient(options);
  }
}
