import { z } from 'zod';
import { SaidSchema, say, type Saying } from './said';
import { schemaMessage, schemaSaying } from './schema-message';

/**
 * A flow: what a finished run did, as steps that can be carried out again on a fresh screen, without a model where
 * the screen allows it. A recorded step names its element by a locator (never by a Scene id, which changes every
 * turn, and never by a screenshot: seed D5), with the state the element was in before and the outcome it checked
 * after. A flow file (YAML) holds the same steps plus the ones a person writes: a sub-goal for the planner
 * (`ai`), a check on the Scene (`assert`) and a question to the model about the Scene (`ask_ai`).
 */

/** A flow crosses process boundaries (a schedule, a fleet job, the window): every string in it is bounded. */
export const FLOW_TEXT_MAX = 4000;
const text = z.string().min(1).max(FLOW_TEXT_MAX);
const note = z.string().max(FLOW_TEXT_MAX);
/** A flow file is at most this many bytes: bigger ones are refused before they are read whole. */
export const FLOW_FILE_MAX_BYTES = 1_000_000;
/** A flow has at most this many steps (a recorded task of the longest kind has a few hundred). */
export const FLOW_MAX_STEPS = 2_000;
/** A flow file nests at most this many levels (a step's target's field is five levels deep). */
export const FLOW_MAX_DEPTH = 20;

/**
 * Names every JavaScript object already answers to (`__proto__`, `constructor`, `toString`…): as a variable's name,
 * a lookup or an assignment by it would reach the object's machinery instead of a value.
 */
const OBJECT_NAMES = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);
export const objectNameProblem = (name: string): string | null => (OBJECT_NAMES.has(name) ? schemaSaying('schema.reservedVarName', { name }).text : null);

/** A `${name}` variable's name and value, as a flow file, `--var` and the window give them. */
export const FlowVarNameSchema = z
  .string()
  .max(100)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
  .superRefine((name, context) => {
    if (!OBJECT_NAMES.has(name)) return;
    const problem = schemaSaying('schema.reservedVarName', { name });
    context.addIssue({ code: 'custom', message: problem.text, params: { objectName: name, said: problem.said } });
  });
export const FlowVarValueSchema = z.string().max(2000);

/**
 * What told an element apart from others its naming fields also match (two rows "Ann Lee"), recorded only then and
 * only when it singled the element out: never its place among them, which a reordered list changes. Every fact given
 * must hold on the element a replay acts on.
 */
export const DistinguishingFactsSchema = z
  .object({
    /** The other parts of its label, after the first: a row's other texts ("+1 555-0222"). */
    otherTexts: z.array(text).min(1).max(8).optional(),
    /** Its checked state (a switch or checkbox). */
    checked: z.boolean().optional(),
    /** It follows this name: the nearest named element before it in reading order that the naming fields do not match (a section's header). */
    follows: text.optional(),
    /** It precedes this name: the nearest such element after it. */
    precedes: text.optional(),
  })
  .strict()
  .refine((facts) => Object.keys(facts).length > 0, schemaMessage('schema.distinguishedByEmpty'));
export type DistinguishingFacts = z.infer<typeof DistinguishingFactsSchema>;

/** The states a Maestro selector may ask of an element (`enabled: false`, `checked: true`…); each given must hold. */
export const LocatorStateSchema = z
  .object({ enabled: z.boolean().optional(), checked: z.boolean().optional(), focused: z.boolean().optional(), selected: z.boolean().optional() })
  .strict();
export type LocatorState = z.infer<typeof LocatorStateSchema>;

/** The most pixels a size selector's width, height or tolerance may give (beyond any phone screen). */
export const LOCATOR_SIZE_MAX = 100_000;
const pixels = z.number().int().min(0).max(LOCATOR_SIZE_MAX);
/** An element's size in device pixels (Maestro's `width`/`height`), each within `tolerance` pixels (default 0). */
export const LocatorSizeSchema = z
  .object({ width: pixels.optional(), height: pixels.optional(), tolerance: pixels.optional() })
  .strict()
  .refine((size) => size.width !== undefined || size.height !== undefined, schemaMessage('schema.sizeNeedsSide'));
export type LocatorSize = z.infer<typeof LocatorSizeSchema>;

/** The most look-alikes an `index` may count into (a list's rows on one screen are far fewer). */
export const LOCATOR_INDEX_MAX = 1000;

