import { z } from 'zod';
import { schemaMessage } from './schema-message';
import { DEFAULT_PRICE_TABLE, parsePriceTable } from './prices';
import { DEFAULT_SCENE_TOKEN_BUDGET } from './scene';
import { MIN_THINKING_BUDGET_TOKENS, urlHasCredentials } from '@amc/provider-clients/contract';
import { LANGUAGE_CHOICES } from './i18n/languages';
import { parseDeviceGroups } from './device-groups';

/**
 * Every setting and secret, declared once: its type and range, its default, the environment variable that
 * overrides it, how the Settings form shows it, and where it applies. The settings schema, the patch schema,
 * environment parsing, the form and the README's table are all derived from this list (src/shared/settings.ts,
 * src/core/runtime/config.ts, the renderer's settings fields, scripts/settings-table.mjs).
 * The order is the order of environment variables in reports and in the README.
 */

export const PROVIDERS = ['anthropic', 'openai'] as const;
export const TRANSPORTS = ['cloud-proxy', 'direct'] as const;
/** How the Executor types text `input text` cannot: `auto` tries yadb, then ADBKeyBoard. */
export const TYPING_METHODS = ['auto', 'yadb', 'adb-keyboard'] as const;
export type TypingMethod = (typeof TYPING_METHODS)[number];

/** The form's sections, in the order they are shown. */
export const SETTING_SECTIONS = ['Interface', 'Planner', 'Cloud control plane', 'Direct access', 'Limits', 'Supervision', 'Screenshot', 'adb server', 'Phone helpers', 'Fleet'] as const;
export type SettingSection = (typeof SETTING_SECTIONS)[number];

/** Who reads a setting: every task, the AI planner (any transport), or one transport / provider client. */
export const SETTING_USES = ['app', 'ai-planner', 'cloud-proxy', 'anthropic', 'openai'] as const;
export type SettingUse = (typeof SETTING_USES)[number];

export interface Range {
  min: number;
  max: number;
}

export interface Presentation {
  label: string;
  /** Shown under the field; a choice may explain each option separately. */
  help?: string;
  /** A toggle's help while it is on (`help` then describes off). */
  helpOn?: string;
  unit?: string;
  placeholder?: string;
  /** What an empty value means (for text and URLs). */
  whenEmpty?: string;
  section: SettingSection;
  /** The environment variable that wins over the stored value. */
  env?: string;
  appliesTo: readonly SettingUse[];
}

const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => /^https?:\/\/[^\s/]+/.test(value) && URL.canParse(value), schemaMessage('schema.httpUrl'))
  // A password in the URL would be printed with every failure that names the server.
  .refine((value) => !urlHasCredentials(value), {
    ...schemaMessage('schema.urlCredentials'),
  });

/** Why a value is not accepted as a URL setting, or null when it is; shared with environment parsing so both say the same. */
export const urlProblem = (value: string): string | null => httpUrl.safeParse(value).error?.issues[0]?.message ?? null;

const wholeNumber = (range: Range) => z.number().int().min(range.min).max(range.max);

function declare<Group extends string, Key extends string, Kind extends object, Schema extends z.ZodType, const P extends Presentation>(
  group: Group,
  key: Key,
  kind: Kind,
  schema: Schema,
  presentation: P,
) {
  return { group, key, path: `${group}.${key}` as `${Group}.${Key}`, secret: false as const, ...kind, schema, ...presentation };
}

const toggle = <G extends string, K extends string, const P extends Presentation>(group: G, key: K, fallback: boolean, p: P) =>
  declare(group, key, { kind: 'toggle' as const }, z.boolean().default(fallback), p);

const choice = <
  G extends string,
  K extends string,
  const V extends readonly [string, ...string[]],
  const P extends Omit<Presentation, 'help'> & { help?: string | { [C in V[number]]?: string } },
