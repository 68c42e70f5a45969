import { registerSecret, urlHasCredentials } from '@amc/provider-clients';
import { urlProblem, SETTINGS_CATALOG, type CatalogEntry } from '../../shared/settings-catalog';
import { aiPlannerSetupProblems, describeSetupProblem } from '../../shared/setup-problems';
import { ENGLISH, type Words } from '../../shared/i18n/translate';
import {
  DEFAULT_MODELS,
  ENV_OVERRIDE_FIELDS,
  SECRET_NAMES,
  SettingsSchema,
  describeIssues,
  type AiPlannerSettings,
  type EnvOverrideName,
  type Provider,
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
const OFF_WORDS = ['0', 'off', 'none'];

type EnvEntry = Extract<CatalogEntry, { env: string }>;
const ENV_ENTRIES = SETTINGS_CATALOG.filter((entry): entry is EnvEntry => 'env' in entry && entry.env !== undefined);

/** One environment variable's value for its setting, or the reason it cannot be used (naming what is accepted). */
function parseEnvValue(entry: EnvEntry, raw: string): { value: unknown } | { problem: string } {
  const got = `(got ${JSON.stringify(raw)})`;
  const value = raw.trim();
  switch (entry.kind) {
    case 'secret':
    case 'text':
      return { value };
    case 'toggle': {
      const flag = BOOLEANS[value.toLowerCase()];
      return flag === undefined ? { problem: `${entry.env} must be one of true, false, 1, 0, yes, no ${got}` } : { value: flag };
    }
    case 'choice': {
      // Case-blind: a language is written `zh-CN` as often as `zh-cn`.
      const chosen = entry.choices.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
      return chosen === undefined ? { problem: `${entry.env} must be one of ${entry.choices.join(', ')} ${got}` } : { value: chosen };
    }
    case 'url': {
      const problem = urlProblem(value);
      // The value is quoted only without a password in it.
      return problem === null ? { value } : { problem: `${entry.env} ${problem} ${urlHasCredentials(value) ? '' : got}`.trimEnd() };
    }
    case 'number': {
      if (entry.nullable && OFF_WORDS.includes(value.toLowerCase())) return { value: null };
      const { min, max } = entry.range;
      const number = Number(value);
      if (/^-?\d+$/.test(value) && number >= min && number <= max) return { value: number };
      const off = entry.nullable ? `, or 0/off ${entry.off}` : '';
      return { problem: `${entry.env} must be a whole number from ${min} to ${max}${off} ${got}` };
    }
  }
}

/**
 * Stored settings and secrets with every valid environment override applied, and the reasons the others were left
 * out (each naming its variable and what it accepts). Empty variables count as unset. What must work whatever the
 * environment (the device list's adb address, the Settings view) uses this; a task uses `resolveRuntimeConfig`.
 */
export function applyEnvironment(stored: { settings: Settings; secrets: SecretValues }, env: Env = process.env): { config: RuntimeConfig; problems: string[] } {
  const problems: string[] = [];
  const used: EnvOverrideName[] = [];
  const settings = structuredClone(stored.settings);
  const secrets: SecretValues = { ...stored.secrets };
  for (const entry of ENV_ENTRIES) {
    const raw = env[entry.env];
    if (raw === undefined || raw.trim() === '') continue;
    const parsed = parseEnvValue(entry, raw);
    if ('problem' in parsed) {
      problems.push(parsed.problem);
      continue;
    }
    if (entry.secret) secrets[entry.key] = String(parsed.value);
    else (settings[entry.group] as Record<string, unknown>)[entry.key] = parsed.value;
    used.push(entry.env);
  }
  // Every configured key and token is hidden from every message from now on.
  for (const value of Object.values(secrets)) registerSecret(value);
  // The overridden values must satisfy the same schema as stored ones.
  const checked = SettingsSchema.safeParse(settings);
  if (!checked.success) return { config: { ...stored, envOverrides: [] }, problems: [...problems, ...describeIssues(checked.error)] };
  return { config: { settings: checked.data, secrets, envOverrides: used }, problems };
}

/**
 * Applies the environment overrides for a task: every invalid variable is reported at once (ConfigError), and
 * nothing runs on a partly applied environment.
 */
export function resolveRuntimeConfig(stored: { settings: Settings; secrets: SecretValues }, env: Env = process.env): RuntimeConfig {
  const { config, problems } = applyEnvironment(stored, env);
  if (problems.length) throw new ConfigError(problems);
  return config;
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

/** The AI planner's resolved choices, ready to build from: the settings, with the timeout in ms and thinking off as undefined. */
export type AiPlannerSetup = Pick<AiPlannerSettings, 'provider' | 'model' | 'transport' | 'sendScreenshot' | 'screenshotLongEdge'> & {
  timeoutMs: number;
  thinkingBudgetTokens: number | undefined;
};

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

/** What is missing for the AI planner to start (empty when ready or when it is disabled), naming the Settings fields. */
export function missingForAiPlanner(config: RuntimeConfig, words: Words = ENGLISH): string[] {
  const overridden = Object.fromEntries(config.envOverrides.map((name) => [ENV_OVERRIDE_FIELDS[name], name]));
  return aiPlannerSetupProblems(config.settings, (name) => Boolean(config.secrets[name]), overridden).map((problem) =>
    words.t('common:setupProblem.incomplete', { line: describeSetupProblem(problem, words) }),
  );
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
