import { z } from 'zod';
import { PROVIDERS, SETTINGS_CATALOG, TRANSPORTS, type CatalogEntry, type SecretEntry, type StoredEntry } from './settings-catalog';

export { LIMITS, PROVIDERS, TRANSPORTS } from './settings-catalog';

/**
 * Persisted settings (settings.json in the app's data folder). Secrets are not part of them: they live in a
 * separate store and only their state ("set" / "not set") ever leaves the main process.
 */

export const ProviderSchema = z.enum(PROVIDERS);
export const TransportSchema = z.enum(TRANSPORTS);

/** The model used when none is configured, per provider. */
export const DEFAULT_MODELS: Record<z.infer<typeof ProviderSchema>, string> = {
  anthropic: 'claude-sonnet-4-6',
  openai: 'gpt-5.4-mini',
};

const isStored = (entry: CatalogEntry): entry is StoredEntry => !entry.secret;
const isSecret = (entry: CatalogEntry): entry is SecretEntry => entry.secret;
/** The settings kept in settings.json (everything in the catalog but the secrets). */
export const STORED_SETTINGS: readonly StoredEntry[] = SETTINGS_CATALOG.filter(isStored);

type GroupName = StoredEntry['group'];
type EntriesOf<G extends GroupName> = Extract<StoredEntry, { group: G }>;
/** Settings groups in catalog order (`aiPlanner`, `anthropic`, ...). */
export const SETTING_GROUPS = [...new Set(STORED_SETTINGS.map((entry) => entry.group))] as readonly GroupName[];

/** One zod schema per field of a group, chosen by `schemaOf`; typed by the catalog (StoredShape, PatchShape below). */
function groupShape(group: GroupName, schemaOf: (entry: StoredEntry) => z.ZodType): Record<string, z.ZodType> {
  return Object.fromEntries(STORED_SETTINGS.filter((entry) => entry.group === group).map((entry) => [entry.key, schemaOf(entry)]));
}
const byGroup = <S extends z.ZodType>(schemaOf: (group: GroupName) => S) => Object.fromEntries(SETTING_GROUPS.map((group) => [group, schemaOf(group)]));

type StoredShape = { [G in GroupName]: z.ZodPrefault<z.ZodObject<{ [E in EntriesOf<G> as E['key']]: E['schema'] }>> };
/** What a patch accepts for a field: its type only. */
type LooseSchema<E extends StoredEntry> = E['kind'] extends 'toggle'
  ? z.ZodBoolean
  : E extends { kind: 'number'; nullable: true }
    ? z.ZodNullable<z.ZodNumber>
    : E['kind'] extends 'number'
      ? z.ZodNumber
      : z.ZodString;
type PatchShape = { [G in GroupName]: z.ZodOptional<z.ZodObject<{ [E in EntriesOf<G> as E['key']]: z.ZodOptional<LooseSchema<E>> }>> };

// The runtime objects are built from the catalog; the types say the same thing at compile time (one assertion each).
export const SettingsSchema = z.object(byGroup((group) => z.object(groupShape(group, (entry) => entry.schema)).prefault({})) as unknown as StoredShape);

export type Provider = z.infer<typeof ProviderSchema>;
export type Transport = z.infer<typeof TransportSchema>;
export type Settings = z.infer<typeof SettingsSchema>;
export type AiPlannerSettings = Settings['aiPlanner'];
/** A stored setting's dotted path, e.g. `aiPlanner.maxSteps`. */
export type SettingPath = StoredEntry['path'];

export const defaultSettings = (): Settings => SettingsSchema.parse({});

/** The patch accepts a field's type only (a choice is any text), so range problems are reported by SettingsSchema. */
function looseSchema(entry: StoredEntry): z.ZodType {
  switch (entry.kind) {
    case 'toggle':
      return z.boolean();
    case 'number':
      return entry.nullable ? z.number().nullable() : z.number();
    case 'choice':
    case 'text':
    case 'url':
      return z.string();
  }
}

/**
 * A change to some settings: every group and field optional, types only (no defaults, no ranges), so that
 * the merged result is validated once against SettingsSchema and every problem is reported together.
 */
export const SettingsPatchSchema = z.object(byGroup((group) => z.object(groupShape(group, looseSchema)).partial().optional()) as unknown as PatchShape);
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

/** Applies a patch group by group (a shallow merge per group). */
export function mergeSettings(settings: Settings, patch: SettingsPatch): unknown {
  return Object.fromEntries(SETTING_GROUPS.map((group) => [group, { ...settings[group], ...patch[group] }]));
}

export const SECRET_NAMES = SETTINGS_CATALOG.filter(isSecret).map((entry) => entry.key) as [SecretEntry['key'], ...SecretEntry['key'][]];
export const SecretNameSchema = z.enum(SECRET_NAMES);
export type SecretName = z.infer<typeof SecretNameSchema>;

/** Setting or clearing (null) one secret; the value is write-only from the UI's side. */
export const SecretValueSchema = z.string().trim().min(1).max(4096);
export const SecretUpdateSchema = z.object({
  name: SecretNameSchema,
  value: SecretValueSchema.nullable(),
});
export type SecretUpdate = z.infer<typeof SecretUpdateSchema>;

export const SecretStateSchema = z.enum(['set', 'not set']);

type EnvEntry = Extract<CatalogEntry, { env: string }>;
export type EnvOverrideName = EnvEntry['env'];
/** The environment variables that can override a setting or a secret, in catalog order. */
export const ENV_OVERRIDES = SETTINGS_CATALOG.flatMap((entry) => ('env' in entry && entry.env ? [entry.env] : [])) as [
  EnvOverrideName,
  ...EnvOverrideName[],
];
export const EnvOverrideNameSchema = z.enum(ENV_OVERRIDES);

/** The settings field (dotted path) or secret (`secrets.NAME`) each environment variable replaces. */
export const ENV_OVERRIDE_FIELDS = Object.fromEntries(
  SETTINGS_CATALOG.flatMap((entry) => ('env' in entry && entry.env ? [[entry.env, entry.path]] : [])),
) as Record<EnvOverrideName, CatalogEntry['path']>;

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
