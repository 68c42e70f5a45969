import { useEffect, useRef } from 'react';
import { create } from 'zustand';
import { useAppStore } from '../../store/app-store';
import { useTaskControls } from './use-task-controls';

const useHelpStore = create<{ open: boolean }>()(() => ({ open: false }));
export const openShortcutsHelp = (): void => useHelpStore.setState({ open: true });

const SHORTCUTS: Array<[keys: string, what: string]> = [
  ['Enter', 'Run the goal (in the goal box)'],
  ['Shift+Enter', 'New line in the goal box'],
  ['Ctrl+Enter / ⌘+Enter', 'Run the goal, wherever the focus is'],
  ['Esc', 'Stop the running task (asks first)'],
  ['Space', 'Pause or resume, when the timeline has the focus'],
  ['↑ ↓ Enter', 'Move through History and open a task'],
  ['/', 'Search History (on the History tab)'],
  ['Typing on the phone', 'Click the phone first: letters, Enter and Backspace go to it'],
  ['← → on the divider', 'Make the phone smaller or larger'],
  ['?', 'This list'],
];

/** Where a key is text being typed, not a shortcut. */
export const isTypingTarget = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** Asks before stopping: a stopped task cannot be resumed. */
export function confirmStop(goal: string | undefined): boolean {
  return window.confirm(`Stop the task${goal ? ` "${goal}"` : ''}? It cannot be resumed.`);
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
      const somethingOnTop = useAppStore.getState().settingsOpen || useHelpStore.getState().open;
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        run();
      } else if (event.key === 'Escape' && running && !somethingOnTop) {
        event.preventDefault();
        if (confirmStop(task?.goal)) stop();
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
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal?.();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} className="shortcuts-help" aria-labelledby="shortcuts-title" onClose={() => useHelpStore.setState({ open: false })}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <table>
        <tbody>
          {SHORTCUTS.map(([keys, what]) => (
            <tr key={keys}>
              <th scope="row">
                <kbd>{keys}</kbd>
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="dialog">
        <button type="submit" className="button secondary">
          Close
        </button>
      </form>
    </dialog>
  );
}
