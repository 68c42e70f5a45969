/**
 * The interface languages and how one is chosen: a person's choice in Settings (or `AMC_LANGUAGE`), else the
 * system's locale (Electron's, the browser's, or `LC_ALL`/`LC_MESSAGES`/`LANG` in a terminal), else English.
 * Only the interface follows it: what the model receives stays English whatever is chosen.
 */

export const LANGUAGES = ['en', 'zh-CN'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language named in English, for the model's prompt (which stays English). */
export const LANGUAGE_NAMES_IN_ENGLISH: Record<Language, string> = { en: 'English', 'zh-CN': 'Simplified Chinese (zh-CN)' };

/** The Settings choice: follow the system, or one language. */
export const LANGUAGE_CHOICES = ['system', ...LANGUAGES] as const;
export type LanguageChoice = (typeof LANGUAGE_CHOICES)[number];

/**
 * The supported language a locale tag asks for, or null: `zh`, `zh-CN`, `zh_CN.UTF-8`, `zh-Hans-CN` are Simplified
 * Chinese; `en`, `en_US.UTF-8` English. `C` and `POSIX` (a terminal with no locale) name no language.
 */
export function languageOfTag(tag: string | null | undefined): Language | null {
  const normal = tag?.trim().replace(/\..*$/, '').replace(/@.*$/, '').replace(/_/g, '-').toLowerCase();
  if (!normal) return null;
  if (normal === 'zh' || normal.startsWith('zh-cn') || normal.startsWith('zh-hans') || normal.startsWith('zh-sg')) return 'zh-CN';
  if (normal === 'en' || normal.startsWith('en-')) return 'en';
  return null;
}

/** The language to show: the person's choice, else the first system tag that names a supported language, else English. */
export function chooseLanguage(choice: LanguageChoice | undefined, systemTags: ReadonlyArray<string | null | undefined>): Language {
  if (choice && choice !== 'system') return choice;
  for (const tag of systemTags) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return 'en';
}

/**
 * A terminal's language: `AMC_LANGUAGE` (the Language setting's variable) wins, then the POSIX order
 * `LC_ALL`, `LC_MESSAGES`, `LANG`.
 */
export function languageFromEnvironment(env: Readonly<Record<string, string | undefined>>): Language {
  const chosen = env.AMC_LANGUAGE?.trim();
  const choice = LANGUAGE_CHOICES.find((candidate) => candidate.toLowerCase() === chosen?.toLowerCase());
  return chooseLanguage(choice ?? (languageOfTag(chosen) || undefined), [env.LC_ALL, env.LC_MESSAGES, env.LANG]);
}

/** The locale numbers, dates and money are written in: English keeps the machine's or browser's own; Chinese its own. */
export const numberLocaleOf = (language: Language): string | undefined => (language === 'en' ? undefined : language);
