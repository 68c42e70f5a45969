import { useWords } from '../../i18n/use-words';
import { useAppStore } from '../../store/app-store';
import { useSettingsStore } from '../../store/settings-store';
import { incompleteLabel, incompleteSetup } from './setup-state';

/** Next to the goal box, before Run: the saved AI planner cannot run yet, and where to fix it. */
export function IncompleteNote() {
  const screen = useSettingsStore((s) => s.screen);
  const openSettings = useAppStore((s) => s.toggleSettings);
  const words = useWords();
  const { t } = words;
  const label = incompleteLabel(incompleteSetup(screen), words);
  if (!label) return null;
  return (
    <span className="incomplete-note" data-testid="goal-incomplete">
      {' '}
      · <span className="warning-text">{t('app:settings.incompleteNote', { what: label })}</span>{' '}
      <button type="button" className="button link" onClick={() => openSettings(true)}>
        {t('app:common.openSettings')}
      </button>
    </span>
  );
}
