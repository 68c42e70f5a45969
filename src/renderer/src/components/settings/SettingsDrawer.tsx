import { useEffect, useRef } from 'react';
import { useWords } from '../../i18n/use-words';
import { useAppStore } from '../../store/app-store';
import { SettingsForm } from './SettingsForm';
import { AppNotesSection } from '../notes/AppNotesSection';
import { PlanCacheSection } from '../notes/PlanCacheSection';

/** Settings slide in over the right edge; Escape or Close puts focus back where it was. */
export function SettingsDrawer() {
  const open = useAppStore((s) => s.settingsOpen);
  const toggleSettings = useAppStore((s) => s.toggleSettings);
  const heading = useRef<HTMLHeadingElement>(null);
  const { t } = useWords();
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    heading.current?.focus();
    // Escape closes it wherever the focus is: a disabled Save (after saving) drops the focus onto the page.
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') toggleSettings(false);
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('keydown', closeOnEscape);
      previous?.focus();
    };
  }, [open, toggleSettings]);
  if (!open) return null;
  return (
    <aside
      className="settings-drawer"
      role="dialog"
      aria-modal="false"
      aria-labelledby="settings-title"
    >
      <div className="drawer-header">
        <h2 id="settings-title" tabIndex={-1} ref={heading}>
          {t('app:settings.heading')}
        </h2>
        <button type="button" className="button secondary" onClick={() => toggleSettings(false)}>
          {t('app:common.close')}
        </button>
      </div>
      <SettingsForm />
      <AppNotesSection />
      <PlanCacheSection />
    </aside>
  );
}
