/**
 * Text that came from outside (another program's Redis writes, a job payload) as it may be printed on one line: control
 * characters, terminal escape sequences and direction overrides shown as visible escapes (`\x1b`, `\n`, `\u202e`),
 * so such text can neither move the cursor, recolour the terminal, start a line of its own nor reorder what follows.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is what this is for
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function shownText(text: string): string {
  return text.replace(UNPRINTABLE, (char) => NAMED[char] ?? `\\${char.charCodeAt(0) < 0x100 ? `x${char.charCodeAt(0).toString(16).padStart(2, '0')}` : `u${char.charCodeAt(0).toString(16).padStart(4, '0')}`}`);
}

/** Every string inside a value passed through shownText (for a view made of several such texts). */
export function shownTexts<T>(value: T): T {
  if (typeof value === 'string') return shownText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => shownTexts(item)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shownTexts(item)])) as T;
  return value;
}
