import type { SettingsDraft, SettingsProblem } from '../../../../shared/contract';
import { LIMITS, type SecretName, type Settings } from '../../../../shared/settings';

export type FieldValue = string | boolean;

interface Base {
  /** Dotted settings path (`aiPlanner.maxSteps`) or `secrets.NAME` for a secret. */
  path: string;
  label: string;
  help?: string;
}
export type FieldSpec = Base &
  (
    | { kind: 'toggle' }
    | { kind: 'select'; options: ReadonlyArray<readonly [value: string, label: string]> }
    | { kind: 'text'; placeholder?: string; inputMode?: 'url' }
    /** `nullable`: an empty field means "off" (sent as null). */
    | { kind: 'number'; range: { min: number; max: number }; nullable?: boolean }
    | { kind: 'secret'; secret: SecretName }
  );

export interface FieldSection {
  title: string;
  fields: FieldSpec[];
}

const rangeHelp = ({ min, max }: { min: number; max: number }) => `${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`;

export const SETTINGS_SECTIONS: FieldSection[] = [
  {
    title: 'Planner',
    fields: [
      { path: 'aiPlanner.enabled', label: 'Use the AI planner', kind: 'toggle', help: 'Off: the built-in planner runs tasks and no model is called.' },
      { path: 'aiPlanner.provider', label: 'Provider', kind: 'select', options: [['anthropic', 'Anthropic'], ['openai', 'OpenAI or compatible']] },
      { path: 'aiPlanner.model', label: 'Model', kind: 'text', help: 'Empty uses the provider\u2019s default model.' },
      {
        path: 'aiPlanner.transport',
        label: 'Transport',
        kind: 'select',
        options: [
          ['cloud-proxy', 'Cloud proxy (keys on the control plane)'],
          ['direct', 'Direct (keys on this computer)'],
        ],
        help: 'The cloud proxy returns only the chosen action: the model\u2019s rationale and thinking are not shown.',
      },
    ],
  },
  {
    title: 'Cloud control plane',
    fields: [
      { path: 'controlPlane.url', label: 'Control-plane URL', kind: 'text', inputMode: 'url', placeholder: 'https://control.example.com' },
      { path: 'secrets.CONTROL_PLANE_TOKEN', label: 'Control-plane token', kind: 'secret', secret: 'CONTROL_PLANE_TOKEN' },
    ],
  },
  {
    title: 'Direct access',
    fields: [
      { path: 'secrets.ANTHROPIC_API_KEY', label: 'Anthropic API key', kind: 'secret', secret: 'ANTHROPIC_API_KEY' },
      { path: 'anthropic.baseURL', label: 'Anthropic base URL', kind: 'text', inputMode: 'url', placeholder: 'https://api.anthropic.com' },
      { path: 'secrets.OPENAI_API_KEY', label: 'OpenAI API key', kind: 'secret', secret: 'OPENAI_API_KEY' },
      {
        path: 'openai.baseURL',
        label: 'OpenAI-compatible base URL',
        kind: 'text',
        inputMode: 'url',
        placeholder: 'https://api.openai.com/v1',
        help: 'Any OpenAI-compatible server works here, e.g. Ollama, vLLM or LM Studio.',
      },
    ],
  },
  {
    title: 'Limits',
    fields: [
      {
        path: 'aiPlanner.thinkingBudgetTokens',
        label: 'Extended thinking budget (tokens)',
        kind: 'number',
        nullable: true,
        range: LIMITS.thinkingBudgetTokens,
        help: `Empty turns extended thinking off; otherwise ${rangeHelp(LIMITS.thinkingBudgetTokens)}.`,
      },
      { path: 'aiPlanner.timeoutSeconds', label: 'Timeout per decision (seconds)', kind: 'number', range: LIMITS.timeoutSeconds },
      { path: 'aiPlanner.maxSteps', label: 'Max steps per task', kind: 'number', range: LIMITS.maxSteps },
    ],
  },
  {
    title: 'Screenshot',
    fields: [
      { path: 'aiPlanner.sendScreenshot', label: 'Send a screenshot to the planner', kind: 'toggle', help: 'The screen\u2019s UI elements are always sent.' },
      { path: 'aiPlanner.screenshotLongEdge', label: 'Screenshot size (long edge, pixels)', kind: 'number', range: LIMITS.screenshotLongEdge },
    ],
  },
  {
    title: 'adb server',
    fields: [
      { path: 'adb.host', label: 'adb server host', kind: 'text', placeholder: '127.0.0.1' },
      { path: 'adb.port', label: 'adb server port', kind: 'number', range: { min: 1, max: 65535 } },
    ],
  },
];

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
