import { create } from 'zustand';
import { chooseLanguage, type Language, type LanguageChoice } from '../../../shared/i18n/languages';
import { wordsFor, type Words } from '../../../shared/i18n/translate';

/** The system's locales as this page sees them: Electron's (from the shell, through the preload), then the browser's. */
export const systemLocales = (): string[] => [...(window.amc?.locale ? [window.amc.locale] : []), ...navigator.languages, navigator.language];

/** The window's language: the system's until the settings arrive, then the Language setting's choice. */
export const useLanguageStore = create<{ language: Language; choose(choice: LanguageChoice | undefined): void }>()((set) => ({
  language: chooseLanguage(undefined, systemLocales()),
  choose: (choice) => set({ language: chooseLanguage(choice, systemLocales()) }),
}));

/** The window's words outside React (a store reporting an error); views use `useWords`. */
export const currentWords = (): Words => wordsFor(useLanguageStore.getState().language);