/**
 * Where an element lies against others, or what it holds (Maestro's relative selectors), each other element named by
 * a locator that must find it alone: below/above/leftOf/rightOf compare the elements' top or left edges (as
 * Maestro does); childOf/containsChild/containsDescendants compare bounds, or the parts a row's label folds in.
 */
export interface LocatorRelations {
  below?: Locator;
  above?: Locator;
  leftOf?: Locator;
  rightOf?: Locator;
  childOf?: Locator;
  containsChild?: Locator;
  containsDescendants?: Locator[];
}
export const LOCATOR_RELATIONS = ['below', 'above', 'leftOf', 'rightOf', 'childOf', 'containsChild', 'containsDescendants'] as const;

/**
 * How to find an element again on a fresh Scene: the fields it had when it was acted on. Resolution needs every
 * field given here to match, and where they match several elements, `distinguishedBy` to single one out, or a
 * written `index`: position alone never decides unless a person wrote it.
 */
const locatorFields = {
  /** The package of the app the element was in. */
  app: text.optional(),
  resourceId: text.optional(),
  text: text.optional(),
  desc: text.optional(),
  hint: text.optional(),
  /** The element's type, e.g. `switch`, `button`, `text-field`. */
  type: text.optional(),
  /** Any of the element's own words, its text, description or hint (a Maestro `text` selector). */
  label: text.optional(),
  /** The label of the row (list item) the element sits in, for a switch or a button that has none of its own. */
  row: text.optional(),
  distinguishedBy: DistinguishingFactsSchema.optional(),
  /** A regular expression the element's text, description or hint matches as a whole, ignoring case (Maestro's `text`). */
  labelPattern: text.optional(),
  /** A regular expression the element's resource id matches as a whole, with or without its package (Maestro's `id`). */
  idPattern: text.optional(),
  state: LocatorStateSchema.optional(),
  size: LocatorSizeSchema.optional(),
  /** Which of the elements every other field matches, counted from 0 top to bottom, then left to right (a person's choice). */
  index: z.number().int().min(0).max(LOCATOR_INDEX_MAX).optional(),
};
/** A locator's own fields; `relative` names other elements by locators in turn. */
export type Locator = z.infer<z.ZodObject<typeof locatorFields>> & { relative?: LocatorRelations };

const LocatorRelationsSchema: z.ZodType<LocatorRelations> = z.lazy(() =>
  z
    .object({
      below: LocatorSchema.optional(),
      above: LocatorSchema.optional(),
      leftOf: LocatorSchema.optional(),
      rightOf: LocatorSchema.optional(),
      childOf: LocatorSchema.optional(),
      containsChild: LocatorSchema.optional(),
      containsDescendants: z.array(LocatorSchema).min(1).max(20).optional(),
    })
    .strict()
    .refine((relations) => Object.keys(relations).length > 0, schemaMessage('schema.relativeNeedsOne', { relations: LOCATOR_RELATIONS.join(', ') })),
);

export const LocatorSchema = z
  .object({ ...locatorFields, relative: LocatorRelationsSchema.optional() })
  .strict()
  .refine((locator) => Boolean(locator.resourceId ?? locator.text ?? locator.desc ?? locator.hint ?? locator.label ?? locator.row ?? locator.labelPattern ?? locator.idPattern ?? locator.relative ?? locator.size), {
    // Patterns, relative positions and sizes are what a Maestro selector gives; a person writing this format names the fields above.
    ...schemaMessage('schema.locatorNeedsOne'),
  });

/** The element's state before the action, so a replay acts only on an element in the same state. */
export const ElementStateSchema = z.object({ checked: z.boolean().optional(), selected: z.boolean().optional() }).strict();
export type ElementState = z.infer<typeof ElementStateSchema>;

/**
 * What held after the action, which a replay checks to skip a step whose outcome already holds ("Wi-Fi is already
 * on") and to verify one it took.
 */
export const ExpectedOutcomeSchema = z
  .object({
    /** The element (the step's target) is checked / unchecked. */
    checked: z.boolean().optional(),
    /** This app is in front. */
    app: text.optional(),
    /** The field (the step's target) shows this text. */
    fieldText: note.optional(),
  })
  .strict();
export type ExpectedOutcome = z.infer<typeof ExpectedOutcomeSchema>;

