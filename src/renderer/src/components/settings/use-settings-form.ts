import { useCallback, useEffect, useRef } from 'react';
import { useBridge } from '../../bridge-context';
import { reportError } from '../../store/app-store';
import { useSettingsStore } from '../../store/settings-store';
import { draftFromValues } from './fields';

const VALIDATE_DELAY_MS = 200;

/**
 * Validates the form as the person types (local number checks at once, then main's `settings.validate`) and
 * saves it through `settings.update`. Answers to older keystrokes are ignored.
 */
export function useSettingsForm(): { changed: number; save(): Promise<void> } {
  const bridge = useBridge();
  const screen = useSettingsStore((s) => s.screen);
  const values = useSettingsStore((s) => s.values);
  const generation = useRef(0);
  const changed = screen ? draftFromValues(values, screen.settings).changed : 0;

  useEffect(() => {
    if (!screen) return;
    const { setProblems, setStatus } = useSettingsStore.getState();
    const { draft, problems: local, changed: count } = draftFromValues(values, screen.settings);
    const current = ++generation.current;
    if (count === 0) {
      setProblems([]);
      return;
    }
    setStatus('checking');
    const timer = setTimeout(() => {
      bridge
        .call('settings.validate', { patch: draft })
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
    const { draft, problems } = draftFromValues(state.values, state.screen.settings);
    if (problems.length > 0) return state.setProblems(problems);
    generation.current++;
    state.setStatus('saving');
    try {
      const answer = await bridge.call('settings.update', { patch: draft });
      if (answer.saved) {
        state.setScreen(answer.view);
        state.setStatus('saved');
      } else {
        state.setProblems(answer.problems);
        state.setStatus('idle');
      }
    } catch (error) {
      state.setStatus('idle');
      reportError(error);
    }
  }, [bridge]);

  return { changed, save };
}