>(
  group: G,
  key: K,
  values: V,
  fallback: V[number],
  labels: { [C in V[number]]: string },
  p: P,
) => {
  const { help, ...rest } = p;
  const perChoice = typeof help === 'object' ? help : undefined;
  return declare(group, key, { kind: 'choice' as const, choices: values, choiceLabels: labels, helpPerChoice: perChoice }, z.enum(values).default(fallback), {
    ...rest,
    ...(typeof help === 'string' && { help }),
  });
};

const text = <G extends string, K extends string, const P extends Presentation>(group: G, key: K, length: Range, fallback: string, p: P) =>
  declare(group, key, { kind: 'text' as const }, z.string().trim().min(length.min).max(length.max).default(fallback), p);

/** An http(s) URL, or empty for the built-in default. */
const url = <G extends string, K extends string, const P extends Presentation>(group: G, key: K, p: P) =>
  declare(group, key, { kind: 'url' as const }, z.union([z.literal(''), httpUrl]).default(''), p);

const number = <G extends string, K extends string, const P extends Presentation>(group: G, key: K, range: Range, fallback: number, p: P) =>
  declare(group, key, { kind: 'number' as const, range, nullable: false as const }, wholeNumber(range).default(fallback), p);

/** A whole number, or null meaning "off" (an empty field; 0 or "off" in the environment). */
const optionalNumber = <G extends string, K extends string, const P extends Presentation>(group: G, key: K, range: Range, off: string, p: P) =>
  declare(group, key, { kind: 'number' as const, range, nullable: true as const, off }, wholeNumber(range).nullable().default(null), p);

/** A secret: write-only from the UI, kept apart from settings.json; its name is its environment variable. */
const secret = <const Name extends string>(name: Name, p: Omit<Presentation, 'env'>) => ({
  group: 'secrets' as const,
  key: name,
  path: `secrets.${name}` as const,
  secret: true as const,
  kind: 'secret' as const,
  ...p,
  env: name,
});

/** A price table (src/shared/prices.ts); its problems are reported as the setting's. */
const priceTable = <G extends string, K extends string, const P extends Presentation>(group: G, key: K, p: P) =>
  declare(
    group,
    key,
    { kind: 'text' as const },
    z
      .string()
      .trim()
      .max(4000)
      .superRefine((value, context) => {
        const parsed = parsePriceTable(value);
        if ('problems' in parsed) for (const problem of parsed.problems) context.addIssue({ code: 'custom', message: problem.text, params: { said: problem.said } });
      })
      .default(DEFAULT_PRICE_TABLE),
    p,
  );

/** Device groups (src/shared/device-groups.ts); their problems are reported as the setting's. */
const deviceGroups = <G extends string, K extends string, const P extends Presentation>(group: G, key: K, p: P) =>
  declare(
    group,
    key,
    { kind: 'text' as const },
    z
      .string()
      .trim()
      .max(4000)
      .superRefine((value, context) => {
        const parsed = parseDeviceGroups(value);
        if ('problems' in parsed) for (const problem of parsed.problems) context.addIssue({ code: 'custom', message: problem.text, params: { said: problem.said } });
      })
      .default(''),
    p,
  );

/** How the agent asks before acting: never, before sensitive actions, or before every action (step mode). */
export const CONFIRMATION_MODES = ['off', 'sensitive', 'every'] as const;
export type ConfirmationMode = (typeof CONFIRMATION_MODES)[number];

export const LIMITS = {
  timeoutSeconds: { min: 1, max: 600 },
  thinkingBudgetTokens: { min: MIN_THINKING_BUDGET_TOKENS, max: 32_000 },
  maxSteps: { min: 1, max: 500 },
  screenshotLongEdge: { min: 256, max: 2048 },
  adbPort: { min: 1, max: 65535 },
  maxTokens: { min: 1000, max: 100_000_000 },
  maxCostCents: { min: 1, max: 1_000_000 },
  maxMinutes: { min: 1, max: 1440 },
  loopWarnAfter: { min: 1, max: 20 },
  loopStopAfter: { min: 1, max: 50 },
  /** Below ~500 a Scene holds only a handful of elements; above 20,000 it costs more per turn than the screenshot. */
  sceneTokenBudget: { min: 500, max: 20_000 },
} as const;

