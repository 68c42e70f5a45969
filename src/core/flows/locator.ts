import { FLOW_TEXT_MAX, type DistinguishingFacts, type Locator, type LocatorRelations, type LocatorSize, type LocatorState } from '../../shared/flow';
import { elementName, labelParts, type Bounds, type Scene, type SceneElement } from '../../shared/scene';
import { say, saidList, type Said, type SaidCode, type SaidValues } from '../../shared/said';
import { sayActions } from '../../shared/supervision-words';
import { locatorSaidValue, TEXT_FIELD_TYPE, typesSaidValue } from './locator-said';

/**
 * Locators: how a replay finds the element a recorded step acted on, on a fresh Scene (whose ids mean nothing from
 * one turn to the next). A locator keeps the fewest fields that told the element apart on the Scene it was recorded
 * on; resolving it needs every field to match, and never picks among several matches by their place (a replay that
 * guessed could tap the wrong contact): only facts recorded about the element itself (its other texts, its checked
 * state, the names around it that are not its look-alikes) may single one out. Pure.
 */

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

const patterns = new Map<string, RegExp | null>();
/** A pattern as a regular expression matching a whole text, ignoring case (as Maestro's); null when it is not one. */
function wholeMatch(pattern: string): RegExp | null {
  if (!patterns.has(pattern)) {
    let compiled: RegExp | null = null;
    try {
      compiled = new RegExp(`^(?:${pattern})$`, 'is');
    } catch {
      compiled = null;
    }
    patterns.set(pattern, compiled);
  }
  return patterns.get(pattern)!;
}

/** The text equals the pattern as written, or the pattern (a valid regular expression) matches the text as a whole. */
function matchesPattern(value: string, pattern: string): boolean {
  if (same(value, pattern)) return true;
  const regex = wholeMatch(pattern);
  return regex !== null && (regex.test(value) || regex.test(value.replace(/\n/g, ' ')));
}

/** Whether the element is in every state the locator asks (a state it does not report is off; enabled unless disabled). */
function inState(element: SceneElement, state: LocatorState | undefined): boolean {
  if (!state) return true;
  const actual = { enabled: !element.disabled, checked: element.checked ?? false, focused: Boolean(element.focused), selected: Boolean(element.selected) };
  return (Object.keys(state) as (keyof LocatorState)[]).every((key) => state[key] === undefined || state[key] === actual[key]);
}

/** Whether the element's bounds are as wide and as high as the locator asks, within its tolerance. */
function ofSize(element: SceneElement, size: LocatorSize | undefined): boolean {
  if (!size) return true;
  const [left, top, right, bottom] = element.bounds;
  const tolerance = size.tolerance ?? 0;
  const near = (wanted: number | undefined, actual: number) => wanted === undefined || Math.abs(actual - wanted) <= tolerance;
  return near(size.width, right - left) && near(size.height, bottom - top);
}

/** Whether the element has every naming field the locator gives; `label` is any one of its text, description or hint. */
function matches(element: SceneElement, locator: Locator): boolean {
  const label = locator.label;
  const words = [textOf(element), element.desc, element.hint].filter((value): value is string => value !== undefined);
  if (label !== undefined && !words.some((value) => same(value, label))) return false;
  if (locator.labelPattern !== undefined && !words.some((value) => matchesPattern(value, locator.labelPattern!))) return false;
  if (locator.idPattern !== undefined && (element.resourceId === undefined || !matchesPattern(element.resourceId, locator.idPattern))) return false;
  if (!inState(element, locator.state)) return false;
  if (!ofSize(element, locator.size)) return false;
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
 * text, then description, placeholder, resource id, row, type); when even all of them match several, plus the fewest
 * facts that single it out among them. Null when the element says nothing a locator could hold (no text,
 * description, placeholder, id or row), or when nothing recorded about it tells it from its look-alikes: such an
 * element cannot be found again without guessing.
 */
