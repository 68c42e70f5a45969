/**
 * `${name}` in a flow's strings. Values come from the file's `vars`, `--var name=value`, and, while the flow runs,
 * from `ask_ai` steps that extract an answer `into` a variable; `${` always starts a reference.
 */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The variable names a text refers to, in order. */
export function referencedVariables(text: string): string[] {
  return [...text.matchAll(REFERENCE)].map((match) => match[1]!);
}

/** The value with every `${name}` whose name `values` holds replaced, in every string at any depth; the rest is kept. */
export function fillVariables<T>(value: T, values: Readonly<Record<string, string>>): T {
  if (typeof value === 'string') return value.replace(REFERENCE, (reference, name: string) => (Object.hasOwn(values, name) ? values[name]! : reference)) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => fillVariables(item, values)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillVariables(item, values)])) as T;
  }
  return value;
}

/** Every string inside a value with its path (for reporting a reference where it is written). */
export function stringsWithPaths(value: unknown, path: (string | number)[] = []): { path: (string | number)[]; text: string }[] {
  if (typeof value === 'string') return [{ path, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringsWithPaths(item, [...path, index]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => stringsWithPaths(item, [...path, key]));
  return [];
}
