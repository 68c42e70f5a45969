import { languageFromEnvironment } from '../shared/i18n/languages';
import { wordsFor, type Words } from '../shared/i18n/translate';

/**
 * The terminal's words: `AMC_LANGUAGE`, else `LC_ALL` / `LC_MESSAGES` / `LANG`, else English. What a command prints
 * for people follows it; `--json` output and anything a model receives do not.
 */
export const terminalWords = (env: NodeJS.ProcessEnv = process.env): Words => wordsFor(languageFromEnvironment(env));