/** How long a step may wait for the screen to show what it needs, in milliseconds (default 17 s; 7 s for an optional step). */
export const StepTimeoutSchema = z.number().int().min(0).max(600_000);

/** When a step (or a block) runs: only while the screen shows (or does not show) a text, judged once without waiting. */
export const StepConditionSchema = z
  .object({ visible: text.optional(), not_visible: text.optional() })
  .strict()
  .refine((condition) => (condition.visible === undefined) !== (condition.not_visible === undefined), schemaMessage('schema.conditionNeedsOne'));
export type StepCondition = z.infer<typeof StepConditionSchema>;

/** What any step may add: `optional` (a miss is noted, the flow goes on) and `when` (the step runs only then). */
const stepControl = {
  /** A step that may not find its element or condition (a one-off dialog): the flow goes on without it after 7 s. */
  optional: z.boolean().optional(),
  when: StepConditionSchema.optional(),
};

/** A point on the screen, in pixels (`540,1200`) or in percent of its width and height (`50%,50%`). */
export const POINT_PATTERN = /^\s*(\d+(?:\.\d+)?)(%?)\s*,\s*(\d+(?:\.\d+)?)(%?)\s*$/;

/** A recorded action: a tool call whose element is named by a locator instead of a Scene id. */
export const ActionStepSchema = z
  .object({
    /** The tool, as the registry names it (`tap`, `type_text`, `launch_app`, `press_key`, `swipe`, `wait`…). */
    tool: text,
    /** The call's arguments without `element_id` (and without x/y when the target has a locator). */
    args: z.record(z.string().max(100), z.unknown()).default({}),
    target: LocatorSchema.optional(),
    before: ElementStateSchema.optional(),
    expect: ExpectedOutcomeSchema.optional(),
    /** Why the step was taken (the model's rationale when recorded), shown in the timeline. */
    why: note.optional(),
    /** How long the step's target may take to appear (ms). */
    timeout: StepTimeoutSchema.optional(),
    /** A written point to act on instead of an element (`50%,50%`): a person's explicit choice, checked as any action. */
    point: z.string().regex(POINT_PATTERN, schemaMessage('schema.pointForm')).optional(),
    ...stepControl,
  })
  .strict();
export type ActionStep = z.infer<typeof ActionStepSchema>;

/**
 * A written condition (Maestro's `assertTrue`): operators and `$N` slots, and the slots' values (a variable as
 * `${NAME}`, filled in like any other), so a value can never change the expression.
 */
export const FlowConditionSchema = z
  .object({
    /** As the file wrote it, for the report. */
    written: text,
    expression: z.string().max(FLOW_TEXT_MAX).regex(/^[\s$\d()=!<>&|]*$/, schemaMessage('schema.expressionForm')),
    values: z.array(z.union([z.string().max(FLOW_TEXT_MAX), z.number(), z.boolean()])).max(200),
  })
  .strict();
export type FlowCondition = z.infer<typeof FlowConditionSchema>;

/** A condition on the Scene; every field given must hold. */
export const AssertionSchema = z
  .object({
    /** Some element shows this text (text, desc or hint contains it, ignoring case). */
    visible: text.optional(),
    /** No element shows this text. */
    absent: text.optional(),
    /** The element found by this locator is checked. */
    checked: LocatorSchema.optional(),
    /** The element found by this locator is not checked. */
    unchecked: LocatorSchema.optional(),
    /** An element this locator matches is on screen (any of several, unless it gives an index: nothing is acted on). */
    element: LocatorSchema.optional(),
    /** No element this locator matches is on screen. */
    no_element: LocatorSchema.optional(),
    /** A written condition on the flow's variables is true (judged once, not on the screen). */
    condition: FlowConditionSchema.optional(),
    /** This app (package) is in front. */
    app: text.optional(),
  })
  .strict()
  .refine((assertion) => Object.keys(assertion).length > 0, schemaMessage('schema.assertNeedsOne'));
export type Assertion = z.infer<typeof AssertionSchema>;

/** A question the model answers from the Scene: yes/no, or a value kept in a variable for later steps. */
export const AskAiSchema = z
  .object({
    question: text,
    /** `yes-no` fails the flow on "no"; `extract` keeps the answer in `into`. */
    kind: z.enum(['yes-no', 'extract']).default('yes-no'),
    into: FlowVarNameSchema.optional(),
  })
  .strict();
