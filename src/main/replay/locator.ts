import { FLOW_TEXT_MAX, type Locator } from '../../shared/flow';
import { elementName, labelParts, type Scene, type SceneElement } from '../../shared/scene';

/**
 * Locators: how a replay finds the element a recorded step acted on, on a fresh Scene (whose ids mean nothing from
 * one turn to the next). A locator keeps the fewest fields that told the element apart on the Scene it was recorded
 * on; resolving it needs every field to match, and never picks among several matches by itself (a replay that
 * guessed could tap the wrong contact). Pure.
 */

/** The `type` a locator gives any editable field, whatever its class (`EditText`, `AutoCompleteTextView`…). */
export const TEXT_FIELD_TYPE = 'text-field';

/** The fields that can name an element, in the order a locator prefers them (readable and stable first). */
const NAMING_FIELDS = ['text', 'desc', 'hint', 'resourceId', 'row', 'type'] as const;
type NamingField = (typeof NAMING_FIELDS)[number];

const flat = (value: string) => value.replace(/\s+/g, ' ').trim();
const same = (a: string, b: string) => flat(a).toLowerCase() === flat(b).toLowerCase();

/**
 * What the element says as a locator's `text`: the first part of its label ("Wi-Fi" of "Wi-Fi | Off", a contact's
 * name before its last message), since the other parts are summaries that change with the state. A field's text is
 * what was typed into it, never its name.
 */
function textOf(element: SceneElement): string | undefined {
  if (element.editable || element.text === undefined) return undefined;
  return labelParts(element.text).find((part) => part.trim());
}

const typeOf = (element: SceneElement) => (element.editable ? TEXT_FIELD_TYPE : element.type);

/** The element's value for one naming field (undefined: it has none). */
function fieldOf(element: SceneElement, field: NamingField): string | undefined {
  switch (field) {
    case 'text':
      return textOf(element);
    case 'type':
      return typeOf(element);
    default:
      return element[field];
  }
}

/** Whether the element has every naming field the locator gives. */
function matches(element: SceneElement, locator: Locator): boolean {
  return NAMING_FIELDS.every((field) => {
    const wanted = locator[field];
    if (wanted === undefined) return true;
    const value = fieldOf(element, field);
    return value !== undefined && same(value, wanted);
  });
}

/** The elements a person can act on (not under a dialog): the only ones a locator resolves to. */
const actionable = (element: SceneElement) => !element.covered;

/**
 * The smallest locator that finds `element` alone on `scene`: the app, plus the fewest naming fields (preferring
 * text, then description, placeholder, resource id, row, type), plus `nth` when even all of them match several.
 * Null when the element says nothing a locator could hold (no text, description, placeholder, id or row): such an
 * element cannot be found again without guessing.
 */
export function locatorFor(scene: Scene, element: SceneElement): Locator | null {
  // A giant label (a pasted log in a chat) is no name a flow can hold.
  const present = NAMING_FIELDS.filter((field) => (fieldOf(element, field)?.length ?? FLOW_TEXT_MAX + 1) <= FLOW_TEXT_MAX);
  if (!present.some((field) => field !== 'type')) return null;
  const candidates = scene.elements.filter(actionable);
  const base = { app: scene.screen.package || undefined };
  const build = (fields: readonly NamingField[]): Locator => {
    const locator: Locator = { ...base };
    for (const field of fields) locator[field] = fieldOf(element, field);
    return locator;
  };
  for (const fields of subsetsBySize(present)) {
    // `type` alone names nothing a person would recognise (and the schema refuses it).
    if (fields.every((field) => field === 'type')) continue;
    const locator = build(fields);
    const found = candidates.filter((candidate) => matches(candidate, locator));
    if (found.length === 1 && found[0] === element) return withoutEmpty(locator);
  }
  // Even every field matches several (the same control twice, no row to tell them apart): its place among them.
  const locator = build(present);
  return withoutEmpty({ ...locator, nth: candidates.filter((candidate) => matches(candidate, locator)).indexOf(element) });
}

/** Every non-empty subset of `fields`, smallest first, each in the order of `fields` (so earlier fields win ties). */
function subsetsBySize(fields: readonly NamingField[]): NamingField[][] {
  const subsets: NamingField[][] = [];
  for (let mask = 1; mask < 1 << fields.length; mask++) subsets.push(fields.filter((_, index) => mask & (1 << index)));
  const rank = (subset: NamingField[]) => subset.reduce((sum, field) => sum * 8 + fields.indexOf(field) + 1, 0);
  return subsets.sort((a, b) => a.length - b.length || rank(a) - rank(b));
}

