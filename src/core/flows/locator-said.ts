import type { DistinguishingFacts, Locator, LocatorRelations, LocatorSize, LocatorState } from '../../shared/flow';
import { saidList, wordCode, type Said, type SaidCode, type SaidValues } from '../../shared/said';
import { actionCall } from '../../shared/supervision-words';

/**
 * A locator in a person's words (`'Send' button`, `the field 'To'`, `'Add star' in the row 'Buy milk'`), as a message
 * of the `locator` group worded in the reader's language: a reason carries it as a `…Said` value (`whatSaid`), so a
 * Chinese reader reads “Send”按钮. The names on screen are quoted as they are. Pure.
 */

/** The `type` a locator gives any editable field, whatever its class (`EditText`, `AutoCompleteTextView`…). */
export const TEXT_FIELD_TYPE = 'text-field';

/** Layout and view classes (`LinearLayout`, `TextView`) name how an element is drawn, not what a person calls it. */
const WIDGET_CLASS = /(Layout|View|Group)$/;

const part = (code: SaidCode, values: SaidValues = {}): Said => ({ code, values });
const nested = (said: Said | undefined): string => (said ? saidList([said]) : '');

/** The kinds of element the catalogs have a word for: the class Android names them by, and their word after a name. */
const KINDS = { Button: 'button', ImageButton: 'imagebutton', Switch: 'switch', CheckBox: 'checkbox', RadioButton: 'radiobutton', ToggleButton: 'togglebutton', Spinner: 'spinner', SeekBar: 'seekbar' } as const;
type Kind = (typeof KINDS)[keyof typeof KINDS];
const kindOf = (written: string): Kind | undefined => Object.values(KINDS).find((kind) => kind === written.toLowerCase());

/**
 * The element's kind, after a name (`'Send' button`) or standing alone as the locator writes it (`Button in the row
 * 'Buy milk'`): the catalogs' word when they have one, else the class as it is written.
 */
function kindSaid(type: string, alone: boolean): Said {
  if (type === TEXT_FIELD_TYPE) return part('locator.kindWord.field');
  const kind = kindOf(type);
  const asWritten = type === kind || Object.hasOwn(KINDS, type);
  if (!kind || (alone && !asWritten)) return part('locator.className', { kind: alone ? type : type.toLowerCase() });
  return part(`locator.${alone && type !== kind ? 'kindAlone' : 'kindWord'}.${kind}`);
}

/** Element types as a locator writes them (`text-field`, `Switch`), in the reader's words where the catalogs have one. */
export function typesSaidValue(types: readonly string[]): string {
  const typeSaid = (type: string) => (type === TEXT_FIELD_TYPE ? part('locator.textFieldType') : kindSaid(type, true));
  return nested(joined(types.map(typeSaid), 'locator.joined.comma'));
}

/** The words of each relation a locator may give, before the element it names. */
const RELATION_CODES = {
  below: 'locator.relation.below',
  above: 'locator.relation.above',
  leftOf: 'locator.relation.leftOf',
  rightOf: 'locator.relation.rightOf',
  childOf: 'locator.relation.childOf',
  containsChild: 'locator.relation.containsChild',
  containsDescendants: 'locator.relation.containsDescendants',
} as const satisfies Record<keyof LocatorRelations, SaidCode>;

/**
 * Several parts as one, joined the language's way (`'a' and 'b'`, `checked, not enabled`): halves joined in turn, so
 * a long list nests its parts only as deep as its length's logarithm (each nesting escapes the quotes inside again).
 */
function joined(parts: readonly Said[], joiner: 'locator.joined.and' | 'locator.joined.comma' | 'locator.joined.together'): Said | undefined {
  if (parts.length <= 1) return parts[0];
  const half = Math.ceil(parts.length / 2);
  return part(joiner, { firstSaid: nested(joined(parts.slice(0, half), joiner)), restSaid: nested(joined(parts.slice(half), joiner)) });
}

/**
 * The most characters the words of the elements a locator is placed against (`below 'Title'`, and what that one is
 * below) may take as a value: each level nests the words inside again (escaping their quotes once more), so a
 * hostile flow's deep or wide relations are given in English words instead.
 */
const RELATIONS_SAID_MAX = 4000;