export type AskAi = z.infer<typeof AskAiSchema>;

export const WaitUntilSchema = z
  .object({
    visible: text.optional(),
    not_visible: text.optional(),
    timeout: StepTimeoutSchema.optional(),
  })
  .strict()
  .refine((wait) => (wait.visible === undefined) !== (wait.not_visible === undefined), schemaMessage('schema.waitUntilNeedsOne'));
export type WaitUntil = z.infer<typeof WaitUntilSchema>;

/** The most a `repeat` runs its steps, and the most a `retry` tries them again (each try sends its actions anew). */
export const REPEAT_TIMES_MAX = 1000;
export const RETRY_MAX = 3;
export const SCROLL_DIRECTIONS = ['up', 'down', 'left', 'right'] as const;

const AiStepSchema = z.object({ ai: text, ...stepControl }).strict();
const AssertStepSchema = z.object({ assert: AssertionSchema, timeout: StepTimeoutSchema.optional(), ...stepControl }).strict();
const AskAiStepSchema = z.object({ ask_ai: AskAiSchema, ...stepControl }).strict();
const WaitUntilStepSchema = z.object({ wait_until: WaitUntilSchema, ...stepControl }).strict();
const WaitForSettleStepSchema = z.object({ wait_for_settle: z.object({ timeout: StepTimeoutSchema.optional() }).strict().nullable(), ...stepControl }).strict();
/** Scrolls (swipes the other way) until an element shows, up to `timeout` ms; fails when it never does. */
export const ScrollUntilVisibleSchema = z
  .object({ target: LocatorSchema, direction: z.enum(SCROLL_DIRECTIONS).default('down'), timeout: StepTimeoutSchema.optional() })
  .strict();
const ScrollUntilVisibleStepSchema = z.object({ scroll_until_visible: ScrollUntilVisibleSchema, ...stepControl }).strict();
/** Keeps the words of the one element a locator finds (a field's content, else its name) in a variable (Maestro's copyTextFrom). */
export const CopyTextSchema = z.object({ from: LocatorSchema, into: FlowVarNameSchema }).strict();
const CopyTextStepSchema = z.object({ copy_text: CopyTextSchema, timeout: StepTimeoutSchema.optional(), ...stepControl }).strict();

/**
 * Why a screenshot's name cannot be a file in the run's output folder (absolute, climbing out with `..`, a control
 * character), else undefined: the name is the one part of the path a flow file chooses.
 */
export function screenshotNameProblem(name: string): Saying | undefined {
  if (!name.trim() || name.length > 200) return say('flowFile.screenshot.nameLength');
  if (/^[/\\]|^[A-Za-z]:/.test(name)) return say('flowFile.screenshot.absolute', { name });
  if (name.split(/[/\\]/).includes('..')) return say('flowFile.screenshot.climbsOut', { name });
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(name)) return say('flowFile.screenshot.controlCharacters');
  return undefined;
}
/** Saves the phone's screen as NAME.png in the run's output folder (Maestro's takeScreenshot); never kept in history. */
const ScreenshotNameSchema = text.superRefine((name, context) => {
  const problem = screenshotNameProblem(name);
  // The code goes with the issue, so a flow file's reader words it in the person's language.
  if (problem) context.addIssue({ code: 'custom', message: problem.text, params: { said: problem.said } });
});
const ScreenshotStepSchema = z.object({ screenshot: ScreenshotNameSchema, ...stepControl }).strict();

type Control = { optional?: boolean; when?: StepCondition };
/** Steps run as one: inline, or another flow file's (`run_flow: login.yaml`, read when the file is read), with its own vars. */
export interface RunFlowStep extends Control {
  run_flow: { steps: FlowStep[]; file?: string; vars?: Record<string, string> };
}
/** Steps run `times` times, or while a condition holds (judged before each round, at most REPEAT_TIMES_MAX rounds). */
export interface RepeatStep extends Control {
  repeat: { times?: number; while?: StepCondition; steps: FlowStep[] };
}
/** Steps tried again from their first when one of them fails, at most `max` (≤ 3) more times. */
export interface RetryStep extends Control {
  retry: { max: number; steps: FlowStep[] };
}
export type FlowStep =
  | ActionStep
  | z.infer<typeof AiStepSchema>
  | z.infer<typeof AssertStepSchema>
  | z.infer<typeof AskAiStepSchema>
  | z.infer<typeof WaitUntilStepSchema>
  | z.infer<typeof WaitForSettleStepSchema>
  | z.infer<typeof ScrollUntilVisibleStepSchema>
  | z.infer<typeof CopyTextStepSchema>
  | z.infer<typeof ScreenshotStepSchema>
  | RunFlowStep
  | RepeatStep
  | RetryStep;

