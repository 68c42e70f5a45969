/**
 * @amc/provider-clients: one tool call per planner decision, from Anthropic, OpenAI (or a compatible server) or the
 * Cloud Control Plane, behind one ToolCallingClient interface, for the app's runtime and the control plane alike.
 * Loading this entry loads no provider SDK: a direct client imports its SDK on its first decision, so a process
 * with the AI planner off or on the cloud-proxy transport never loads @anthropic-ai/sdk or openai.
 */
import type { ToolCallingClient } from './decision';
import { checkThinkingBudget, type ProviderClientOptions } from './client-options';
import { registerSecret } from './redact';

export * from './contract';
export { createCloudProxyClient, CONTROL_PLANE_DECISION_PATH, type CloudProxyClientOptions } from './cloud-proxy-client';
export type { ProviderClientOptions } from './client-options';

const loadAnthropicClient = () => import('./anthropic-client');
const loadOpenAIClient = () => import('./openai-client');

async function sdkClient(options: ProviderClientOptions): Promise<ToolCallingClient> {
  switch (options.provider) {
    case 'anthropic':
      return (await loadAnthropicClient()).createAnthropicClient(options);
    case 'openai':
      return (await loadOpenAIClient()).createOpenAIClient(options);
  }
}

/**
 * Imports one provider's SDK now, so that the first decision of a process that runs many tasks (a fleet worker) does
 * not wait the 2-5 s the import takes. Nothing is sent.
 */
export async function preloadProviderSdk(provider: ProviderClientOptions['provider']): Promise<void> {
  await (provider === 'anthropic' ? loadAnthropicClient() : loadOpenAIClient());
}

/**
 * A direct-to-provider ToolCallingClient (no hidden SDK retries; every failure is a ToolCallUnavailable). Bad
 * options are refused here, before any call; the provider's SDK is imported on the first decision.
 */
export function createProviderClient(options: ProviderClientOptions): ToolCallingClient {
  checkThinkingBudget(options.thinkingBudgetTokens);
  // From now on every message this process shows, stores or logs hides this key.
  registerSecret(options.apiKey);
  let client: Promise<ToolCallingClient> | undefined;
  return {
    provider: options.provider,
    async decide(request, context) {
      client ??= sdkClient(options);
      return (await client).decide(request, context);
    },
  };
}
