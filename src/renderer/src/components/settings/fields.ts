import type { SettingsDraft, SettingsProblem } from '../../../../shared/contract';
import { type Settings } from '../../../../shared/settings';
import { SETTING_SECTIONS, SETTINGS_CATALOG, type CatalogEntry, type Presentation, type SecretEntry, type SettingUse } from '../../../../shared/settings-catalog';
import { activeUses } from '../../../../shared/setup-problems';
import { ENGLISH, type Words } from '../../../../shared/i18n/translate';
import { formatCount } from '../../../../shared/task-words';
import { currentWords } from '../../i18n/language-store';

export type FieldValue = string | boolean;

interface Base {
  /** Dotted settings path (`aiPlanner.maxSteps`) or `secrets.NAME` for a secret. */
  path: string;
  label: string;
  help?: string;
  /** For a toggle: the help while it is on (`help` is for off). */
  helpOn?: string;
  /** Who reads it: the field is shown only while one of these is in use (see `activeUses`). */
  appliesTo: readonly SettingUse[];
}
export type FieldSpec = Base &
  (
    | { kind: 'toggle' }
    /** `helpPerChoice`: the help shown while that option is selected (instead of `help`). */
    | { kind: 'select'; options: ReadonlyArray<readonly [value: string, label: string]>; helpPerChoice?: Readonly<Record<string, string | undefined>> }
    | { kind: 'text'; placeholder?: string; inputMode?: 'url' }
    /** `nullable`: an empty field means "off" (sent as null). */
    | { kind: 'number'; range: { min: number; max: number }; nullable?: boolean }
    | { kind: 'secret'; secret: SecretEntry['key'] }
  );

export interface FieldSection {
  /** The catalog's section name (stable, for code and tests); `title` is its words. */
  id: string;
  title: string;
  fields: FieldSpec[];
}

const rangeHelp = ({ min, max }: { min: number; max: number }, { t, locale }: Words) =>
  t('app:settings.range', { min: formatCount(min, locale), max: formatCount(max, locale) });

/**
 * How the form shows one catalog entry, in a language: the catalog declares which words a setting has, the
 * `settings` area holds them (English taken from the catalog itself).
 */
function fieldOf(entry: CatalogEntry, { t }: Words): FieldSpec {
  const shown: Presentation = entry;
  const says = (part: string) => t(`settings:field.${entry.path}.${part}`);
  const label = says('label');
  const base: Base = {
    path: entry.path,
    label: shown.unit ? t('app:settings.withUnit', { label, unit: says('unit') }) : label,
    ...(shown.help && { help: says('help') }),
    ...(shown.helpOn && { helpOn: says('helpOn') }),
    appliesTo: shown.appliesTo,
  };
  const placeholder = shown.placeholder ? { placeholder: says('placeholder') } : {};
  switch (entry.kind) {
    case 'toggle':
      return { ...base, kind: 'toggle' };
    case 'choice':
      return {
        ...base,
        kind: 'select',
        options: entry.choices.map((value) => [value, says(`choice.${value}`)] as const),
        ...(entry.helpPerChoice && {
          helpPerChoice: Object.fromEntries(Object.keys(entry.helpPerChoice).map((value) => [value, says(`helpFor.${value}`)])),
        }),
      };
    case 'text':
      return { ...base, kind: 'text', ...placeholder };
    case 'url':
      return { ...base, kind: 'text', inputMode: 'url', ...placeholder };
    case 'number':
      return { ...base, kind: 'number', range: entry.range, ...(entry.nullable && { nullable: true }) };
    case 'secret':
      return { ...base, kind: 'secret', secret: entry.key };
  }
}

const sectionsByLanguage = new Map<string, FieldSection[]>();