const nested = (): z.ZodType<FlowStep[]> => z.array(FlowStepSchema).min(1);
export const FlowStepSchema: z.ZodType<FlowStep> = z.lazy(() =>
  z.union([
    ActionStepSchema,
    /** A sub-goal the planner reaches with the model, as an AI task would. */
    AiStepSchema,
    /** A condition that must hold, waited for up to `timeout` ms. */
    AssertStepSchema,
    AskAiStepSchema,
    /** Waits until the screen shows (or no longer shows) a text, up to `timeout` ms; fails when it does not. */
    WaitUntilStepSchema,
    /** Waits until the screen stops changing (two equal reads), up to `timeout` ms; never fails. */
    WaitForSettleStepSchema,
    ScrollUntilVisibleStepSchema,
    CopyTextStepSchema,
    ScreenshotStepSchema,
    z.object({ run_flow: z.object({ steps: nested(), file: text.optional(), vars: z.record(FlowVarNameSchema, FlowVarValueSchema).optional() }).strict(), ...stepControl }).strict(),
    z
      .object({
        repeat: z
          .object({ times: z.number().int().min(1).max(REPEAT_TIMES_MAX).optional(), while: StepConditionSchema.optional(), steps: nested() })
          .strict()
          .refine((repeat) => repeat.times !== undefined || repeat.while !== undefined, schemaMessage('schema.repeatNeedsOne')),
        ...stepControl,
      })
      .strict(),
    z.object({ retry: z.object({ max: z.number().int().min(1).max(RETRY_MAX), steps: nested() }).strict(), ...stepControl }).strict(),
  ]),
);

/**
 * The answer a question task finished with, and where on its last screen the answer was read: a replay reads the
 * same place again and answers with what it shows now, never with what it showed then.
 */
export const FlowAnswerSchema = z
  .object({
    /** The answer as recorded ("This phone runs Android 14."). */
    text,
    /** The element it was read from. */
    from: LocatorSchema,
    /** Which part of that element's label ("14" of "Android version | 14"), counted from 0. */
    part: z.number().int().nonnegative().default(0),
    /** What that part said when recorded: the words of `text` that a replay puts the part's new words in place of. */
    read: text,
  })
  .strict();
export type FlowAnswer = z.infer<typeof FlowAnswerSchema>;

export const FLOW_VERSION = 1;

export const FlowSchema = z
  .object({
    version: z.literal(FLOW_VERSION).default(FLOW_VERSION),
    /** The goal the flow reaches, in the person's words. */
    goal: text,
    /** The app the flow starts in (package), when it was recorded in one. */
    app: text.optional(),
    /** Default values of `${name}` variables; `--var name=value` overrides them. */
    vars: z.record(FlowVarNameSchema, FlowVarValueSchema).default({}),
    /** The task it was recorded from, when it was. */
    recordedFrom: z.string().max(200).optional(),
    steps: z.array(FlowStepSchema).min(1).max(FLOW_MAX_STEPS),
    /** Where each step was written, by line (a Maestro file's: a report names a failing command by its line). */
    lines: z.array(z.number().int().positive()).max(FLOW_MAX_STEPS).optional(),
    /**
     * The steps from this index on run even after an earlier step failed (Maestro's onFlowComplete); the run still
     * fails with the first failure, and a failure among them is reported after it, never in its place.
     */
    alwaysFrom: z.number().int().nonnegative().max(FLOW_MAX_STEPS).optional(),
    answer: FlowAnswerSchema.optional(),
  })
  .strict();
export type Flow = z.infer<typeof FlowSchema>;

/**
 * How a step of a replayed or cached run came about, as the timeline marks it; `fixed`: planned by the model in a
 * replay the person let it fix, where the screen differed from the recording; `runtime`: the runtime's own step (Back
 * out of an app outside the task's allowed apps), which no planner chose.
 */
