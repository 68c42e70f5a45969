import { z } from 'zod';
import { schemaMessage } from '../schema-message';
import { EnvOverrideNameSchema, ProviderSchema, SecretNameSchema, SecretUpdateSchema, SecretValueSchema, SettingsViewSchema, TransportSchema, type Settings } from '../settings';
import { ConnectionReportSchema } from '../connection-report';
import { defineEvents, defineMethods, NoInput } from './define';
import { SaidSchema } from '../said';

/**
 * SettingsView plus, per overridden field, the environment variable that wins over it
 * (e.g. `{ "aiPlanner.model": "AI_PLANNER_MODEL" }`), and any problem with the environment itself.
 */
export const SettingsScreenSchema = SettingsViewSchema.extend({
  overriddenFields: z.record(z.string(), EnvOverrideNameSchema),
  /** Why the stored settings or the environment cannot be used as they are (null when fine). */
  problem: z.string().nullable(),
  /** Where and how API keys are kept (an OS keychain, or only a file readable by the user), in plain words. */
  keyStorage: z.string(),
  /** keyStorage's code, for a window in another language. */
  keyStorageSaid: SaidSchema.optional(),
});
export type SettingsScreen = z.infer<typeof SettingsScreenSchema>;

/** One reason a value is not accepted; `field` is the dotted path, e.g. `aiPlanner.maxSteps`. */
/** `said`: the reason's code, for a window in another language. */
export const SettingsProblemSchema = z.object({ field: z.string(), message: z.string(), said: SaidSchema.optional() });
export type SettingsProblem = z.infer<typeof SettingsProblemSchema>;

/**
 * A change to some settings as the form sends it: any group, any field, any value (a half-typed number is
 * fine). The handler checks it against the Settings schema so every problem comes back per field instead of
 * as a failed call.
 */
export type SettingsDraft = { [G in keyof Settings]?: { [K in keyof Settings[G]]?: unknown } };
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const SettingsDraftSchema = z.custom<SettingsDraft>(
  (value) => isPlainObject(value) && Object.values(value).every((group) => group === undefined || isPlainObject(group)),
  schemaMessage('schema.settingsGroups'),
);
const patchInput = z.object({ patch: SettingsDraftSchema }).strict();

/** What the form holds but has not saved: changed fields and typed secrets (sent to main, never sent back). */
export const UnsavedSettingsSchema = z
  .object({ patch: SettingsDraftSchema, secrets: z.partialRecord(SecretNameSchema, SecretValueSchema) })
  .strict();
export type UnsavedSettings = z.infer<typeof UnsavedSettingsSchema>;

export const SettingsValidationSchema = z.object({ valid: z.boolean(), problems: z.array(SettingsProblemSchema) });

export const SettingsUpdateResultSchema = z.discriminatedUnion('saved', [
  z.object({ saved: z.literal(true), view: SettingsScreenSchema }),
  z.object({ saved: z.literal(false), problems: z.array(SettingsProblemSchema).min(1) }),
]);
export type SettingsUpdateResult = z.infer<typeof SettingsUpdateResultSchema>;

export const settingsMethods = defineMethods({
  /** Secrets only as "set" / "not set". */
  'settings.get': { input: NoInput, output: SettingsScreenSchema },
  /** As-you-type check of a patch against the stored settings; nothing is written. */
  'settings.validate': { input: patchInput, output: SettingsValidationSchema },
  /** Validates, saves atomically, and applies to the next task. */
  'settings.update': { input: patchInput, output: SettingsUpdateResultSchema },
  /** Write-only: sets (or with null clears) one secret; the answer never contains it. */
  'settings.setSecret': { input: SecretUpdateSchema.strict(), output: SettingsScreenSchema },
  /**
   * One tiny real request with the saved AI planner settings (and environment), optionally for another provider or
   * transport, and with the form's unsaved changes on top: direct asks the provider for one decision; cloud-proxy
   * checks the control plane's health, then one decision.
   */
  'settings.testConnection': {
    input: z.object({ provider: ProviderSchema.optional(), transport: TransportSchema.optional(), unsaved: UnsavedSettingsSchema.optional() }).strict(),
    output: ConnectionReportSchema,
  },
});

export const settingsEvents = defineEvents({
  'settings.changed': SettingsScreenSchema,
});
