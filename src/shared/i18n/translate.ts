import i18next, { type i18n } from 'i18next';
import { CATALOGS, AREAS } from './catalogs';
import { numberLocaleOf, type Language } from './languages';
import type { Words } from './words';

export type { Translate, Words } from './words';


function instanceFor(language: Language): i18n {
  const instance = i18next.createInstance();
  // Synchronous: the catalogs are in memory, so the first word is ready before the first render or line.
  void instance.init({
    lng: language,
    fallbackLng: 'en',
    resources: CATALOGS,
    ns: [...AREAS],
    defaultNS: 'common',
    initAsync: false,
    // Values are escaped where they are shown (React, the HTML report), never twice.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}

const instances = new Map<Language, i18n>();

/** The i18next instance of one language, made once per process (react-i18next's provider takes it too). */
export function i18nextFor(language: Language): i18n {
  let instance = instances.get(language);
  if (!instance) {
    instance = instanceFor(language);
    instances.set(language, instance);
  }
  return instance;
}

const words = new Map<Language, Words>();

/** The words of one language (the same object every time, so a view can depend on it). */
export function wordsFor(language: Language): Words {
  let found = words.get(language);
  if (!found) {
    // The instance is made at the first word, not here: ENGLISH is made while modules the catalogs load are still loading.
    found = { language, locale: numberLocaleOf(language), t: (key, values) => i18nextFor(language).t(key, values ?? {}) as string };
    words.set(language, found);
  }
  return found;
}

/** English, for what the model and the records receive (never translated) and the default of every words function. */
export const ENGLISH: Words = wordsFor('en');