export function locatorFor(scene: Scene, element: SceneElement): Locator | null {
  // A giant label (a pasted log in a chat) is no name a flow can hold.
  const present = NAMING_FIELDS.filter((field) => (fieldOf(element, field)?.length ?? FLOW_TEXT_MAX + 1) <= FLOW_TEXT_MAX);
  if (!present.some((field) => field !== 'type')) return null;
  const candidates = scene.elements.filter(actionable);
  // The element's kind always goes with it: a row is not its page's title, though both read "Network & internet".
  const base = { app: scene.screen.package || undefined, type: typeOf(element) };
  const build = (fields: readonly NamingField[]): Locator => {
    const locator: Locator = { ...base };
    for (const field of fields) locator[field] = fieldOf(element, field);
    return locator;
  };
  // `type` alone names nothing a person would recognise (and the schema refuses it).
  const namings = subsetsBySize(present).filter((fields) => fields.some((field) => field !== 'type'));
  const matching = (locator: Locator) => candidates.filter((candidate) => matches(candidate, locator));
  for (const fields of namings) {
    const found = matching(build(fields));
    if (found.length === 1 && found[0] === element) return withoutEmpty(build(fields));
  }
  // Every field matches several (the same name twice): the fewest fields that match just those, plus what the
  // element itself shows or the names around it.
  const alike = matching(build(present));
  const locator = build(namings.find((fields) => matching(build(fields)).length === alike.length) ?? present);
  const facts = factsOf(scene, element, alike);
  for (const kept of subsetsBySize(Object.keys(facts) as FactName[])) {
    const distinguishedBy = pick(facts, kept);
    if (alike.filter((candidate) => factsHold(scene, candidate, alike, distinguishedBy)).length === 1) return withoutEmpty({ ...locator, distinguishedBy });
  }
  return null;
}

type FactName = keyof DistinguishingFacts;

/** The parts of a label after its name: a row's other texts. */
const otherTextsOf = (element: SceneElement): string[] =>
  element.editable || element.text === undefined ? [] : labelParts(element.text).slice(1).map(flat).filter((part) => part && part.length <= FLOW_TEXT_MAX);

/** The name of the nearest element from `index` on in `step` direction that is not one of `alike` (and is not system UI). */
function neighbourName(scene: Scene, index: number, step: 1 | -1, alike: readonly SceneElement[]): string | undefined {
  for (let at = index + step; at >= 0 && at < scene.elements.length; at += step) {
    const other = scene.elements[at]!;
    if (alike.includes(other) || other.window === 'system' || other.covered) continue;
    const name = elementName(other);
    if (name?.trim()) return flat(name).length <= FLOW_TEXT_MAX ? flat(name) : undefined;
  }
  return undefined;
}

/** Every fact about `element` that a locator may keep, in the order it prefers them (what the element itself shows first). */
function factsOf(scene: Scene, element: SceneElement, alike: readonly SceneElement[]): DistinguishingFacts {
  const index = scene.elements.indexOf(element);
  const otherTexts = otherTextsOf(element);
  const facts: DistinguishingFacts = {
    ...(otherTexts.length && { otherTexts: otherTexts.slice(0, 8) }),
    ...(element.checked !== undefined && { checked: element.checked }),
    follows: neighbourName(scene, index, -1, alike),
    precedes: neighbourName(scene, index, 1, alike),
  };
  return withoutEmpty(facts);
}

const pick = (facts: DistinguishingFacts, names: readonly FactName[]): DistinguishingFacts =>
  Object.fromEntries(names.map((name) => [name, facts[name]])) as DistinguishingFacts;

/** Whether `candidate`, one of `alike` on `scene`, shows every fact given. */
function factsHold(scene: Scene, candidate: SceneElement, alike: readonly SceneElement[], facts: DistinguishingFacts): boolean {
  const index = scene.elements.indexOf(candidate);
  const otherTexts = otherTextsOf(candidate);
  if (facts.otherTexts && !facts.otherTexts.every((wanted) => otherTexts.some((part) => same(part, wanted)))) return false;
  if (facts.checked !== undefined && candidate.checked !== facts.checked) return false;
  const near = (wanted: string | undefined, step: 1 | -1) => {
    if (wanted === undefined) return true;
    const name = neighbourName(scene, index, step, alike);
    return name !== undefined && same(name, wanted);
  };
  return near(facts.follows, -1) && near(facts.precedes, 1);
}

