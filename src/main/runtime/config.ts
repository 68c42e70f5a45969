import {
  DEFAULT_MODELS,
  ENV_OVERRIDES,
  LIMITS,
  PROVIDERS,
  SECRET_NAMES,
  SettingsSchema,
  TRANSPORTS,
  describeIssues,
  type EnvOverrideName,
  type Provider,
  type SecretName,
  type Settings,
  type SettingsView,
  type Transport,
} from '../../shared/settings';
import {
  createSecretStore,
  createSettingsStore,
  resolveAmcHome,
  type SecretStore,
  type SecretValues,
  type SettingsStore,
} from '../storage/settings-store';

/** A configuration that cannot be used; the message names each variable or setting and what it accepts. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(problems.length === 1 ? problems[0] : `configuration problems:\n  - ${problems.join('\n  - ')}`);
  }
}

/** Settings and secrets after environment overrides: what the next task runs with. */
export interface RuntimeConfig {
  settings: Settings;
  secrets: SecretValues;
  /** Environment variables that replaced a stored value. */
  envOverrides: EnvOverrideName[];
}

type Env = Readonly<Record<string, string | undefined>>;

const BOOLEANS: Record<string, boolean> = { true: true, '1': true, yes: true, on: true, false: false, '0': false, no: false, off: false };

function integerIn(name: string, raw: string, range: { min: number; max: number }, problems: string[]): number | undefined {
  const value = Number(raw);
  if (/^\s*-?\d+\s*$/.test(raw) && value >= range.min && value <= range.max) return value;
  problems.push(`${name} must be a whole number from ${range.min} to ${range.max} (got ${JSON.stringify(raw)})`);
  return undefined;
}

function oneOf<T extends string>(name: string, raw: string, accepted: readonly T[], problems: string[]): T | undefined {
  const value = raw.trim().toLowerCase() as T;
  if (accepted.includes(value)) return value;
  problems.push(`${name} must be one of ${accepted.join(', ')} (got ${JSON.stringify(raw)})`);
  return undefined;
}

function httpUrl(name: string, raw: string, problems: string[]): string | undefined {
  const value = raw.trim();
  if (/^https?:\/\/[^\s/]+/.test(value) && URL.canParse(value)) return value;
  problems.push(`${name} must be an http(s) URL (got ${JSON.stringify(raw)})`);
  return undefined;
}

/**
 * Applies the environment overrides to stored settings and secrets. Every invalid variable is reported at
 * once (ConfigError); nothing is partly applied. Empty variables count as unset.
 */
export function resolveRuntimeConfig(stored: { settings: Settings; secrets: SecretValues }, env: Env = process.env): RuntimeConfig {
  const problems: string[] = [];
  const used: EnvOverrideName[] = [];
  const settings = structuredClone(stored.settings);
  const secrets: SecretValues = { ...stored.secrets };
  const ai = settings.aiPlanner;
  const read = (name: EnvOverrideName, apply: (raw: string) => boolean) => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return;
    if (apply(raw)) used.push(name);
  };
  const set = <T>(value: T | undefined, assign: (v: T) => void) => {
    if (value === undefined) return false;
    assign(value);
    return true;
  };

  read('AI_PLANNER_ENABLED', (raw) => {
    const value = BOOLEANS[raw.trim().toLowerCase()];
    if (value === undefined) problems.push(`AI_PLANNER_ENABLED must be one of true, false, 1, 0, yes, no (got ${JSON.stringify(raw)})`);
    return set(value, (v) => (ai.enabled = v));
  });
  read('AI_PLANNER_PROVIDER', (raw) => set(oneOf('AI_PLANNER_PROVIDER', raw, PROVIDERS, problems), (v) => (ai.provider = v)));
  read('AI_PLANNER_MODEL', (raw) => set(raw.trim(), (v) => (ai.model = v)));
  read('AI_PLANNER_TRANSPORT', (raw) => set(oneOf('AI_PLANNER_TRANSPORT', raw, TRANSPORTS, problems), (v) => (ai.transport = v)));
  read('AI_PLANNER_TIMEOUT_SECONDS', (raw) =>
    set(integerIn('AI_PLANNER_TIMEOUT_SECONDS', raw, LIMITS.timeoutSeconds, problems), (v) => (ai.timeoutSeconds = v)),
  );
  read('AI_PLANNER_THINKING_BUDGET_TOKENS', (raw) => {
    if (['0', 'off', 'none'].includes(raw.trim().toLowerCase())) return set(null, (v) => (ai.thinkingBudgetTokens = v));
    const range = LIMITS.thinkingBudgetTokens;
    const value = Number(raw);
    if (!/^\s*\d+\s*$/.test(raw) || value < range.min || value > range.max) {
      problems.push(`AI_PLANNER_THINKING_BUDGET_TOKENS must be a whole number from ${range.min} to ${range.max}, or 0/off to disable thinking (got ${JSON.stringify(raw)})`);
      return false;
    }
    return set(value, (v) => (ai.thinkingBudgetTokens = v));
  });
  read('AI_PLANNER_MAX_STEPS', (raw) => set(integerIn('AI_PLANNER_MAX_STEPS', raw, LIMITS.maxSteps, problems), (v) => (ai.maxSteps = v)));
  read('ANTHROPIC_BASE_URL', (raw) => set(httpUrl('ANTHROPIC_BASE_URL', raw, problems), (v) => (settings.anthropic.baseURL = v)));
  read('OPENAI_BASE_URL', (raw) => set(httpUrl('OPENAI_BASE_URL', raw, problems), (v) => (settings.openai.baseURL = v)));
  read('CONTROL_PLANE_URL', (raw) => set(httpUrl('CONTROL_PLANE_URL', raw, problems), (v) => (settings.controlPlane.url = v)));
  read('ANDROID_ADB_SERVER_PORT', (raw) =>
    set(integerIn('ANDROID_ADB_SERVER_PORT', raw, { min: 1, max: 65535 }, problems), (v) => (settings.adb.port = v)),
  );
  for (const name of SECRET_NAMES) read(name, (raw) => set(raw.trim(), (v) => (secrets[name] = v)));

  if (problems.length) throw new ConfigError(problems);
  // The overridden values must satisfy the same schema as stored ones.
  const checked = SettingsSchema.safeParse(settings);
  if (!checked.success) throw new ConfigError(describeIssues(checked.error));
  return { settings: checked.data, secrets, envOverrides: ENV_OVERRIDES.filter((n) => used.includes(n)) };
}

