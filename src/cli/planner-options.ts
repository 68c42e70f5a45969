import { ConfigurationError, UsageError } from './command';
import { PROVIDERS, TRANSPORTS, LIMITS, type Provider, type Transport } from '../shared/settings';
import type { TaskOverrides } from '../shared/contract/tasks';
import { terminalWords } from './terminal-words';

/** The per-run planner choices `amc run` and `amc eval` take; each given one wins over Settings and the environment. */
export const plannerOptions = {
  planner: { type: 'string' },
  provider: { type: 'string' },
  transport: { type: 'string' },
  model: { type: 'string' },
  'max-steps': { type: 'string' },
} as const;
export const PLANNER_OPTIONS_USAGE = '[--planner stub|ai] [--provider anthropic|openai] [--transport cloud-proxy|direct] [--model M] [--max-steps N]';

function oneOf<T extends string>(option: string, value: string | undefined, accepted: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if ((accepted as readonly string[]).includes(value)) return value as T;
  throw new UsageError(terminalWords().t('cli:usageError.oneOf', { option, accepted: accepted.join(', '), value }));
}

type PlannerValues = { [K in keyof typeof plannerOptions]?: string };

export function plannerOverrides(values: PlannerValues): TaskOverrides {
  const overrides = {
    planner: oneOf('--planner', values.planner, ['stub', 'ai'] as const),
    provider: oneOf<Provider>('--provider', values.provider, PROVIDERS),
    transport: oneOf<Transport>('--transport', values.transport, TRANSPORTS),
    model: values.model?.trim() || undefined,
  };
  return Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined)) as TaskOverrides;
}

export function maxStepsOf(values: PlannerValues): number | undefined {
  const value = values['max-steps'];
  if (value === undefined) return undefined;
  const { min, max } = LIMITS.maxSteps;
  const steps = Number(value);
  if (!/^\d+$/.test(value) || steps < min || steps > max) throw new UsageError(terminalWords().t('cli:args.wholeNumber', { option: '--max-steps', min, max, value }));
  return steps;
}

/**
 * Settings + environment + these overrides, with the planner they configure; a configuration problem (a
 * missing key, a damaged settings file) is a UsageError in plain words, and nothing has started.
 */
export async function configuredPlannerFor(overrides: TaskOverrides) {
  const { createConfigSource, applyTaskOverrides, ConfigError } = await import('../core/runtime/config');
  const { buildPlanner } = await import('../core/runtime/build-planner');
  const { SettingsFileError } = await import('../core/storage/settings-store');
  try {
    const config = applyTaskOverrides(await createConfigSource().load(), overrides);
    return { config, configured: buildPlanner(config) };
  } catch (error) {
    if (error instanceof ConfigError || error instanceof SettingsFileError) throw new ConfigurationError(error.message);
    throw error;
  }
}

