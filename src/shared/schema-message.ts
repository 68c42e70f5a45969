// The English catalog itself, not the translator: schemas that use this are loaded while the catalogs are.
import SAID from './i18n/catalogs/en/said';

/** A schema's own message, declared in the `schema` group of the `said` catalog. */
export type SchemaCode = `schema.${keyof typeof SAID.schema}`;
type Values = Record<string, string | number>;

/** The codes of the schemas' messages that were made, by their English text. */
const SAID_BY_MESSAGE = new Map<string, { code: SchemaCode; values: Values }>();

/**
 * A schema's own message (`.min(1, schemaMessage('schema.chooseDevice'))`): its English words when an issue is made,
 * known by its code from then on (`schemaMessageSaid`), so a window words it in its own language.
 */
export function schemaMessage(code: SchemaCode, values: Values = {}): { error: () => string } {
  return {
    error: () => {
      const { text } = schemaSaying(code, values);
      SAID_BY_MESSAGE.set(text, { code, values });
      return text;
    },
  };
}

/** A message of the `schema` group that names a value (an entry of a setting's text): its English words and its code, to carry in an issue's `params.said`. */
export interface SchemaSaying {
  text: string;
  said: { code: SchemaCode; values: Values };
}
export function schemaSaying(code: SchemaCode, values: Values = {}): SchemaSaying {
  const english: string = SAID.schema[code.slice('schema.'.length) as keyof typeof SAID.schema];
  return { text: english.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? '')), said: { code, values } };
}

/** The code of a message `schemaMessage` made, if it is one. */
export const schemaMessageSaid = (message: string): { code: SchemaCode; values: Values } | undefined => SAID_BY_MESSAGE.get(message);
