import type { z } from 'zod';
import {
  type SettingsDraft,
  type SettingsProblem,
  type SettingsScreen,
  type SettingsUpdateResult,
  type UnsavedSettings,
} from '../shared/contract/settings';
import {
  ENV_OVERRIDE_FIELDS,
  SECRET_NAMES,
  SettingsPatchSchema,
  SettingsSchema,
  defaultSettings,
  mergeSettings,
  type SecretName,
  type Settings,
  type SettingsPatch,
} from '../shared/settings';
import type { EventHub } from './ipc/event-hub';
import { applyEnvironment, applyTaskOverrides, ConfigError, resolveRuntimeConfig, type ConfigSource, type RuntimeConfig, type TaskOverrides } from '../core/runtime/config';
import type { ConnectionReport } from '../shared/connection-report';
import { testConnection } from './connection-check';
import { issuePath, issueSaid } from '../shared/issue-said';
import { wordCode, type Said, type SaidCode, type SaidValues } from '../shared/said';

/** A validation issue as a reason a person can act on ("must be 1,024 or more"), by code, not the schema's wording. */
const problemsOf = (error: z.ZodError): SettingsProblem[] =>
  error.issues.map((issue) => settingsProblem(issuePath(issue) || '(settings)', issueSaid(issue)));

/** A problem with a field: its English words, and the code a window words in its language. */
const settingsProblem = (field: string, said: Said): SettingsProblem => ({ field, message: wordCode(said.code as SaidCode, said.values), said });
const sayProblem = (field: string, code: SaidCode, values: SaidValues = {}): SettingsProblem => settingsProblem(field, { code, values });

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Groups and fields a draft may name; anything else is reported instead of silently dropped. */
function unknownFields(draft: SettingsDraft): SettingsProblem[] {
  const known = defaultSettings();
  const problems: SettingsProblem[] = [];
  for (const [group, fields] of Object.entries(draft)) {
    if (!(group in known)) {
      problems.push(sayProblem(group, 'schema.unknownSettingsGroup', { groups: Object.keys(known).join(', ') }));
      continue;
    }
    for (const field of Object.keys(fields ?? {})) {
      if (!(field in known[group as keyof Settings])) problems.push(sayProblem(`${group}.${field}`, 'schema.unknownSetting'));
    }
  }
  return problems;
}

/**
 * Settings as the UI sees them: validated as typed, saved atomically, secrets write-only. Every change is
 * announced (`settings.changed`) and takes effect for the next task, because tasks read the configuration
 * afresh when they start.
 */
export class SettingsService {
  constructor(
    private readonly config: ConfigSource,
    private readonly events: Pick<EventHub, 'publish'>,
    private readonly env: NodeJS.ProcessEnv,
    /** Called after the stored settings changed (e.g. to reconnect to another adb server). */
    private readonly onSaved: (settings: Settings) => void = () => {},
  ) {}

  /** Stored settings, secret states, environment overrides and any problem with either. Never a secret value. */
  async screen(): Promise<SettingsScreen> {
    let settings: Settings;
    let problem: string | null = null;
    try {
      settings = await this.config.settingsStore.load();
    } catch (error) {
      settings = defaultSettings();
      problem = message(error);
    }
    let stored: RuntimeConfig['secrets'] = {};
    try {
      stored = await this.config.secretStore.load();
    } catch (error) {
      problem = [problem, message(error)].filter(Boolean).join(' ');
    }
    const environment = applyEnvironment({ settings, secrets: stored }, this.env);
    const { settings: effective, envOverrides, secrets } = environment.config;
    if (environment.problems.length) {
      problem = [problem, `Environment: ${new ConfigError(environment.problems).message}`].filter(Boolean).join(' ');
    }
    const secretStates = Object.fromEntries(SECRET_NAMES.map((name) => [name, secrets[name] ? 'set' : 'not set'])) as SettingsScreen['secrets'];
    const overriddenFields = Object.fromEntries(envOverrides.map((name) => [ENV_OVERRIDE_FIELDS[name], name]));
    const folder = this.config.settingsStore.folder;
    return { settings, secrets: secretStates, effective, envOverrides, folder, overriddenFields, problem, keyStorage: this.config.secretStore.description.text, keyStorageSaid: this.config.secretStore.description.said };
  }

  /** The problems a draft would have once merged into the stored settings (none: it can be saved). */
  async validate(draft: SettingsDraft): Promise<SettingsProblem[]> {
    return (await this.check(draft)).problems;
  }

  async update(draft: SettingsDraft): Promise<SettingsUpdateResult> {
    const { problems, patch } = await this.check(draft);
    if (problems.length || !patch) return { saved: false, problems: problems.length ? problems : [sayProblem('(settings)', 'schema.nothingToSave')] };
    const saved = await this.config.settingsStore.update(patch);
    this.onSaved(saved);
    return { saved: true, view: await this.announce() };
  }

  async setSecret(name: SecretName, value: string | null): Promise<SettingsScreen> {
    await this.config.secretStore.set(name, value);
    return this.announce();
  }

  /**
   * The AI planner settings (with the environment), tested with one tiny real request: the saved ones, or with the
   * form's unsaved changes on top (nothing is written).
   */
  async testConnection({ unsaved, ...overrides }: TaskOverrides & { unsaved?: UnsavedSettings }): Promise<ConnectionReport> {
    const notConfigured = (reason: string): ConnectionReport => ({ result: 'not-configured', message: reason, model: null, latencyMs: null, target: 'the AI planner' });
    let config: RuntimeConfig | undefined;
    try {
      config = unsaved ? await this.withUnsaved(unsaved) : await this.config.load();
    } catch (error) {
      return notConfigured(message(error));
    }
    if (!config) return notConfigured('Some unsaved settings are not valid yet; correct the fields marked in red first.');
    return testConnection(applyTaskOverrides(config, overrides));
  }

  /** The stored settings and secrets with the unsaved ones on top (undefined when the draft is not valid). */
  private async withUnsaved(unsaved: UnsavedSettings): Promise<RuntimeConfig | undefined> {
    const { merged: settings } = await this.check(unsaved.patch);
    if (!settings) return undefined;
    const secrets = { ...(await this.config.secretStore.load()), ...unsaved.secrets };
    return resolveRuntimeConfig({ settings, secrets }, this.env);
  }

  private async announce(): Promise<SettingsScreen> {
    const screen = await this.screen();
    this.events.publish('settings.changed', screen);
    return screen;
  }

  private async check(draft: SettingsDraft): Promise<{ problems: SettingsProblem[]; patch?: SettingsPatch; merged?: Settings }> {
    const unknown = unknownFields(draft);
    const shaped = SettingsPatchSchema.safeParse(draft);
    if (!shaped.success || unknown.length) return { problems: [...unknown, ...(shaped.success ? [] : problemsOf(shaped.error))] };
    let stored: Settings;
    try {
      stored = await this.config.settingsStore.load();
    } catch (error) {
      return { problems: [{ field: '(settings)', message: message(error) }] };
    }
    const merged = SettingsSchema.safeParse(mergeSettings(stored, shaped.data));
    return merged.success ? { problems: [], patch: shaped.data, merged: merged.data } : { problems: problemsOf(merged.error) };
  }
}
