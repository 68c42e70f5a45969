import { shellLine } from './shell-line';

/** The Android API level a phone runs. */
export const SDK_PROPERTY = 'ro.build.version.sdk';

/** `getprop`: every system property (read once per phone, see phone-facts.ts). */
export const getprop = {
  all: () => shellLine(['getprop']),
};

/** `getprop` (all) output -> key -> value, from its `[key]: [value]` lines (a value may span lines). */
export function parseProperties(output: string): Map<string, string> {
  const properties = new Map<string, string>();
  for (const match of output.replace(/\r\n/g, '\n').matchAll(/^\[([^\]\n]+)\]: \[([\s\S]*?)\]$/gm)) properties.set(match[1]!, match[2]!);
  return properties;
}