const AI = ['ai-planner'] as const;
const DIRECT = ['anthropic', 'openai'] as const;

export const SETTINGS_CATALOG = [
  choice('interface', 'language', LANGUAGE_CHOICES, 'system', { system: 'Follow the system', en: 'English', 'zh-CN': '简体中文 (Simplified Chinese)' }, {
    label: 'Language',
    help: 'The words of this window, the CLI and the report. What the model receives stays in English.',
    section: 'Interface',
    env: 'AMC_LANGUAGE',
    appliesTo: ['app'],
  }),
  toggle('aiPlanner', 'enabled', false, {
    label: 'Use the AI planner',
    help: 'Off: the built-in planner runs tasks and no model is called.',
    helpOn: 'On: a model chooses every action, through the transport chosen below.',
    section: 'Planner',
    env: 'AI_PLANNER_ENABLED',
    appliesTo: ['app'],
  }),
  choice('aiPlanner', 'provider', PROVIDERS, 'anthropic', { anthropic: 'Anthropic', openai: 'OpenAI or compatible' }, {
    label: 'Provider',
    section: 'Planner',
    env: 'AI_PLANNER_PROVIDER',
    appliesTo: AI,
  }),
  text('aiPlanner', 'model', { min: 0, max: 200 }, '', {
    label: 'Model',
    help: 'Empty uses the provider\u2019s default model.',
    whenEmpty: 'the provider\u2019s default model',
    section: 'Planner',
    env: 'AI_PLANNER_MODEL',
    appliesTo: AI,
  }),
  choice(
    'aiPlanner',
    'transport',
    TRANSPORTS,
    'cloud-proxy',
    { 'cloud-proxy': 'Cloud proxy (keys on the control plane)', direct: 'Direct (keys on this computer)' },
    {
      label: 'Transport',
      help: {
        'cloud-proxy': 'The cloud proxy returns only the chosen action: the model\u2019s rationale and thinking are not shown.',
        direct: 'The provider is called from this computer with your key; the model\u2019s rationale and thinking are shown.',
      },
      section: 'Planner',
      env: 'AI_PLANNER_TRANSPORT',
      appliesTo: AI,
    },
  ),
  number('aiPlanner', 'timeoutSeconds', LIMITS.timeoutSeconds, 30, {
    label: 'Timeout per decision',
    unit: 'seconds',
    section: 'Limits',
    env: 'AI_PLANNER_TIMEOUT_SECONDS',
    appliesTo: ['cloud-proxy', ...DIRECT],
  }),
  optionalNumber('aiPlanner', 'thinkingBudgetTokens', LIMITS.thinkingBudgetTokens, 'to disable thinking', {
    label: 'Extended thinking budget',
    unit: 'tokens',
    help: `Empty turns extended thinking off; otherwise ${LIMITS.thinkingBudgetTokens.min.toLocaleString('en-US')} to ${LIMITS.thinkingBudgetTokens.max.toLocaleString('en-US')}.`,
    section: 'Limits',
    env: 'AI_PLANNER_THINKING_BUDGET_TOKENS',
    appliesTo: ['anthropic'],
  }),
  number('aiPlanner', 'maxSteps', LIMITS.maxSteps, 30, {
    label: 'Max steps per task',
    section: 'Limits',
    env: 'AI_PLANNER_MAX_STEPS',
    appliesTo: ['app'],
  }),
  optionalNumber('budget', 'maxTokens', LIMITS.maxTokens, 'for no token limit', {
    label: 'Max tokens per task',
    unit: 'tokens',
    help: 'Input and output tokens together. The task ends (failed) before a model call would pass it.',
    section: 'Limits',
    env: 'TASK_MAX_TOKENS',
    appliesTo: AI,
  }),
  optionalNumber('budget', 'maxCostCents', LIMITS.maxCostCents, 'for no cost limit', {
    label: 'Max cost per task',
    unit: 'US cents',
    help: 'Priced from the price table below; a model that is not in it has no known cost, so this limit cannot apply to it.',
    section: 'Limits',
    env: 'TASK_MAX_COST_CENTS',
    appliesTo: AI,
  }),
  optionalNumber('budget', 'maxMinutes', LIMITS.maxMinutes, 'for no time limit', {
    label: 'Max time per task',
    unit: 'minutes',
    help: 'The agent\u2019s own time: waiting for your answer or a pause does not count.',
    section: 'Limits',
    env: 'TASK_MAX_MINUTES',
    appliesTo: ['app'],
  }),
  priceTable('budget', 'priceTable', {
    label: 'Price table',
    help: 'One entry per model: "model input/output" in US dollars per million tokens, separated by ";". A model not listed shows no cost.',
    whenEmpty: 'no prices: no cost is shown',
    section: 'Limits',
    appliesTo: AI,
  }),
  choice(
    'supervision',
    'confirmation',
    CONFIRMATION_MODES,
    'sensitive',
    { off: 'Never ask', sensitive: 'Ask before sensitive actions', every: 'Ask before every action (step mode)' },
    {
      label: 'Confirm actions',
      help: {
        off: 'The agent never waits for your yes (an app allow-list is still enforced).',
        sensitive: 'Sending, paying, buying, deleting, resetting, calling, typing a password or acting in an app outside the task\u2019s allowed apps waits for your yes.',
        every: 'Every action waits for your yes: step through a task.',
      },
      section: 'Supervision',
      env: 'TASK_CONFIRM_ACTIONS',
      appliesTo: ['app'],
    },
  ),
  number('supervision', 'loopWarnAfter', LIMITS.loopWarnAfter, 2, {
    label: 'Warn the agent after a loop of',
    unit: 'turns',
    help: 'The same action with no change on the screen, or going back and forth between two screens, this many times: the next prompt says so.',
    section: 'Supervision',
    env: 'TASK_LOOP_WARN_AFTER',
    appliesTo: AI,
  }),
  number('supervision', 'loopStopAfter', LIMITS.loopStopAfter, 3, {
    label: 'Stop a loop after',
    unit: 'turns',
    help: 'If the loop goes on this long, the task pauses and asks you (or fails when no one can answer).',
    section: 'Supervision',
    env: 'TASK_LOOP_STOP_AFTER',
    appliesTo: AI,
  }),
  toggle('aiPlanner', 'appNotes', true, {
    label: 'Learn notes per app',
    help: 'Off: completed tasks teach nothing new and the planner receives no notes (kept notes stay in Settings).',
    helpOn: 'On: a completed task keeps a short note of how it reached its goal in each app (the names it tapped), and the planner receives the notes of the app in front.',
    section: 'Planner',
    env: 'AMC_APP_NOTES',
    appliesTo: ['app'],
  }),
  text('supervision', 'standingInstructions', { min: 0, max: 2000 }, '', {
    label: 'Standing instructions',
    help: 'Added to every task\u2019s prompt, apart from the goal, e.g. "My name is Ana. Accept permission pop-ups. Never buy anything."',
    placeholder: 'My name is Ana. Never buy anything.',
    whenEmpty: 'none',
    section: 'Supervision',
    appliesTo: AI,
  }),
  toggle('aiPlanner', 'reuseRuns', true, {
    label: 'Reuse successful runs',
    help: 'Off: the model plans every step of every task.',
    helpOn:
      'On: a goal the model carried out to a verified success before (the same words), started on the same app, follows that run\u2019s steps while each one finds its element and verifies, and calls the model only where the screen differs. Settings lists these runs under \u201cReused runs\u201d.',
    section: 'Planner',
    env: 'AI_PLANNER_REUSE_RUNS',
    appliesTo: AI,
  }),
  toggle('aiPlanner', 'sendScreenshot', true, {
    label: 'Send a screenshot to the planner',
    help: 'The screen\u2019s UI elements are always sent.',
    section: 'Screenshot',
    appliesTo: AI,
  }),
  number('aiPlanner', 'screenshotLongEdge', LIMITS.screenshotLongEdge, 1456, {
    label: 'Screenshot size, long edge',
    unit: 'pixels',
    section: 'Screenshot',
    appliesTo: AI,
  }),
  number('perception', 'sceneTokenBudget', LIMITS.sceneTokenBudget, DEFAULT_SCENE_TOKEN_BUDGET, {
    label: 'Screen\u2019s UI elements per turn, at most',
    unit: 'tokens',
    help: 'A screen whose elements need more (a long web page, a tablet) first shortens giant texts and folds controls repeated on every row, then keeps what can be acted on before plain text, and tells the planner what it folded and left out.',
    section: 'Screenshot',
    env: 'AMC_SCENE_TOKEN_BUDGET',
    appliesTo: ['app'],
  }),
  secret('ANTHROPIC_API_KEY', { label: 'Anthropic API key', section: 'Direct access', appliesTo: ['anthropic'] }),
  secret('OPENAI_API_KEY', { label: 'OpenAI API key', section: 'Direct access', appliesTo: ['openai'] }),
  url('anthropic', 'baseURL', {
    label: 'Anthropic base URL',
    placeholder: 'https://api.anthropic.com',
    whenEmpty: 'the provider\u2019s public endpoint',
    section: 'Direct access',
    env: 'ANTHROPIC_BASE_URL',
    appliesTo: ['anthropic'],
  }),
  url('openai', 'baseURL', {
    label: 'OpenAI-compatible base URL',
    placeholder: 'https://api.openai.com/v1',
    whenEmpty: 'the provider\u2019s public endpoint',
    help: 'Any OpenAI-compatible server works here, e.g. Ollama, vLLM or LM Studio.',
    section: 'Direct access',
    env: 'OPENAI_BASE_URL',
    appliesTo: ['openai'],
  }),
  url('controlPlane', 'url', {
    label: 'Control-plane URL',
    placeholder: 'https://control.example.com',
    whenEmpty: 'unset',
    section: 'Cloud control plane',
    env: 'CONTROL_PLANE_URL',
    appliesTo: ['cloud-proxy'],
  }),
  secret('CONTROL_PLANE_TOKEN', { label: 'Control-plane token', section: 'Cloud control plane', appliesTo: ['cloud-proxy'] }),
  text('adb', 'host', { min: 1, max: 253 }, '127.0.0.1', {
    label: 'adb server host',
    placeholder: '127.0.0.1',
    section: 'adb server',
    appliesTo: ['app'],
  }),
  number('adb', 'port', LIMITS.adbPort, 5037, {
    label: 'adb server port',
    section: 'adb server',
    env: 'ANDROID_ADB_SERVER_PORT',
    appliesTo: ['app'],
  }),
  toggle('helpers', 'videoMirror', true, {
    label: 'Video mirror (scrcpy)',
    help: 'Mirrors the phone as video through scrcpy-server 3.3.3 when it is available; off, or when it is not, the mirror shows screenshots.',
    section: 'Phone helpers',
    env: 'AMC_VIDEO_MIRROR',
    appliesTo: ['app'],
  }),
  text('helpers', 'scrcpyServerPath', { min: 0, max: 1024 }, '', {
    label: 'scrcpy-server 3.3.3 file',
    help: 'A path to the scrcpy-server file of release 3.3.3. Empty: the copy shipped with the app, else an installed scrcpy 3.3.3, else a one-time download; each checked against its pinned SHA-256.',
    whenEmpty: 'the shipped copy, else an installed scrcpy 3.3.3, else the verified download',
    section: 'Phone helpers',
    env: 'SCRCPY_SERVER_PATH',
    appliesTo: ['app'],
  }),
  text('helpers', 'yadbPath', { min: 0, max: 1024 }, '', {
    label: 'yadb 1.1.1 file',
    help: 'A path to the yadb file, which types any language without a keyboard app. Empty: the copy shipped with the app, else a one-time download; each checked against its pinned SHA-256.',
    whenEmpty: 'the shipped copy, else the verified download',
    section: 'Phone helpers',
    env: 'YADB_PATH',
    appliesTo: ['app'],
  }),
  toggle('helpers', 'download', true, {
    label: 'Download missing helpers',
    help: 'Fetches a missing helper once from its official release and keeps it in the data folder; a file whose SHA-256 differs is discarded.',
    section: 'Phone helpers',
    env: 'AMC_HELPER_DOWNLOAD',
    appliesTo: ['app'],
  }),
  choice(
    'typing',
    'method',
    TYPING_METHODS,
    'auto',
    { auto: 'Automatic (yadb, then ADBKeyBoard)', yadb: 'yadb only', 'adb-keyboard': 'ADBKeyBoard only' },
    {
      label: 'Typing text adb cannot type',
      help: {
        auto: 'Non-ASCII and shell-hostile text is typed with yadb when it is available, else with ADBKeyBoard when that is installed.',
        yadb: 'Always yadb; a clear error when it is not available.',
        'adb-keyboard': 'Always ADBKeyBoard (it must be installed and enabled on the phone).',
      },
      section: 'Phone helpers',
      env: 'AMC_TYPING_METHOD',
      appliesTo: ['app'],
    },
  ),
  deviceGroups('fleet', 'deviceGroups', {
    label: 'Device groups',
    help: 'One group per entry, "name: serial serial", separated by ";", e.g. "lab: emulator-5554 127.0.0.1:5601". A launch on a group runs the goal on each of its phones; a fleet worker offers its phones in their groups.',
    placeholder: 'lab: emulator-5554 127.0.0.1:5601',
    whenEmpty: 'no groups',
    section: 'Fleet',
    env: 'AMC_DEVICE_GROUPS',
    appliesTo: ['app'],
  }),
  // Off by default: anyone who can write to the fleet's Redis can queue a job, so a job's own `yes` approves nothing
  // unless this machine's owner says jobs may.
  toggle('fleet', 'jobsMayPreApprove', false, {
    label: 'Fleet jobs may approve sensitive actions',
    help: 'A fleet job that asks to approve sensitive actions in advance (amc submit --yes) still has each one refused on this machine\u2019s phones: the job fails and says why.',
    helpOn: 'A fleet job sent with --yes approves the sensitive actions it takes on this machine\u2019s phones (deleting, sending, paying) without anyone asked.',
    section: 'Fleet',
    env: 'AMC_FLEET_JOBS_MAY_PRE_APPROVE',
    appliesTo: ['app'],
  }),
  // Off by default: a job comes from whoever can write to the fleet's Redis, so it neither follows this machine's
  // plan cache nor teaches it unless this machine's owner says jobs may.
  toggle('fleet', 'jobsUsePlanCache', false, {
    label: 'Fleet jobs reuse and teach successful runs',
    help: 'A fleet job on this machine\u2019s phones is planned by the model every step, and what it does never becomes a run that this machine\u2019s own tasks follow.',
    helpOn: 'A fleet job follows this machine\u2019s earlier successful runs of its goal ("Reuse successful runs"), and a job a model drove to a verified success is followed by later tasks here.',
    section: 'Fleet',
    env: 'AMC_FLEET_JOBS_USE_PLAN_CACHE',
    appliesTo: ['app'],
  }),
  // A secret: the address may carry Redis's password, so it never reaches a window or a log (only "set").
  secret('AMC_FLEET_REDIS', {
    label: 'Fleet Redis URL',
    help: 'redis://[:PASSWORD@]HOST:PORT or rediss:// (TLS): the Redis your fleet\u2019s workers share; the Fleet view shows its workers, phones and jobs.',
    section: 'Fleet',
    appliesTo: ['app'],
  }),
] as const;

export type CatalogEntry = (typeof SETTINGS_CATALOG)[number];
export type StoredEntry = Extract<CatalogEntry, { secret: false }>;
export type SecretEntry = Extract<CatalogEntry, { secret: true }>;

/** A setting as the Settings form names it: its label and its section. */
export function settingInForm(group: string, key: string): { label: string; section: SettingSection } {
  const entry = SETTINGS_CATALOG.find((setting) => setting.group === group && setting.key === key);
  if (!entry) throw new Error(`no setting ${group}.${key} in the catalog`);
  return { label: entry.label, section: entry.section };
}
