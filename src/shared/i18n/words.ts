// The shape of a language's words, apart from the catalogs: modules the catalogs load (the settings catalog and what
// it reads) can take words without importing the catalogs back.
import type { Language } from './languages';

/** A message by its key (`area:path.to.key`), with its `{{placeholders}}` filled in. */
export type Translate = (key: string, values?: Record<string, unknown>) => string;

/** What every surface needs to word something in one language: its messages and the locale for numbers and dates. */
export interface Words {
  language: Language;
  /** For Intl: undefined means the runtime's own (the machine's or the browser's) locale. */
  locale: string | undefined;
  t: Translate;
}