/** Every non-empty subset of `fields`, smallest first, each in the order of `fields` (so earlier fields win ties). */
function subsetsBySize<Field>(fields: readonly Field[]): Field[][] {
  const subsets: Field[][] = [];
  for (let mask = 1; mask < 1 << fields.length; mask++) subsets.push(fields.filter((_, index) => mask & (1 << index)));
  const rank = (subset: Field[]) => subset.reduce((sum, field) => sum * 8 + fields.indexOf(field) + 1, 0);
  return subsets.sort((a, b) => a.length - b.length || rank(a) - rank(b));
}

function withoutEmpty<Fields extends object>(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Fields;
}

export type Resolution =
  /** `singledOutAmong`: how many elements the naming fields matched, when the recorded facts singled this one out. */
  | { kind: 'found'; element: SceneElement; singledOutAmong?: number }
  /** `said`: the reason's code, for a reader in another language. */
  | { kind: 'missing'; reason: string; said: Said }
  | { kind: 'ambiguous'; reason: string; said: Said; candidates: SceneElement[] };

/** How many names "I see: …" lists before it says how many more there are. */
const NAMES_SHOWN = 8;

const namesOf = (elements: readonly SceneElement[]) => elements.map((candidate) => candidate.row ?? elementName(candidate) ?? candidate.id).slice(0, NAMES_SHOWN).join(', ');

const missing = (code: SaidCode, values: SaidValues): Resolution => {
  const { text, said } = sayActions(code, values);
  return { kind: 'missing', reason: text, said };
};

/**
 * The element `locator` names on `scene`, or why there is none to act on: missing (the app is not in front, nothing
 * matches, what matches lies under a dialog, or none of the look-alikes shows what was recorded about it), or
 * ambiguous (several match and nothing recorded singles one out). The reason says what is on screen instead, so a
 * person can tell what changed.
 */
export function resolveLocator(scene: Scene, locator: Locator): Resolution {
  const whatSaid = locatorSaidValue(locator);
  const dialog = scene.screen.dialog;
  const seen = () => ({ namesSaid: saidList([namesOnScreenSaid(scene)]) });
  if (locator.app && scene.screen.package !== locator.app) {
    const front = scene.screen.package;
    if (dialog !== undefined) return missing('locate.dialogInFront', { dialog, front, whatSaid });
    return front ? missing('locate.appNotInFront', { app: locator.app, front, whatSaid }) : missing('locate.noAppNotInFront', { app: locator.app, whatSaid });
  }
  const related = locator.relative ? relatedTo(scene, locator.relative) : { holds: () => true };
  if ('missing' in related) return missing('locate.relatedMissing', { whatSaid, relationCode: RELATION_CODES[related.relation], reasonSaid: saidList([related.missing]) });
  const all = scene.elements.filter((element) => matches(element, locator) && related.holds(element));
  const found = all.filter(actionable);
  const facts = locator.distinguishedBy;
  const singled = facts ? found.filter((candidate) => factsHold(scene, candidate, found, facts)) : found;
  if (locator.index !== undefined) {
    // A written index counts the look-alikes top to bottom, then left to right (as Maestro does).
    const ordered = [...singled].sort((a, b) => a.bounds[1] - b.bounds[1] || a.bounds[0] - b.bounds[0]);
    const picked = ordered[locator.index];
    if (picked) return { kind: 'found', element: picked };
    if (singled.length) return missing('locate.noIndex', { count: singled.length, whatSaid: locatorSaidValue({ ...locator, index: undefined }), index: locator.index, ...seen() });
  }
  if (singled.length === 1) return { kind: 'found', element: singled[0]!, ...(found.length > 1 && { singledOutAmong: found.length }) };
  if (singled.length > 1) {
    const { text, said } = say(facts ? 'locate.ambiguous' : 'locate.ambiguousUnsaid', { count: singled.length, whatSaid, names: namesOf(singled) });
    return { kind: 'ambiguous', reason: text, said, candidates: singled };
  }
  if (found.length > 0) return missing('locate.onlyOthers', { whatSaid, count: found.length, namedSaid: locatorSaidValue({ ...locator, distinguishedBy: undefined }), ...seen() });
  const otherKind = locator.type ? scene.elements.filter((element) => actionable(element) && matches(element, { ...locator, type: undefined })) : [];
  if (all.length === 0 && otherKind.length > 0) {
    const kinds = [...new Set(otherKind.map(typeOf))];
    return missing('locate.otherKind', { whatSaid, kindsSaid: typesSaidValue(kinds), typeSaid: typesSaidValue([locator.type!]), ...seen() });
  }
  if (all.length > 0 && dialog !== undefined) return missing('locate.behindDialog', { dialog, whatSaid, ...seen() });
  if (all.length > 0) return missing('locate.underDialog', { whatSaid, ...seen() });
  const left = scene.elementsLeftOut;
  if (dialog !== undefined) return left ? missing('locate.missingDialogCut', { whatSaid, dialog, left, ...seen() }) : missing('locate.missingDialog', { whatSaid, dialog, ...seen() });
  return left ? missing('locate.missingCut', { whatSaid, left, ...seen() }) : missing('locate.missing', { whatSaid, ...seen() });
}