export const STEP_SOURCES = ['model', 'replayed', 'cache', 'skipped', 'fixed', 'runtime'] as const;
export type StepSource = (typeof STEP_SOURCES)[number];

export const isActionStep = (step: FlowStep): step is ActionStep => 'tool' in step;

/**
 * How a step of a flow run went: `passed` (carried out and checked, or a check that held), `failed`, `healed` (it did
 * not match, and the model carried out what it meant: `--heal`), `skipped-already-done` (its outcome already held on
 * the screen, so nothing was done), `not-run` (an earlier step failed, the run stopped, or the run ended before it).
 */
export const FLOW_STEP_STATUSES = ['passed', 'failed', 'healed', 'skipped-already-done', 'not-run'] as const;
export type FlowStepStatus = (typeof FLOW_STEP_STATUSES)[number];
/** The statuses a run passes with: a healed step passes (when healing was asked for), and says so. */
export const PASSING_STEP_STATUSES: readonly FlowStepStatus[] = ['passed', 'healed', 'skipped-already-done'];
export const FLOW_STEP_KINDS = ['action', 'ai', 'assert', 'ask_ai', 'wait', 'block'] as const;

/** One step of a flow run, as `amc flow run` prints it, its JUnit report carries it and a fleet job's result keeps it. */
export const FlowStepResultSchema = z.object({
  /** 0-based position in the flow's steps. */
  index: z.number().int().nonnegative(),
  kind: z.enum(FLOW_STEP_KINDS),
  /** The step as the file writes it, on one line (`tap: { text: Wi-Fi }`). */
  label: z.string(),
  /** The label's code, when it names the step's line in the file ("line 4: …"), for a reader in another language. */
  labelSaid: SaidSchema.optional(),
  status: z.enum(FLOW_STEP_STATUSES),
  /** What happened in plain words: the fact an assert found, why a step failed, "skipped: already done". */
  detail: z.string(),
  /** The detail's code, for a reader in another language (a refusal: which action, and that the person said no). */
  said: SaidSchema.optional(),
  durationMs: z.number().nonnegative(),
});
export type FlowStepResult = z.infer<typeof FlowStepResultSchema>;

/** The statuses the replay gives a step it carried out or checked (`not-run` is only ever the report's, for the rest). */
export const SETTLED_STEP_STATUSES = ['passed', 'failed', 'healed', 'skipped-already-done'] as const satisfies readonly FlowStepStatus[];

/**
 * A flow's marks on the turn the replay planned: the flow step the turn carries out (`step`: its index among the flow's
 * steps, the line it is written on, the file a `run_flow` brought it from), and the steps whose result the replay knew
 * while planning it (`settled`: a check that held, the action before it that verified, a step that failed). The turns
 * a model plans after a step failed carry no step: a flow run's report is a fold over these marks, never a guess.
 */
export const FlowTurnSchema = z.object({
  step: z
    .object({
      index: z.number().int().nonnegative(),
      line: z.number().int().positive().optional(),
      file: z.string().max(500).optional(),
    })
    .optional(),
  settled: z.array(
    z.object({
      index: z.number().int().nonnegative(),
      status: z.enum(SETTLED_STEP_STATUSES),
      detail: z.string(),
      said: SaidSchema.optional(),
      /** A healed step: the turns the model acted on in its place. */
      healedOn: z.array(z.number().int().positive()).optional(),
    }),
  ),
});
export type FlowTurn = z.infer<typeof FlowTurnSchema>;
export type FlowStepMark = FlowTurn['settled'][number];

/** A flow run passes only when every one of its steps (asserts and questions included) passed (or was healed or already done). */
export const flowPassed = (steps: readonly FlowStepResult[]): boolean => steps.every((step) => PASSING_STEP_STATUSES.includes(step.status));
/** How many steps passed (healed and skipped ones included). */
export const stepsPassed = (steps: readonly FlowStepResult[]): number => steps.filter((step) => PASSING_STEP_STATUSES.includes(step.status)).length;

/** A flow as a job or a schedule carries it: its content (variables filled in), and the name of the file it came from. */
export const NamedFlowSchema = z
  .object({
    /** The file's name without its folder and extension (`new-note` for flows/new-note.yaml). */
    name: z.string().trim().min(1).max(200),
    content: FlowSchema,
  })
  .strict();
export type NamedFlow = z.infer<typeof NamedFlowSchema>;
