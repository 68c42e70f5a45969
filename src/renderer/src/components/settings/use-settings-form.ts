import { useCallback, useEffect, useRef } from 'react';
import type { SecretName } from '../../../../shared/settings';
import { useBridge } from '../../bridge-context';
import { reportError } from '../../store/app-store';
import { unsavedSettings, useSettingsStore } from '../../store/settings-store';

const VALIDATE_DELAY_MS = 200;

/**
 * Validates the form as the person types (local number checks at once, then main's `settings.validate`) and
 * saves it: changed fields through `settings.update`, then each typed secret through `settings.setSecret`.
 * Answers to older keystrokes are ignored.
 */
export function useSettingsForm(): { changed: number; save(): Promise<void> } {
  const bridge = useBridge();
  const screen = useSettingsStore((s) => s.screen);
  const values = useSettingsStore((s) => s.values);
  const changed = useSettingsStore((s) => unsavedSettings(s).changed);
  const generation = useRef(0);

  useEffect(() => {
    if (!screen) return;
    const { setProblems, setStatus } = useSettingsStore.getState();
    const { patch, problems: local } = unsavedSettings({ screen, values, typedSecrets: {} });
    const current = ++generation.current;
    if (Object.keys(patch).length === 0 && local.length === 0) {
      setProblems([]);
      return;
    }
    setStatus('checking');
    const timer = setTimeout(() => {
      bridge
        .call('settings.validate', { patch })
        .then((answer) => {
          if (current !== generation.current) return;
          setProblems([...local, ...answer.problems]);
          setStatus('idle');
        })
        .catch((error: unknown) => {
          if (current === generation.current) setStatus('idle');
          reportError(error);
        });
    }, VALIDATE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [bridge, screen, values]);

  const save = useCallback(async () => {
    const state = useSettingsStore.getState();
    if (!state.screen) return;
    const { patch, secrets, problems } = unsavedSettings(state);
    if (problems.length > 0) return state.setProblems(problems);
    generation.current++;
    state.setStatus('saving');
    try {
      let view = state.screen;
      if (Object.keys(patch).length > 0) {
        const answer = await bridge.call('settings.update', { patch });
        if (!answer.saved) {
          state.setProblems(answer.problems);
          state.setStatus('idle');
          return;
        }
        view = answer.view;
      }
      for (const [name, value] of Object.entries(secrets) as [SecretName, string][]) {
        view = await bridge.call('settings.setSecret', { name, value });
        state.secretSaved(name);
      }
      state.setScreen(view);
      state.setStatus('saved');
    } catch (error) {
      state.setStatus('idle');
      reportError(error);
    }
  }, [bridge]);

  return { changed, save };
}
