import type { ToolCallingClient } from '../../../shared/decision';
import type { ProviderClientOptions } from './client-options';
import { createAnthropicClient } from './anthropic-client';
import { createOpenAIClient } from './openai-client';
import { registerSecret } from '../../../shared/redact';

export { createAnthropicClient, DEFAULT_ANTHROPIC_BASE_URL, MIN_THINKING_BUDGET_TOKENS } from './anthropic-client';
export { createOpenAIClient, DEFAULT_OPENAI_BASE_URL } from './openai-client';
export type { ProviderClientOptions } from './client-options';

/** A direct-to-provider ToolCallingClient (no hidden SDK retries; every failure is a ToolCallUnavailable). */
export function createProviderClient(options: ProviderClientOptions): ToolCallingClient {
  // From now on every message this process shows, stores or logs hides this key.
  registerSecret(options.apiKey);
  switch (options.provider) {
    case 'anthropic':
      return createAnthropicClient(options);
    case 'openai':
      return createOpenAIClient(options);
  }
}
