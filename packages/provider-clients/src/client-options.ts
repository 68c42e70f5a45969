import type { ProviderName } from './decision';

/** Anthropic's minimum for extended thinking. */
export const MIN_THINKING_BUDGET_TOKENS = 1024;

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
  /** Anthropic extended thinking (>= MIN_THINKING_BUDGET_TOKENS); ignored by OpenAI, whose reasoning is the model's own. */
  thinkingBudgetTokens?: number | undefined;
  /** The SDK's transport (its documented `fetch` option); defaults to the built-in fetch. */
  fetch?: typeof globalThis.fetch | undefined;
}

/** A thinking budget the API would refuse is refused when the client is built, before any call. */
export function checkThinkingBudget(budget: number | undefined): void {
  if (budget !== undefined && (!Number.isInteger(budget) || budget < MIN_THINKING_BUDGET_TOKENS)) {
    throw new RangeError(`thinking budget must be an integer >= ${MIN_THINKING_BUDGET_TOKENS} tokens, got ${budget}`);
  }
}
