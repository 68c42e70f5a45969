export { chooseLanguage, languageFromEnvironment, languageOfTag, LANGUAGE_CHOICES, LANGUAGES, type Language, type LanguageChoice } from './languages';
export { ENGLISH, i18nextFor, wordsFor, type Translate, type Words } from './translate';