const inside = (inner: Bounds, outer: Bounds) => inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3];

/** The relations an anchor is found for, as a reader words them. */
const RELATION_CODES = { below: 'locate.relation.below', above: 'locate.relation.above', leftOf: 'locate.relation.leftOf', rightOf: 'locate.relation.rightOf', childOf: 'locate.relation.childOf' } as const;

/** Whether `element` holds an element `child` matches: one lying inside its bounds, or one of the labels its row folds in. */
function holdsChild(scene: Scene, element: SceneElement, child: Locator): boolean {
  const labels = element.editable || element.text === undefined ? [] : labelParts(element.text);
  const parts = labels.length > 1 ? labels : [];
  const folded = parts.some((part) => matches({ id: element.id, type: 'TextView', text: part, bounds: element.bounds }, child));
  if (folded) return true;
  return scene.elements.some((other) => other !== element && inside(other.bounds, element.bounds) && matches(other, child) && relatedHolds(scene, other, child));
}

function relatedHolds(scene: Scene, element: SceneElement, locator: Locator): boolean {
  if (!locator.relative) return true;
  const related = relatedTo(scene, locator.relative);
  return !('missing' in related) && related.holds(element);
}

/**
 * The test each relation puts an element to, once the elements it is placed against are found (each alone, never a
 * guess among several); why not, when one of them is not.
 */
function relatedTo(scene: Scene, relations: LocatorRelations): { holds: (element: SceneElement) => boolean } | { missing: Said; relation: keyof typeof RELATION_CODES } {
  const tests: ((element: SceneElement) => boolean)[] = [];
  for (const relation of ['below', 'above', 'leftOf', 'rightOf', 'childOf'] as const) {
    const anchor = relations[relation];
    if (!anchor) continue;
    const found = resolveLocator(scene, anchor);
    if (found.kind !== 'found') return { missing: found.said, relation };
    const [left, top] = found.element.bounds;
    const placed = {
      below: (element: SceneElement) => element.bounds[1] > top,
      above: (element: SceneElement) => element.bounds[1] < top,
      leftOf: (element: SceneElement) => element.bounds[0] < left,
      rightOf: (element: SceneElement) => element.bounds[0] > left,
      childOf: (element: SceneElement) => inside(element.bounds, found.element.bounds),
    }[relation];
    tests.push((element) => element !== found.element && placed(element));
  }
  for (const child of [...(relations.containsChild ? [relations.containsChild] : []), ...(relations.containsDescendants ?? [])]) {
    tests.push((element) => holdsChild(scene, element, child));
  }
  return { holds: (element) => tests.every((test) => test(element)) };
}

/** What a person would name on the screen, in reading order, the ones that can be acted on first ("…, and 3 more"). */
function namesOnScreenSaid(scene: Scene): Said {
  const acts = (element: SceneElement) => Boolean(element.clickable || element.editable || element.checked !== undefined || element.longClickable);
  const inApp = scene.elements.filter((element) => element.window !== 'system' && actionable(element));
  const ordered = [...inApp.filter(acts), ...inApp.filter((element) => !acts(element))];
  const names = [...new Set(ordered.map((element) => elementName(element)).filter((name): name is string => Boolean(name?.trim())))];
  if (names.length === 0) return say('locate.noNames').said;
  const shown = names.slice(0, NAMES_SHOWN).join(', ');
  return names.length > NAMES_SHOWN ? say('locate.namesMore', { names: shown, more: names.length - NAMES_SHOWN }).said : say('locate.names', { names: shown }).said;
}
