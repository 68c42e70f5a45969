import { z } from 'zod';

/**
 * Persisted settings (settings.json in the app's data folder). Secrets are not part of them: they live in a
 * separate store and only their state ("set" / "not set") ever leaves the main process.
 */

export const PROVIDERS = ['anthropic', 'openai'] as const;
export const TRANSPORTS = ['cloud-proxy', 'direct'] as const;

export const ProviderSchema = z.enum(PROVIDERS);
export const TransportSchema = z.enum(TRANSPORTS);

/** The model used when none is configured, per provider. */
export const DEFAULT_MODELS: Record<z.infer<typeof ProviderSchema>, string> = {
  anthropic: 'claude-sonnet-4-6',
  openai: 'gpt-5.4-mini',
};

export const LIMITS = {
  timeoutSeconds: { min: 1, max: 600 },
  thinkingBudgetTokens: { min: 1024, max: 32_000 },
  maxSteps: { min: 1, max: 500 },
  screenshotLongEdge: { min: 256, max: 2048 },
} as const;

const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => /^https?:\/\/[^\s/]+/.test(value) && URL.canParse(value), { message: 'must be an http(s) URL' });

const int = (range: { min: number; max: number }) =>
  z.number().int().min(range.min).max(range.max);

export const AiPlannerSettingsSchema = z.object({
  /** Off by default: the stub planner runs and no model is called. */
  enabled: z.boolean().default(false),
  provider: ProviderSchema.default('anthropic'),
  /** Empty means the provider's default model (DEFAULT_MODELS). */
  model: z.string().trim().max(200).default(''),
  transport: TransportSchema.default('cloud-proxy'),
  timeoutSeconds: int(LIMITS.timeoutSeconds).default(30),
  /** Anthropic extended thinking budget; null disables thinking. */
  thinkingBudgetTokens: int(LIMITS.thinkingBudgetTokens).nullable().default(null),
  maxSteps: int(LIMITS.maxSteps).default(30),
  /** Send the turn's screenshot to the model (the Scene is always sent). */
  sendScreenshot: z.boolean().default(true),
  /** Long edge the screenshot is downscaled to before it is sent (1456 fits a 9:16 screen unscaled). */
  screenshotLongEdge: int(LIMITS.screenshotLongEdge).default(1456),
});

export const SettingsSchema = z.object({
  aiPlanner: AiPlannerSettingsSchema.prefault({}),
  /** Empty base URL means the provider's public endpoint. */
  anthropic: z.object({ baseURL: z.union([z.literal(''), httpUrl]).default('') }).prefault({}),
  /** Any OpenAI-compatible server (Ollama, vLLM, LM Studio) works through this base URL. */
  openai: z.object({ baseURL: z.union([z.literal(''), httpUrl]).default('') }).prefault({}),
  controlPlane: z.object({ url: z.union([z.literal(''), httpUrl]).default('') }).prefault({}),
  adb: z
    .object({
      host: z.string().trim().min(1).max(253).default('127.0.0.1'),
      port: z.number().int().min(1).max(65535).default(5037),
    })
    .prefault({}),
});

export type Provider = z.infer<typeof ProviderSchema>;
export type Transport = z.infer<typeof TransportSchema>;
export type AiPlannerSettings = z.infer<typeof AiPlannerSettingsSchema>;
export type Settings = z.infer<typeof SettingsSchema>;

export const defaultSettings = (): Settings => SettingsSchema.parse({});

/**
 * A change to some settings: every group and field optional, types only (no defaults, no ranges), so that
 * the merged result is validated once against SettingsSchema and every problem is reported together.
 */
export const SettingsPatchSchema = z.object({
  aiPlanner: z
    .object({
      enabled: z.boolean(),
      provider: z.string(),
      model: z.string(),
      transport: z.string(),
      timeoutSeconds: z.number(),
      thinkingBudgetTokens: z.number().nullable(),
      maxSteps: z.number(),
      sendScreenshot: z.boolean(),
      screenshotLongEdge: z.number(),
    })
    .partial()
    .optional(),
  anthropic: z.object({ baseURL: z.string() }).partial().optional(),
  openai: z.object({ baseURL: z.string() }).partial().optional(),
  controlPlane: z.object({ url: z.string() }).partial().optional(),
  adb: z.object({ host: z.string(), port: z.number() }).partial().optional(),
});
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

/** Applies a patch group by group (a shallow merge per group). */
export function mergeSettings(settings: Settings, patch: SettingsPatch): unknown {
  return {
    aiPlanner: { ...settings.aiPlanner, ...patch.aiPlanner },
    anthropic: { ...settings.anthropic, ...patch.anthropic },
    openai: { ...settings.openai, ...patch.openai },
    controlPlane: { ...settings.controlPlane, ...patch.controlPlane },
    adb: { ...settings.adb, ...patch.adb },
  };
}

export const SECRET_NAMES = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'CONTROL_PLANE_TOKEN'] as const;
export const SecretNameSchema = z.enum(SECRET_NAMES);
export type SecretName = z.infer<typeof SecretNameSchema>;

/** Setting or clearing (null) one secret; the value is write-only from the UI's side. */
export const SecretUpdateSchema = z.object({
  name: SecretNameSchema,
  value: z.string().trim().min(1).max(4096).nullable(),
});
export type SecretUpdate = z.infer<typeof SecretUpdateSchema>;

export const SecretStateSchema = z.enum(['set', 'not set']);

/** The environment variables that can override a setting or a secret. */
export const ENV_OVERRIDES = [
  'AI_PLANNER_ENABLED',
  'AI_PLANNER_PROVIDER',
  'AI_PLANNER_MODEL',
  'AI_PLANNER_TRANSPORT',
  'AI_PLANNER_TIMEOUT_SECONDS',
  'AI_PLANNER_THINKING_BUDGET_TOKENS',
  'AI_PLANNER_MAX_STEPS',
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'ANTHROPIC_BASE_URL',
  'OPENAI_BASE_URL',
  'CONTROL_PLANE_URL',
  'CONTROL_PLANE_TOKEN',
  'ANDROID_ADB_SERVER_PORT',
] as const;
export const EnvOverrideNameSchema = z.enum(ENV_OVERRIDES);
export type EnvOverrideName = z.infer<typeof EnvOverrideNameSchema>;

/**
 * What the UI may see: the stored settings, each secret's state (never its value), the effective values
 * after environment overrides, and which environment variables are in effect.
 */
export const SettingsViewSchema = z.object({
  settings: SettingsSchema,
  secrets: z.record(SecretNameSchema, SecretStateSchema),
  effective: SettingsSchema,
  envOverrides: z.array(EnvOverrideNameSchema),
  /** Where settings.json lives (so a person can find it). */
  folder: z.string(),
});
export type SettingsView = z.infer<typeof SettingsViewSchema>;

/** One line per problem, naming the setting by its dotted path, e.g. `aiPlanner.maxSteps: Too big: expected ...`. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.map(String).join('.') || '(settings)'}: ${issue.message}`);
}
