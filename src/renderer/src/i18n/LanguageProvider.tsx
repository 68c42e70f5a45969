import { useEffect, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18nextFor } from '../../../shared/i18n/translate';
import { useSettingsStore } from '../store/settings-store';
import { useLanguageStore } from './language-store';

/**
 * Gives every view the window's language: the Language setting in effect (saved, or AMC_LANGUAGE), else the
 * system's. The page's `lang` follows, so screen readers and fonts pick the right voice and glyphs.
 */
export function LanguageProvider({ children }: { children: ReactNode }) {
  const choice = useSettingsStore((s) => s.screen?.effective.interface.language);
  const language = useLanguageStore((s) => s.language);
  useEffect(() => useLanguageStore.getState().choose(choice), [choice]);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  return <I18nextProvider i18n={i18nextFor(language)}>{children}</I18nextProvider>;
}
