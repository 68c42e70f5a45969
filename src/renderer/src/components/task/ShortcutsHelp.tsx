import { useEffect, useRef } from 'react';
import { create } from 'zustand';
import { currentWords } from '../../i18n/language-store';
import { useWords } from '../../i18n/use-words';
import { useAppStore } from '../../store/app-store';
import { useTaskControls } from './use-task-controls';
import { askConfirm, useConfirmStore } from '../../store/confirm-store';

const useHelpStore = create<{ open: boolean }>()(() => ({ open: false }));
export const openShortcutsHelp = (): void => useHelpStore.setState({ open: true });

/** Each shortcut's keys (as printed on them, or a message key when they need words) and what it does (a message key). */
const SHORTCUTS: Array<[keys: string, what: string]> = [
  ['Enter', 'app:shortcuts.run'],
  ['Shift+Enter', 'app:shortcuts.newLine'],
  ['Ctrl+Enter / ⌘+Enter', 'app:shortcuts.runAnywhere'],
  ['Esc', 'app:shortcuts.stop'],
  ['Space', 'app:shortcuts.pause'],
  ['↑ ↓ Enter', 'app:shortcuts.history'],
  ['/', 'app:shortcuts.search'],
  ['I', 'inspect:shortcut'],
  ['app:shortcuts.typingKeys', 'app:shortcuts.typing'],
  ['app:shortcuts.dividerKeys', 'app:shortcuts.resize'],
  ['?', 'app:shortcuts.list'],
];
const keysWords = (keys: string, t: (key: string) => string) => (keys.startsWith('app:') ? t(keys) : keys);

/** Where a key is text being typed, not a shortcut. */
export const isTypingTarget = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** Asks before stopping, in the window's own dialog: a stopped task cannot be resumed. */
export function confirmStop(goal: string | undefined): Promise<boolean> {
  const { t } = currentWords();
  return askConfirm(goal ? t('app:task.confirmStopGoal', { goal }) : t('app:task.confirmStop'), t('app:goal.stop'));
}

/** Ctrl/Cmd+Enter runs, Esc stops (after asking), ? opens this list, anywhere on the page. */
function useGlobalShortcuts() {
  const controls = useTaskControls();
  const latest = useRef(controls);
  latest.current = controls;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const { run, stop, running, task } = latest.current;
      const somethingOnTop = useAppStore.getState().settingsOpen || useHelpStore.getState().open || useConfirmStore.getState().request !== null;
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        run();
      } else if (event.key === 'Escape' && running && !somethingOnTop) {
        event.preventDefault();
        void confirmStop(task?.goal).then((yes) => yes && stop());
      } else if (event.key === '?' && !isTypingTarget(event.target) && !somethingOnTop) {
        event.preventDefault();
        openShortcutsHelp();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}

/** The page's keyboard shortcuts, and the list of them ("?"). */
export function ShortcutsHelp() {
  useGlobalShortcuts();
  const open = useHelpStore((s) => s.open);
  const dialog = useRef<HTMLDialogElement>(null);
  const { t } = useWords();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal?.();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} className="shortcuts-help" aria-labelledby="shortcuts-title" onClose={() => useHelpStore.setState({ open: false })}>
      <h2 id="shortcuts-title">{t('app:shortcuts.title')}</h2>
      <table>
        <tbody>
          {SHORTCUTS.map(([keys, what]) => (
            <tr key={keys}>
              <th scope="row">
                <kbd>{keysWords(keys, t)}</kbd>
              </th>
              <td>{t(what)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="dialog">
        <button type="submit" className="button secondary">
          {t('app:common.close')}
        </button>
      </form>
    </dialog>
  );
}
