import { shellLine } from './shell-line';

/** The Android API level a phone runs. */
export const SDK_PROPERTY = 'ro.build.version.sdk';

/** `getprop`: one system property, or all of them. */
export const getprop = {
  all: () => shellLine(['getprop']),
  one: (key: string) => shellLine(['getprop', key]),
};

/** `getprop` (all) output -> key -> value, from its `[key]: [value]` lines (a value may span lines). */
export function parseProperties(output: string): Map<string, string> {
  const properties = new Map<string, string>();
  for (const match of output.replace(/\r\n/g, '\n').matchAll(/^\[([^\]\n]+)\]: \[([\s\S]*?)\]$/gm)) properties.set(match[1]!, match[2]!);
  return properties;
}

/** `getprop KEY` output -> the value; undefined when the property is not set (it prints an empty line). */
export function parseProperty(output: string): string | undefined {
  const value = output.trim();
  return value === '' ? undefined : value;
}
