import type { UiNode } from './ui-hierarchy';

/**
 * Icon-font glyphs: characters of Unicode's Private Use Areas, which mean nothing outside the app's own font
 * (`\uf103` draws an arrow in one app and a bell in another). They are not labels.
 */
const PRIVATE_USE = /[\uE000-\uF8FF\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}]/gu;

/**
 * Labels keep their inner spacing and line breaks (the planner compares typed text with what it reads), without
 * icon-font glyphs.
 */
export function cleanLabel(value: string): string {
  return value.replace(/\r\n?/g, '\n').replace(PRIVATE_USE, '').trim();
}

export function shortClassName(className: string): string {
  const name = className.slice(className.lastIndexOf('.') + 1);
  return name.slice(name.lastIndexOf('$') + 1) || 'View';
}

export function shortResourceId(resourceId: string): string | undefined {
  if (!resourceId) return undefined;
  const index = resourceId.indexOf(':id/');
  return index >= 0 ? resourceId.slice(index + 4) : resourceId;
}

const WORD_CHAR = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Hangul}\d]/u;

/**
 * Whether `label` already says `part`: it contains it as a whole word (a match inside a longer word or number,
 * such as "1" in "10:01", does not count). Scripts written without spaces (Chinese, Japanese) bound a word anywhere.
 */
export function saysAlready(label: string, part: string): boolean {
  const haystack = label.toLowerCase();
  const needle = part.toLowerCase();
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    const boundedBefore = before === undefined || !WORD_CHAR.test(before) || !WORD_CHAR.test(needle[0]!);
    const boundedAfter = after === undefined || !WORD_CHAR.test(after) || !WORD_CHAR.test(needle.at(-1)!);
    if (boundedBefore && boundedAfter) return true;
  }
  return false;
}

/**
 * What one plain child adds to a row: its text and its description, or only the one of them that says more
 * (`text="1095.7万"` with `content-desc="1095.7万观看"` gives the description: it says what the number counts).
 */
export function childLabels(text: string, desc: string): string[] {
  if (!text) return desc ? [desc] : [];
  if (!desc || saysAlready(text, desc)) return [text];
  if (saysAlready(desc, text)) return [desc];
  return [text, desc];
}

/** Resource-id words that name a widget's kind or layout, not its purpose. */
const KIND_WORDS = new Set([
  'iv', 'img', 'image', 'imageview', 'btn', 'button', 'ib', 'imgbtn', 'tv', 'txt', 'text', 'textview', 'll', 'rl',
  'fl', 'cl', 'layout', 'view', 'container', 'wrapper', 'id', 'ic', 'icon', 'widget', 'item', 'root', 'holder', 'bg',
]);

/**
 * The purpose a resource id names, in words (`iv_search` -> "search", `btnMoreOptions` -> "more options"), or
 * undefined for obfuscated ids (`ngl`, `awa`, `a1b`) and ids that only name a widget kind.
 */
export function resourceIdWords(resourceId: string): string | undefined {
  const name = shortResourceId(resourceId);
  if (!name) return undefined;
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z]+/)
    .map((word) => word.toLowerCase())
    .filter(Boolean);
  if (words.length === 1 && words[0]!.length <= 3) return undefined;
  const meaningful = words.filter((word) => word.length >= 3 && !KIND_WORDS.has(word) && /[aeiouy]/.test(word));
  return meaningful.length ? meaningful.join(' ') : undefined;
}

const CLASS_HINTS: Array<[RegExp, string]> = [
  [/Image(View|Button)$|^ImageView|Fab$|FloatingActionButton$/, 'icon button'],
  [/Switch/, 'switch'],
  [/CheckBox/, 'checkbox'],
  [/RadioButton/, 'radio button'],
  [/EditText|SearchAutoComplete|AutoCompleteTextView/, 'text field'],
  [/Button$/, 'button'],
];

/**
 * A stand-in label for an actionable element that has none: the purpose its own or a descendant's resource id
 * names, else what its class is ("icon button"), else "unlabeled control".
 */
export function unlabeledHint(node: UiNode): string {
  const fromIds = firstDefined(node, (candidate) => resourceIdWords(candidate.resourceId));
  if (fromIds) return fromIds;
  const type = shortClassName(node.className);
  const fromClass = CLASS_HINTS.find(([pattern]) => pattern.test(type))?.[1];
  if (fromClass) return fromClass;
  const image = firstDefined(node, (candidate) => (/Image/.test(candidate.className) ? 'icon button' : undefined));
  return image ?? 'unlabeled control';
}

function firstDefined<T>(node: UiNode, pick: (node: UiNode) => T | undefined): T | undefined {
  const own = pick(node);
  if (own !== undefined) return own;
  for (const child of node.children) {
    const found = firstDefined(child, pick);
    if (found !== undefined) return found;
  }
  return undefined;
}
