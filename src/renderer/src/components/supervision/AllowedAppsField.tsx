import { create } from 'zustand';
import { useWords } from '../../i18n/use-words';


/** The goal box's per-task scope: the apps (names or packages) the next task may use (empty: any app). */
const useAllowedApps = create<{ text: string; set(text: string): void }>()((set) => ({ text: '', set: (text) => set({ text }) }));

/** `allowedApps` for tasks.run from the field's text (commas between apps: a name may have spaces); nothing when empty. */
export function allowedAppsOption(): { allowedApps?: string[] } {
  const apps = useAllowedApps
    .getState()
    .text.split(',')
    .map((app) => app.trim())
    .filter(Boolean);
  return apps.length ? { allowedApps: [...new Set(apps)] } : {};
}

/** An option of the goal box: the apps this task may launch and act in; main checks each name. */
export function AllowedAppsField() {
  const { text, set } = useAllowedApps();
  const { t } = useWords();
  return (
    <details className="goal-options">
      <summary>{t('app:supervision.options')}</summary>
      <label htmlFor="allowed-apps">{t('app:supervision.allowedApps')}</label>
      <input
        id="allowed-apps"
        value={text}
        maxLength={2000}
        placeholder={t('app:supervision.allowedAppsPlaceholder')}
        onChange={(event) => set(event.target.value)}
      />
    </details>
  );
}
