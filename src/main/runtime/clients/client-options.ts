import type { ProviderName } from '../../../shared/decision';

/**
 * What a direct provider client is built from: the one declaration the Anthropic and OpenAI clients and the control
 * plane's upstream take their option types from. The values come from the settings (see aiPlannerSetup).
 */
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
  /** The SDK's transport (its documented `fetch` option); defaults to the built-in fetch. */
  fetch?: typeof globalThis.fetch | undefined;
}