function withoutEmpty(locator: Locator): Locator {
  return Object.fromEntries(Object.entries(locator).filter(([, value]) => value !== undefined)) as Locator;
}

export type Resolution =
  | { kind: 'found'; element: SceneElement }
  | { kind: 'missing'; reason: string }
  | { kind: 'ambiguous'; reason: string; candidates: SceneElement[] };

/** How many names "I see: …" lists before it says how many more there are. */
const NAMES_SHOWN = 8;

/**
 * The element `locator` names on `scene`, or why there is none to act on: missing (the app is not in front, nothing
 * matches, or what matches lies under a dialog), or ambiguous (several match and the locator does not say which).
 * The reason says what is on screen instead, so a person can tell what changed.
 */
export function resolveLocator(scene: Scene, locator: Locator): Resolution {
  const what = describeLocator(locator);
  const dialog = scene.screen.dialog === undefined ? undefined : `a dialog '${scene.screen.dialog}' is in front`;
  if (locator.app && scene.screen.package !== locator.app) {
    const inFront = dialog ? `${dialog} (${scene.screen.package})` : `${locator.app} is not in front (${scene.screen.package || 'no app'} is)`;
    return { kind: 'missing', reason: `${inFront}, so there is no ${what} to act on` };
  }
  const all = scene.elements.filter((element) => matches(element, locator));
  const found = all.filter(actionable);
  const element = locator.nth === undefined ? (found.length === 1 ? found[0] : undefined) : found[locator.nth];
  if (element) return { kind: 'found', element };
  if (found.length > 1 && locator.nth === undefined) {
    const which = found.map((candidate) => candidate.row ?? elementName(candidate) ?? candidate.id).slice(0, NAMES_SHOWN);
    return { kind: 'ambiguous', reason: `${found.length} elements match ${what} (${which.join(', ')}), and the flow does not say which`, candidates: found };
  }
  if (found.length > 0) return { kind: 'missing', reason: `only ${found.length} of ${what} on this screen, not the recorded ${locator.nth! + 1}; I see: ${namesOnScreen(scene)}` };
  if (all.length > 0 && dialog) return { kind: 'missing', reason: `${dialog}: ${what} lies behind it and cannot be reached; I see: ${namesOnScreen(scene)}` };
  if (all.length > 0) return { kind: 'missing', reason: `${what} is under a dialog or pop-up; I see: ${namesOnScreen(scene)}` };
  const cut = scene.elementsLeftOut ? ` (${scene.elementsLeftOut} elements were left out of this Scene to fit its budget)` : '';
  const inFront = dialog ? ` (${dialog})` : '';
  return { kind: 'missing', reason: `no ${what} on this screen${inFront}${cut}; I see: ${namesOnScreen(scene)}` };
}

/** A locator in a person's words: `'Wi-Fi'`, `'Send' button`, `'Add star' in the row 'Buy milk'`, `the field 'To'`. */
export function describeLocator(locator: Locator): string {
  const name = locator.text ?? locator.desc ?? locator.hint ?? locator.resourceId;
  const kind = locator.type === TEXT_FIELD_TYPE ? 'field' : locator.type;
  const named = name ? `'${name}'` : `${kind ?? 'element'} in the row '${locator.row}'`;
  const typed = name && kind ? (kind === 'field' ? `the field ${named}` : `${named} ${kind.toLowerCase()}`) : named;
  const row = name && locator.row ? ` in the row '${locator.row}'` : '';
  const position = locator.nth !== undefined ? ` (match ${locator.nth + 1})` : '';
  return `${typed}${row}${position}`;
}

/** What a person would name on the screen, in reading order, the ones that can be acted on first. */
export function namesOnScreen(scene: Scene): string {
  const acts = (element: SceneElement) => Boolean(element.clickable || element.editable || element.checked !== undefined || element.longClickable);
  const inApp = scene.elements.filter((element) => element.window !== 'system' && actionable(element));
  const ordered = [...inApp.filter(acts), ...inApp.filter((element) => !acts(element))];
  const names = [...new Set(ordered.map((element) => elementName(element)).filter((name): name is string => Boolean(name?.trim())))];
  if (names.length === 0) return 'nothing with a name';
  const more = names.length > NAMES_SHOWN ? `, and ${names.length - NAMES_SHOWN} more` : '';
  return `${names.slice(0, NAMES_SHOWN).join(', ')}${more}`;
}
