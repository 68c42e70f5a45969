import { create } from 'zustand';
import type { SettingsProblem, SettingsScreen } from '../../../shared/contract';
import type { ConnectionReport } from '../../../shared/connection-report';
import { valuesFromSettings, type FieldValue } from '../components/settings/fields';

export type SettingsFormStatus = 'idle' | 'checking' | 'saving' | 'saved';

export interface SettingsState {
  /** What main says is stored and in effect (secrets only as "set" / "not set"). */
  screen: SettingsScreen | null;
  /** The form's values per field path, as typed. */
  values: Record<string, FieldValue>;
  /** The reason each field's value is not accepted, by field path. */
  problems: Record<string, string>;
  status: SettingsFormStatus;
  /** The last "Test connection" answer (cleared when the saved settings change). */
  lastConnectionTest: ConnectionReport | null;
  setConnectionTest(report: ConnectionReport | null): void;
  /** Replaces what main holds; the form starts over from it unless the person has unsaved edits. */
  setScreen(screen: SettingsScreen, options?: { keepEdits?: boolean }): void;
  setValue(path: string, value: FieldValue): void;
  setProblems(problems: SettingsProblem[]): void;
  setStatus(status: SettingsFormStatus): void;
  discardEdits(): void;
}

const byField = (problems: SettingsProblem[]) => Object.fromEntries(problems.map((problem) => [problem.field, problem.message]));

export const useSettingsStore = create<SettingsState>()((set) => ({
  screen: null,
  values: {},
  problems: {},
  status: 'idle',
  lastConnectionTest: null,
  setConnectionTest: (lastConnectionTest) => set({ lastConnectionTest }),
  setScreen: (screen, options) =>
    set((state) => ({
      screen,
      // A test of other settings proves nothing about these.
      lastConnectionTest: state.screen && JSON.stringify(state.screen.effective) !== JSON.stringify(screen.effective) ? null : state.lastConnectionTest,
      values: options?.keepEdits && state.screen ? state.values : valuesFromSettings(screen.settings),
      problems: options?.keepEdits ? state.problems : {},
    })),
  setValue: (path, value) => set((state) => ({ values: { ...state.values, [path]: value }, status: 'idle' })),
  setProblems: (problems) => set({ problems: byField(problems) }),
  setStatus: (status) => set({ status }),
  discardEdits: () =>
    set((state) => ({ values: state.screen ? valuesFromSettings(state.screen.settings) : {}, problems: {}, status: 'idle' })),
}));
