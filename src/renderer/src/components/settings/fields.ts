import type { SettingsDraft, SettingsProblem } from '../../../../shared/contract';
import { type Settings } from '../../../../shared/settings';
import { SETTING_SECTIONS, SETTINGS_CATALOG, type CatalogEntry, type Presentation, type SecretEntry, type SettingUse } from '../../../../shared/settings-catalog';
import { activeUses } from '../../../../shared/setup-problems';
import { formatCount } from '../../../../shared/task-words';

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
  title: string;
  fields: FieldSpec[];
}

const rangeHelp = ({ min, max }: { min: number; max: number }) => `${formatCount(min)} to ${formatCount(max)}`;

/** How the form shows one catalog entry. */
function fieldOf(entry: CatalogEntry): FieldSpec {
  const shown: Presentation = entry;
  const base: Base = {
    path: entry.path,
    label: shown.unit ? `${shown.label} (${shown.unit})` : shown.label,
    ...(shown.help && { help: shown.help }),
    ...(shown.helpOn && { helpOn: shown.helpOn }),
    appliesTo: shown.appliesTo,
  };
  const placeholder = shown.placeholder ? { placeholder: shown.placeholder } : {};
  switch (entry.kind) {
    case 'toggle':
      return { ...base, kind: 'toggle' };
    case 'choice':
      return {
        ...base,
        kind: 'select',
        options: entry.choices.map((value) => [value, (entry.choiceLabels as Record<string, string>)[value] ?? value] as const),
        ...(entry.helpPerChoice && { helpPerChoice: entry.helpPerChoice }),
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

/** The form: the catalog's sections in order, each with its settings in catalog order. */
export const SETTINGS_SECTIONS: FieldSection[] = SETTING_SECTIONS.map((title) => ({
  title,
  fields: SETTINGS_CATALOG.filter((entry) => entry.section === title).map(fieldOf),
}));

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

export const SETTINGS_FIELDS: FieldSpec[] = SETTINGS_SECTIONS.flatMap((section) => section.fields);
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
  if (text === '') return field.nullable ? { value: null } : { problem: `enter a whole number from ${rangeHelp(field.range)}` };
  if (!/^-?\d+$/.test(text)) return { problem: `enter a whole number from ${rangeHelp(field.range)}` };
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
export function displayValue(settings: Settings, path: string): string {
  const value = readPath(settings, path);
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (value == null || value === '') return '(empty)';
  return String(value);
}
