import { setI18n, useTranslation } from 'react-i18next';
import type { Language } from '../../../shared/i18n/languages';
import { i18nextFor, wordsFor, type Words } from '../../../shared/i18n/translate';
import { useLanguageStore } from './language-store';

// A view drawn outside LanguageProvider (a component test) gets the system's language rather than bare keys.
setI18n(i18nextFor(useLanguageStore.getState().language));

/**
 * The window's words for a view: `t('app:…')` for its own messages, and the whole `Words` for the shared words
 * functions (task outcomes, actions, durations). A change of language re-renders every view that uses it.
 */
export function useWords(): Words {
  const { i18n } = useTranslation();
  return wordsFor(i18n.language as Language);
}