/** The form in a language: the catalog's sections in order, each with its settings in catalog order. */
export function settingsSections(words: Words): FieldSection[] {
  let sections = sectionsByLanguage.get(words.language);
  if (!sections) {
    sections = SETTING_SECTIONS.map((id) => ({
      id,
      title: words.t(`settings:section.${id}`),
      fields: SETTINGS_CATALOG.filter((entry) => entry.section === id).map((entry) => fieldOf(entry, words)),
    }));
    sectionsByLanguage.set(words.language, sections);
  }
  return sections;
}

/**
 * Whether the form shows a field for the choices as typed (not yet saved): the AI planner's fields only while it is
 * on, and of those only the chosen transport's, and for direct only the chosen provider's.
 */
export function fieldIsShown(field: Pick<FieldSpec, 'appliesTo'>, values: Record<string, FieldValue>): boolean {
  const uses = activeUses({
    enabled: values['aiPlanner.enabled'] === true,
    provider: values['aiPlanner.provider'] === 'openai' ? 'openai' : 'anthropic',
    transport: values['aiPlanner.transport'] === 'direct' ? 'direct' : 'cloud-proxy',
  });
  return field.appliesTo.some((use) => uses.has(use));
}

/** Every field (their paths and kinds are the same in every language). */
export const SETTINGS_FIELDS: FieldSpec[] = settingsSections(ENGLISH).flatMap((section) => section.fields);
const EDITABLE_FIELDS = SETTINGS_FIELDS.filter((field) => field.kind !== 'secret');

function readPath(settings: Settings, path: string): unknown {
  const [group, key] = path.split('.') as [string, string];
  return (settings as unknown as Record<string, Record<string, unknown>>)[group]?.[key];
}

/** Form values as the inputs hold them: numbers as text (a half-typed number is a legitimate state). */
export function valuesFromSettings(settings: Settings): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  for (const field of EDITABLE_FIELDS) {
    const value = readPath(settings, field.path);
    values[field.path] = typeof value === 'boolean' ? value : value == null ? '' : String(value);
  }
  return values;
}

/** A whole number in the field's range, or the reason it is not one (checked here so the message names the range). */
function parseNumber(field: Extract<FieldSpec, { kind: 'number' }>, raw: string): { value: number | null } | { problem: string } {
  const text = raw.trim();
  const words = currentWords();
  const problem = () => ({ problem: words.t('app:settings.wholeNumber', { range: rangeHelp(field.range, words) }) });
  if (text === '') return field.nullable ? { value: null } : problem();
  if (!/^-?\d+$/.test(text)) return problem();
  return { value: Number(text) };
}

/**
 * The changes the form holds, as a draft for `settings.validate` / `settings.update`, plus the problems that
 * can be told without asking main (text in a number field). Only changed fields are sent.
 */
export function draftFromValues(
  values: Record<string, FieldValue>,
  settings: Settings,
): { draft: SettingsDraft; problems: SettingsProblem[]; changed: number } {
  const draft: Record<string, Record<string, unknown>> = {};
  const problems: SettingsProblem[] = [];
  let changed = 0;
  const stored = valuesFromSettings(settings);
  for (const field of EDITABLE_FIELDS) {
    const raw = values[field.path];
    if (raw === undefined || raw === stored[field.path]) continue;
    changed++;
    let value: unknown = raw;
    if (field.kind === 'number') {
      const parsed = parseNumber(field, String(raw));
      if ('problem' in parsed) {
        problems.push({ field: field.path, message: parsed.problem });
        continue;
      }
      value = parsed.value;
    }
    const [group, key] = field.path.split('.') as [string, string];
    (draft[group] ??= {})[key] = value;
  }
  return { draft: draft as SettingsDraft, problems, changed };
}

/** Shows a value as the field would, e.g. for "in effect: …" next to an environment override. */
export function displayValue(settings: Settings, path: string, { t }: Words): string {
  const value = readPath(settings, path);
  if (typeof value === 'boolean') return t(value ? 'app:settings.on' : 'app:settings.off');
  if (value == null || value === '') return t('app:settings.empty');
  return String(value);
}
