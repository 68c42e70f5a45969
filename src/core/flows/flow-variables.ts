/**
 * `${name}` in a flow's strings. Values come from the file's `vars`, `--var name=value`, and, while the flow runs,
 * from `ask_ai` and `copy_text` steps that keep a value `into` a variable. `$${` is a literal `${` (a screen's own
 * `${PRICE}` or a shell prompt), so a flow can name any text a screen shows.
 *
 * A flow's strings stay in this written form until a step is carried out: reading a file fills the values it knows
 * and keeps each `$${` (a value filled in is itself written, so its own `${` stays literal); only the step being run
 * is resolved (resolveVariables), once, to the words it acts on.
 */
const ESCAPE_OR_REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** A text as a flow writes it: every `${` it holds is literal. */
export const writtenLiteral = (text: string): string => text.replaceAll('${', () => '$${');

/** A written text and a literal text after it, as one written text (a `$` at the end and a `{` that follows stay literal). */
export function joinedWritten(written: string, literal: string): string {
  return written.endsWith('$') && literal.startsWith('{') ? `${written}$${writtenLiteral(literal)}` : `${written}${writtenLiteral(literal)}`;
}

/** The variable names a text refers to, in order (a `$${` refers to none). */
export function referencedVariables(text: string): string[] {
  return [...text.matchAll(ESCAPE_OR_REFERENCE)].flatMap((match) => (match[1] === undefined ? [] : [match[1]]));
}

/** Every string in a value at any depth, mapped. */
function eachString<T>(value: T, map: (text: string) => string): T {
  if (typeof value === 'string') return map(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => eachString(item, map)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, eachString(item, map)])) as T;
  return value;
}

/** Literal texts (read off a screen, typed by a person) as a flow writes them, in every string at any depth. */
export const writtenLiterals = <T>(value: T): T => eachString(value, writtenLiteral);

/** The written value with every `${name}` whose name `values` holds filled in; the rest, `$${` included, is kept written. */
export function fillVariables<T>(value: T, values: Readonly<Record<string, string>>): T {
  return eachString(value, (text) =>
    text.replace(ESCAPE_OR_REFERENCE, (found, name: string | undefined) => (name !== undefined && Object.hasOwn(values, name) ? writtenLiteral(values[name]!) : found)),
  );
}

/** The words a step acts on: each `${name}` `values` holds filled in and each `$${` read as `${` (a reference with no value is kept as written). */
export function resolveVariables<T>(value: T, values: Readonly<Record<string, string>>): T {
  return eachString(value, (text) =>
    text.replace(ESCAPE_OR_REFERENCE, (found, name: string | undefined) => (name === undefined ? '${' : Object.hasOwn(values, name) ? values[name]! : found)),
  );
}

/** Every string inside a value with its path (for reporting a reference where it is written). */
export function stringsWithPaths(value: unknown, path: (string | number)[] = []): { path: (string | number)[]; text: string }[] {
  if (typeof value === 'string') return [{ path, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringsWithPaths(item, [...path, index]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => stringsWithPaths(item, [...path, key]));
  return [];
}