/** Choices for one run that win over settings and environment (UI run options, `amc run` flags). */
export interface TaskOverrides {
  planner?: 'stub' | 'ai';
  provider?: Provider;
  transport?: Transport;
  model?: string;
}

export function applyTaskOverrides(config: RuntimeConfig, overrides: TaskOverrides): RuntimeConfig {
  const ai = config.settings.aiPlanner;
  return {
    ...config,
    settings: {
      ...config.settings,
      aiPlanner: {
        ...ai,
        ...(overrides.planner ? { enabled: overrides.planner === 'ai' } : {}),
        ...(overrides.provider ? { provider: overrides.provider } : {}),
        ...(overrides.transport ? { transport: overrides.transport } : {}),
        // A model name belongs to one provider: switching provider without naming a model takes its default.
        ...(overrides.model ? { model: overrides.model } : overrides.provider && overrides.provider !== ai.provider ? { model: '' } : {}),
      },
    },
  };
}

/** The AI planner's resolved choices, ready to build from. */
export interface AiPlannerSetup {
  provider: Provider;
  model: string;
  transport: Transport;
  timeoutMs: number;
  thinkingBudgetTokens: number | undefined;
  sendScreenshot: boolean;
  screenshotLongEdge: number;
}

export function aiPlannerSetup(config: RuntimeConfig): AiPlannerSetup {
  const ai = config.settings.aiPlanner;
  return {
    provider: ai.provider,
    model: ai.model || DEFAULT_MODELS[ai.provider],
    transport: ai.transport,
    timeoutMs: ai.timeoutSeconds * 1000,
    thinkingBudgetTokens: ai.thinkingBudgetTokens ?? undefined,
    sendScreenshot: ai.sendScreenshot,
    screenshotLongEdge: ai.screenshotLongEdge,
  };
}

const KEY_OF: Record<Provider, SecretName> = { anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' };

/** What is missing for the AI planner to start (empty when ready or when it is disabled). */
export function missingForAiPlanner(config: RuntimeConfig): string[] {
  const ai = config.settings.aiPlanner;
  if (!ai.enabled) return [];
  if (ai.transport === 'direct') {
    const key = KEY_OF[ai.provider];
    return config.secrets[key] ? [] : [`the AI planner calls ${ai.provider} directly but ${key} is not set (Settings or environment)`];
  }
  const missing: string[] = [];
  if (!config.settings.controlPlane.url) missing.push('the AI planner uses the cloud-proxy transport but CONTROL_PLANE_URL is not set (Settings or environment)');
  if (!config.secrets.CONTROL_PLANE_TOKEN) missing.push('the AI planner uses the cloud-proxy transport but CONTROL_PLANE_TOKEN is not set (Settings or environment)');
  return missing;
}

/** Settings and secrets on disk plus the environment: the one place the app, the CLI and the web host load config from. */
export interface ConfigSource {
  readonly settingsStore: SettingsStore;
  readonly secretStore: SecretStore;
  /** Stored values + environment overrides; ConfigError / SettingsFileError when they cannot be used. */
  load(): Promise<RuntimeConfig>;
  /** What the UI may see: no secret values, ever. */
  view(): Promise<SettingsView>;
}

export function createConfigSource(options: { env?: Env; home?: string; secretStore?: SecretStore } = {}): ConfigSource {
  const env = options.env ?? process.env;
  const folder = options.home ?? resolveAmcHome(env as NodeJS.ProcessEnv);
  const settingsStore = createSettingsStore(folder);
  const secretStore = options.secretStore ?? createSecretStore(folder);
  const load = async () => resolveRuntimeConfig({ settings: await settingsStore.load(), secrets: await secretStore.load() }, env);
  return {
    settingsStore,
    secretStore,
    load,
    async view() {
      const settings = await settingsStore.load();
      const config = resolveRuntimeConfig({ settings, secrets: await secretStore.load() }, env);
      const secrets = Object.fromEntries(SECRET_NAMES.map((n) => [n, config.secrets[n] ? 'set' : 'not set'])) as SettingsView['secrets'];
      return { settings, secrets, effective: config.settings, envOverrides: config.envOverrides, folder };
    },
  };
}