/** What names the element: its name with its kind (`the field 'To'`), else its kind alone (`the element`). */
function headSaid(locator: Locator): Said {
  const name = locator.text ?? locator.label ?? locator.labelPattern ?? locator.desc ?? locator.hint ?? locator.resourceId ?? locator.idPattern;
  const type = locator.type && (locator.type === TEXT_FIELD_TYPE || !WIDGET_CLASS.test(locator.type)) ? locator.type : undefined;
  if (name) {
    if (type === TEXT_FIELD_TYPE) return part('locator.field', { name });
    return type ? part('locator.typed', { name, kindSaid: nested(kindSaid(type, false)) }) : part('locator.name', { name });
  }
  if (type) return kindSaid(type, true);
  return part(locator.row ? 'locator.element' : 'locator.theElement');
}

/** What the recorded facts add: ` showing '+1 555-0222'`, ` (on)`, ` after 'Work'`. */
function factsSaid(facts: DistinguishingFacts | undefined): SaidValues {
  return {
    showingSaid: nested(facts?.otherTexts && part('locator.showing', { textsSaid: nested(joined(facts.otherTexts.map((name) => part('locator.name', { name })), 'locator.joined.and')) })),
    switchSaid: nested(facts?.checked === undefined ? undefined : part(facts.checked ? 'locator.on' : 'locator.off')),
    afterSaid: nested(facts?.follows === undefined ? undefined : part('locator.after', { name: facts.follows })),
    beforeSaid: nested(facts?.precedes === undefined ? undefined : part('locator.before', { name: facts.precedes })),
  };
}

function sizeSaid(size: LocatorSize): Said {
  const values = { widthCode: size.width ?? 'locator.any', heightCode: size.height ?? 'locator.any' };
  return size.tolerance ? part('locator.sizeWithin', { ...values, tolerance: size.tolerance }) : part('locator.size', values);
}

/** Where the element lies, its states, size and place among look-alikes: ` below 'Title' (not enabled) at index 2`. */
function selectorsSaid(locator: Locator): SaidValues {
  const placed = (Object.entries(locator.relative ?? {}) as [keyof LocatorRelations, Locator | Locator[]][]).flatMap(([relation, other]) =>
    (Array.isArray(other) ? other : [other]).map((anchor) => ({ relation, anchor })),
  );
  const relationsSaid = (anchorSaid: (anchor: Locator) => string) =>
    nested(joined(placed.map(({ relation, anchor }) => part(RELATION_CODES[relation], { anchorSaid: anchorSaid(anchor) })), 'locator.joined.together'));
  const worded = relationsSaid((anchor) => nested(locatorSaid(anchor)));
  const states = (Object.entries(locator.state ?? {}) as [keyof LocatorState, boolean | undefined][]).map(([state, on]) => part(`locator.${on ? 'state' : 'notState'}.${state}`));
  return {
    relationsSaid: worded.length <= RELATIONS_SAID_MAX ? worded : relationsSaid(describeLocator),
    statesSaid: nested(states.length ? part('locator.states', { statesSaid: nested(joined(states, 'locator.joined.comma')) }) : undefined),
    sizeSaid: nested(locator.size && sizeSaid(locator.size)),
    indexSaid: nested(locator.index === undefined ? undefined : part('locator.index', { index: locator.index })),
  };
}

/** Each locator's message once made: a relation's anchor is worded again for its English words when it is too large. */
const made = new WeakMap<Locator, Said>();

/** A locator as a message: what names it, with what else it says (its row, facts, place, states) when it says more. */
export function locatorSaid(locator: Locator): Said {
  const known = made.get(locator);
  if (known) return known;
  const said = describedSaid(locator);
  made.set(locator, said);
  return said;
}

function describedSaid(locator: Locator): Said {
  const head = headSaid(locator);
  const more = { rowSaid: nested(locator.row ? part('locator.row', { row: locator.row }) : undefined), ...factsSaid(locator.distinguishedBy), ...selectorsSaid(locator) };
  return Object.values(more).some(Boolean) ? part('locator.described', { headSaid: nested(head), ...more }) : head;
}

/** A locator as a message's `…Said` value. */
export const locatorSaidValue = (locator: Locator): string => saidList([locatorSaid(locator)]);

/** A locator in English words: the records' text of a message that describes it, and the model's hints (which stay English). */
export function describeLocator(locator: Locator): string {
  const said = locatorSaid(locator);
  return wordCode(said.code as SaidCode, said.values);
}

/** A flow step's action on the element its locator describes, as a message carries it (`actionCall`). */
export const locatorCall = (tool: string, args: Record<string, unknown>, locator: Locator | undefined): string =>
  locator ? actionCall(tool, args, describeLocator(locator), 'do', locatorSaid(locator)) : actionCall(tool, args, undefined);
