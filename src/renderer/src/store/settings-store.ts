import { create } from 'zustand';
import type { SettingsProblem, SettingsScreen, UnsavedSettings } from '../../../shared/contract';
import { ConnectionReportSchema, type ConnectionReport } from '../../../shared/connection-report';
import type { SecretName } from '../../../shared/settings';
import { SETTINGS_CATALOG } from '../../../shared/settings-catalog';
import { draftFromValues, valuesFromSettings, type FieldValue } from '../components/settings/fields';
import { wordSaid } from '../../../shared/said';
import { currentWords } from '../i18n/language-store';

export type SettingsFormStatus = 'idle' | 'checking' | 'saving' | 'saved';

export interface SettingsState {
  /** What main says is stored and in effect (secrets only as "set" / "not set"). */
  screen: SettingsScreen | null;
  /** The form's values per field path, as typed. */
  values: Record<string, FieldValue>;
  /** Secrets typed but not yet saved; they go to main on Save and are never read back. */
  typedSecrets: Partial<Record<SecretName, string>>;
  /** The reason each field's value is not accepted, by field path. */
  problems: Record<string, string>;
  status: SettingsFormStatus;
  /** The last "Test connection" answer, kept until a setting the test depends on changes. */
  lastConnectionTest: ConnectionReport | null;
  setConnectionTest(report: ConnectionReport | null): void;
  /** A secret was saved: a new key (or token) for the model makes the last test say nothing about it. */
  secretSaved(name: SecretName): void;
  /** The secret whose field should take the keyboard once the drawer shows it ("I have an API key"). */
  focusSecret: SecretName | null;
  requestFocus(name: SecretName | null): void;
  /** Replaces what main holds; the form starts over from it unless the person has unsaved edits. */
  setScreen(screen: SettingsScreen, options?: { keepEdits?: boolean }): void;
  setValue(path: string, value: FieldValue): void;
  setTypedSecret(name: SecretName, value: string): void;
  setProblems(problems: SettingsProblem[]): void;
  setStatus(status: SettingsFormStatus): void;
  discardEdits(): void;
}

const TESTED_KEY = 'amc.modelTested';

/** The settings a "Test connection" depends on: provider, model and transport, and what reaches the provider or the control plane. */
const CONNECTION_ENTRIES = SETTINGS_CATALOG.filter(
  (entry) => ['aiPlanner.provider', 'aiPlanner.model', 'aiPlanner.transport'].includes(entry.path) || entry.appliesTo.some((use) => use !== 'app' && use !== 'ai-planner'),
);

/** The configuration a test tested: those settings in effect and which of their secrets are set. */
function testedConfiguration(screen: SettingsScreen): string {
  return JSON.stringify(
    CONNECTION_ENTRIES.map((entry) =>
      entry.secret ? [entry.path, screen.secrets[entry.key]] : [entry.path, (screen.effective as unknown as Record<string, Record<string, unknown>>)[entry.group]?.[entry.key]],
    ),
  );
}

/** A passed "Test connection" is remembered across reloads, for the configuration it tested. */
function rememberedTest(screen: SettingsScreen): ConnectionReport | null {
  try {
    const saved = JSON.parse(localStorage.getItem(TESTED_KEY) ?? 'null') as { settings?: unknown; report?: unknown } | null;
    if (saved?.settings !== testedConfiguration(screen)) return null;
    const report = ConnectionReportSchema.safeParse(saved.report);
    return report.success && report.data.result === 'ok' ? report.data : null;
  } catch {
    return null;
  }
}

function rememberTest(screen: SettingsScreen, report: ConnectionReport | null): void {
  try {
    if (report?.result === 'ok') localStorage.setItem(TESTED_KEY, JSON.stringify({ settings: testedConfiguration(screen), report }));
    else localStorage.removeItem(TESTED_KEY);
  } catch {
    // Storage can be unavailable; the checklist then asks for a test again after a reload.
  }
}

/**
 * Everything the form holds that is not saved: changed fields (as a draft, with the problems told without asking
 * main) and typed secrets. `changed` counts both, so a typed key is an unsaved change like any other.
 */
export function unsavedSettings(state: Pick<SettingsState, 'screen' | 'values' | 'typedSecrets'>): UnsavedSettings & { problems: SettingsProblem[]; changed: number } {
  const secrets = Object.fromEntries(Object.entries(state.typedSecrets).filter(([, value]) => value?.trim())) as UnsavedSettings['secrets'];
  if (!state.screen) return { patch: {}, secrets, problems: [], changed: 0 };
  const { draft, problems, changed } = draftFromValues(state.values, state.screen.settings);
  return { patch: draft, secrets, problems, changed: changed + Object.keys(secrets).length };
}

/** Each field's problem in the window's words (main's carry a code; the form's own are worded already). */
const byField = (problems: SettingsProblem[]) => Object.fromEntries(problems.map((problem) => [problem.field, wordSaid(problem.message, problem.said, currentWords())]));

export const useSettingsStore = create<SettingsState>()((set) => ({
  screen: null,
  values: {},
  typedSecrets: {},
  problems: {},
  status: 'idle',
  lastConnectionTest: null,
  focusSecret: null,
  requestFocus: (focusSecret) => set({ focusSecret }),
  setConnectionTest: (lastConnectionTest) =>
    set((state) => {
      if (state.screen) rememberTest(state.screen, lastConnectionTest);
      return { lastConnectionTest };
    }),
  secretSaved: (name) =>
    set((state) => {
      if (!CONNECTION_ENTRIES.some((entry) => entry.secret && entry.key === name)) return {};
      if (state.screen) rememberTest(state.screen, null);
      return { lastConnectionTest: null };
    }),
  setScreen: (screen, options) =>
    set((state) => ({
      screen,
      // A test of another configuration proves nothing about this one; saving anything else keeps it.
      lastConnectionTest:
        state.screen && testedConfiguration(state.screen) !== testedConfiguration(screen)
          ? rememberedTest(screen)
          : (state.lastConnectionTest ?? rememberedTest(screen)),
      values: options?.keepEdits && state.screen ? state.values : valuesFromSettings(screen.settings),
      typedSecrets: options?.keepEdits ? state.typedSecrets : {},
      problems: options?.keepEdits ? state.problems : {},
    })),
  setValue: (path, value) => set((state) => ({ values: { ...state.values, [path]: value }, status: 'idle' })),
  setTypedSecret: (name, value) => set((state) => ({ typedSecrets: { ...state.typedSecrets, [name]: value }, status: 'idle' })),
  setProblems: (problems) => set({ problems: byField(problems) }),
  setStatus: (status) => set({ status }),
  discardEdits: () =>
    set((state) => ({ values: state.screen ? valuesFromSettings(state.screen.settings) : {}, typedSecrets: {}, problems: {}, status: 'idle' })),
}));
