import { z } from 'zod';
import type SAID from './i18n/catalogs/en/said';
import { ENGLISH, type Words } from './i18n/translate';
import { CATALOGS } from './i18n/catalogs';

/**
 * What main says to a person, by code: the message's key in the `said` catalog and the values it is filled with.
 * Main keeps the English text beside it (the records, the CLI, MCP and reports read that); a window words the code
 * in its own language, and shows the English text when it does not know the code (an older history file, a newer
 * main). The English catalog (`catalogs/en/said.ts`) is where every code is declared, with its English words.
 */
export const SaidSchema = z.object({
  code: z.string().min(1).max(200),
  values: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
});
export type Said = z.infer<typeof SaidSchema>;

/** A plural's forms (`steps_one`, `steps_other`) are one message, worded by its `count` value. */
type Singular<Key extends string> = Key extends `${infer Base}_${'one' | 'other'}` ? Base : Key;
/** `group.message` for every message of the English `said` catalog. */
type CodesOf<Tree, Prefix extends string = ''> = {
  [Key in keyof Tree & string]: Tree[Key] extends string ? `${Prefix}${Singular<Key>}` : CodesOf<Tree[Key], `${Prefix}${Key}.`>;
}[keyof Tree & string];
export type SaidCode = CodesOf<typeof SAID>;
export type SaidValues = Record<string, string | number>;

/** A message for people in English (for the records) with the code that words it in the window's language. */
export interface Saying {
  text: string;
  said: Said;
}

/**
 * Values named `…Setting` hold a setting's path (`helpers.download`), `…Section` a Settings section, `…Code`
 * another message's code (without values), and `…Said` a JSON list of messages with their values (`[{"code":…,"values":{…}}]`, joined by the language's "; "): each is shown
 * in the language's own words.
 */
function valuesIn(values: SaidValues, words: Words): SaidValues {
  // A message written before its value carried a code (`error`, now `errorSaid`) shows that value as it was.
  const older = Object.entries(values).filter(([name]) => !name.endsWith('Said') && !(`${name}Said` in values));
  return Object.fromEntries(
    [...Object.entries(values), ...older.map(([name, value]) => [`${name}Said`, value] as const)].map(([name, value]) => {
      if (name.endsWith('Setting')) return [name, words.t(`settings:field.${value}.label`)];
      if (name.endsWith('Section')) return [name, words.t(`settings:section.${value}`)];
      if (name.endsWith('Code') && isKnownCode(String(value))) return [name, words.t(`said:${value}`)];
      if (name.endsWith('Said')) return [name, saidListIn(String(value), words)];
      return [name, value];
    }),
  );
}

/** A `…Said` value: each message worded, in order; a value that is not such a list stays as it is. */
function saidListIn(json: string, words: Words): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return json;
  }
  const list = z.array(SaidSchema).safeParse(parsed);
  if (!list.success) return json;
  return list.data.map((said) => (isKnownCode(said.code) ? wordCode(said.code, said.values, words) : said.code)).join(words.t('common:clauseSeparator'));
}

/** Several messages as one `…Said` value. */
export const saidList = (said: readonly Said[]): string => JSON.stringify(said);

/** Words a code in a language (English by default). */
export function wordCode(code: SaidCode, values: SaidValues = {}, words: Words = ENGLISH): string {
  return words.t(`said:${code}`, valuesIn(values, words));
}

/** Main's side: the English text of a code and the code itself, to carry together. */
export function say(code: SaidCode, values: SaidValues = {}): Saying {
  return { text: wordCode(code, values), said: { code, values } };
}

/** Whether this build's catalogs declare a code (a newer main may send one it does not). */
export function isKnownCode(code: string): code is SaidCode {
  let node: unknown = CATALOGS.en.said;
  for (const part of code.split('.')) {
    if (typeof node !== 'object' || node === null) return false;
    // A plural is known by its `_other` form.
    const key = Object.hasOwn(node, part) ? part : `${part}_other`;
    if (!Object.hasOwn(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'string';
}

/** The code an error carries (a refusal or a damaged file worded by code), when it carries a valid one. */
export function saidOf(error: unknown): Said | undefined {
  const said = SaidSchema.safeParse((error as { said?: unknown } | null)?.said);
  return said.success ? said.data : undefined;
}

/** An error's message with its code beside it when it carries one, else its words alone. */
export function sayingOf(error: unknown): string | Saying {
  const text = error instanceof Error ? error.message : String(error);
  const said = saidOf(error);
  return said ? { text, said } : text;
}

/**
 * A message for a reader: the English text main wrote for an English reader (zod's own words stay as they were, where
 * the text was written apart from its code), else the code's words in the reader's language.
 */
export function textForReader(english: string, said: Said | null | undefined, words: Words): string {
  return words.language === 'en' ? english : wordSaid(english, said, words);
}

/** The window's side: a message in its language when the code is known, else the English text main stored. */
export function wordSaid(english: string, said: Said | null | undefined, words: Words): string {
  return said && isKnownCode(said.code) ? wordCode(said.code, said.values, words) : english;
}
