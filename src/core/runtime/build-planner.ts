import {
  createCloudProxyClient,
  createProviderClient,
  preloadProviderSdk,
  type CloudProxyClientOptions,
  type ProviderClientOptions,
  type ToolCallingClient,
} from '@amc/provider-clients';
import { MODEL_TOOL_SPECS } from '../tools/registry';
import { createAIPlanner } from './ai-planner';
import { aiPlannerSetup, createConfigSource, ConfigError, missingForAiPlanner, type ConfigSource, type RuntimeConfig } from './config';
import { createStubPlanner } from './stub-planner';
import type { ConfiguredPlanner, PlannerSource } from './planner';
import { taskPoliciesFrom } from './task-policies';
import { chooseLanguage, type Language } from '../../shared/i18n/languages';

/**
 * Loads the provider SDK the configured AI planner talks through directly, so that the first decision of a process
 * that runs many tasks (a fleet worker) does not wait 2-5 s for it. Nothing is loaded for the stub planner or the
 * cloud-proxy transport, and nothing is sent.
 */
export async function preloadPlannerClient(config: RuntimeConfig): Promise<void> {
  const setup = aiPlannerSetup(config);
  if (config.settings.aiPlanner.enabled && setup.transport === 'direct') await preloadProviderSdk(setup.provider);
}

/** What the AI planner's client is built from, per transport: the settings as the client takes them. */
export type ClientOptions =
  | { transport: 'cloud-proxy'; options: CloudProxyClientOptions }
  | { transport: 'direct'; options: ProviderClientOptions };

/** The configured client's options; missing credentials are a ConfigError naming what to set. */
export function clientOptions(config: RuntimeConfig): ClientOptions {
  const missing = missingForAiPlanner({ ...config, settings: { ...config.settings, aiPlanner: { ...config.settings.aiPlanner, enabled: true } } });
  if (missing.length) throw new ConfigError(missing);
  const setup = aiPlannerSetup(config);
  if (setup.transport === 'cloud-proxy') {
    return { transport: 'cloud-proxy', options: { url: config.settings.controlPlane.url, token: config.secrets.CONTROL_PLANE_TOKEN!, timeoutMs: setup.timeoutMs } };
  }
  const apiKey = setup.provider === 'anthropic' ? config.secrets.ANTHROPIC_API_KEY! : config.secrets.OPENAI_API_KEY!;
  return {
    transport: 'direct',
    options: {
      provider: setup.provider,
      apiKey,
      baseURL: config.settings[setup.provider].baseURL || undefined,
      model: setup.model,
      timeoutMs: setup.timeoutMs,
      thinkingBudgetTokens: setup.provider === 'anthropic' ? setup.thinkingBudgetTokens : undefined,
    },
  };
}

/**
 * The AI planner's tool-calling client for the configured transport: cloud-proxy (the default) sends the
 * decision to the control plane and builds no provider SDK; direct builds the provider's client locally, whose
 * SDK loads on its first decision (a task with the AI planner disabled never loads @anthropic-ai/sdk or openai).
 */
export function buildToolCallingClient(config: RuntimeConfig): ToolCallingClient {
  const built = clientOptions(config);
  return built.transport === 'cloud-proxy' ? createCloudProxyClient(built.options) : createProviderClient(built.options);
}

/** The stub planner unless the AI planner is enabled (seed D6), with the configured step budget. */
export function buildPlanner(config: RuntimeConfig, client?: ToolCallingClient, personLanguage?: Language): ConfiguredPlanner {
  const maxSteps = config.settings.aiPlanner.maxSteps;
  if (!config.settings.aiPlanner.enabled) return { planner: createStubPlanner(), maxSteps, policies: taskPoliciesFrom(config.settings, undefined) };
  const setup = aiPlannerSetup(config);
  const explicitModel = config.settings.aiPlanner.model || undefined;
  const planner = createAIPlanner({
    client: client ?? buildToolCallingClient(config),
    tools: MODEL_TOOL_SPECS,
    info: { provider: setup.provider, transport: setup.transport, model: setup.transport === 'direct' ? setup.model : explicitModel },
    sendScreenshot: setup.sendScreenshot,
    // The control plane chooses provider and model; the configured ones travel as a hint.
    prompt: {
      // The window says which language it shows; elsewhere (the CLI, MCP, schedules) the Language setting or the system's.
      personLanguage: personLanguage ?? chooseLanguage(config.settings.interface.language, [process.env.LC_ALL, process.env.LC_MESSAGES, process.env.LANG]),
      ...(setup.transport === 'cloud-proxy' && { modelHint: { provider: setup.provider, ...(explicitModel ? { model: explicitModel } : {}) } }),
    },
  });
  // Through the cloud proxy the control plane may pick another model: only an explicitly configured one is priced.
  const pricedModel = setup.transport === 'direct' ? setup.model : explicitModel;
  return { planner, maxSteps, policies: taskPoliciesFrom(config.settings, pricedModel) };
}

/** Reads configuration afresh for every task, so settings changes apply to the next task without a restart. */
export function plannerSourceFrom(configSource: ConfigSource = createConfigSource()): PlannerSource {
  return async () => buildPlanner(await configSource.load());
}
