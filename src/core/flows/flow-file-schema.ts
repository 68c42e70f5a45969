import { z } from 'zod';
import { schemaMessage } from '../../shared/schema-message';
import {
  ActionStepSchema,
  AskAiSchema,
  AssertionSchema,
  CopyTextSchema,
  ElementStateSchema,
  ExpectedOutcomeSchema,
  FLOW_TEXT_MAX,
  FlowSchema,
  FlowVarNameSchema,
  FlowVarValueSchema,
  LocatorSchema,
  REPEAT_TIMES_MAX,
  RETRY_MAX,
  ScrollUntilVisibleSchema,
  StepConditionSchema,
  StepTimeoutSchema,
  WaitUntilSchema,
} from '../../shared/flow';
import { ACTION_TOOL_NAMES, ACTION_TOOLS } from '../tools/registry';

/**
 * The flow file's own form: FlowSchema (src/shared/flow.ts) plus the short forms a person writes and reads, each of
 * which normalizes into a FlowSchema step (flow-file.ts). Built from FlowSchema's parts and the tool registry, so
 * the editor schema (`flowJsonSchema`) and the checks never restate a field.
 *
 *   - tap: {text: "Wi-Fi"}                        a tool by name; locator fields inline (or `target:`), its arguments
 *   - type_text: {target: {resourceId: search}, text: "${city}"}
 *   - launch_app: Settings                        a tool whose one required argument is given as it is
 *   - ask_ai: "Is Wi-Fi on?"                      a yes/no question; `{question, into}` extracts into a variable
 */

/** The fields of an action step besides its tool and arguments, written beside the arguments in the short form. */
export const STEP_FIELDS = ['target', 'before', 'expect', 'why', 'timeout', 'point', 'optional', 'when'] as const;
export const LOCATOR_FIELDS = Object.keys(LocatorSchema.shape) as (keyof typeof LocatorSchema.shape)[];

/** A flow never names an element by a Scene id: ids are renumbered every turn, so a target locator stands for it. */
const SCENE_ID_ARGUMENT = 'element_id';

export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const argumentShapeCache = new Map<string, Record<string, z.ZodType>>();

/** The arguments a flow may give a tool: its registry schema's, without the per-turn element id. */
export function flowArgumentShape(toolName: string): Record<string, z.ZodType> | undefined {
  const cached = argumentShapeCache.get(toolName);
  if (cached) return cached;
  const schema = ACTION_TOOLS.get(toolName)?.schema;
  if (!(schema instanceof z.ZodObject)) return undefined;
  const { [SCENE_ID_ARGUMENT]: _sceneId, ...shape } = schema.shape as Record<string, z.ZodType>;
  argumentShapeCache.set(toolName, shape);
  return shape;
}

/** Whether the tool's calls land on a place of the screen (as it declares its aim), so a step may give it a target. */
export function takesTarget(toolName: string): boolean {
  const aim = ACTION_TOOLS.get(toolName)?.aim;
  return aim !== undefined && aim !== 'none';
}

/** Whether the tool aims at one element or a point (tap, long_press), as it declares its aim: it then needs a target, or x and y. */
export function aimsAtPoint(toolName: string): boolean {
  return ACTION_TOOLS.get(toolName)?.aim === 'element';
}

/** The tool's one required argument, which the short form may give bare (`- launch_app: Settings`). */
export function loneRequiredArgument(toolName: string): string | undefined {
  const required = Object.entries(flowArgumentShape(toolName) ?? {}).filter(([, schema]) => !schema.safeParse(undefined).success);
  return required.length === 1 ? required[0]![0] : undefined;
}

/** The arguments of a tool in a flow: the registry's schema without element_id. */
export function flowArgumentsSchema(toolName: string): z.ZodObject | undefined {
  const shape = flowArgumentShape(toolName);
  return shape ? z.strictObject(shape) : undefined;
}

/**
 * `- <tool>: {…}`: the tool's arguments, plus (for a tool that acts on an element) the target's locator fields inline
 * or as `target:`, plus before/expect/why. An argument that shares a locator field's name (type_text's `text`) is the
 * argument; such a tool's target goes under `target:`.
 */
export function shortStepBodySchema(toolName: string): z.ZodObject {
  const argumentShape = flowArgumentShape(toolName) ?? {};
  const locatorShape: Record<string, z.ZodType> = takesTarget(toolName) ? LocatorSchema.shape : {};
  const stepShape = ActionStepSchema.shape;
  return z.strictObject({
    ...(takesTarget(toolName) ? { target: stepShape.target } : {}),
    ...Object.fromEntries(Object.entries(locatorShape).map(([field, schema]) => [field, schema.describe(`The target's ${field} (a locator field).`)])),
    ...argumentShape,
    before: ElementStateSchema.optional(),
    expect: ExpectedOutcomeSchema.optional(),
    why: stepShape.why,
    timeout: stepShape.timeout,
    ...(aimsAtPoint(toolName) ? { point: stepShape.point } : {}),
    optional: stepShape.optional,
    when: stepShape.when,
  });
}

/** The short form of one tool's step: its body, or its one required argument given bare. */
export function shortStepSchema(toolName: string): z.ZodObject {
  const body = shortStepBodySchema(toolName);
  const lone = loneRequiredArgument(toolName);
  const loneSchema = lone ? flowArgumentShape(toolName)![lone]! : undefined;
  const noArguments = Object.keys(flowArgumentShape(toolName) ?? {}).length === 0;
  const value = loneSchema ? z.union([loneSchema, body]) : noArguments ? z.union([z.null(), body]) : body;
  return z.strictObject({ [toolName]: value });
}

/** `ask_ai`: a question (yes/no), or the full form; `into` without a kind means extract. */
export const AskAiFileSchema = z.union([
  AskAiSchema.shape.question,
  AskAiSchema.extend({ kind: AskAiSchema.shape.kind.unwrap().optional() }).refine((ask) => !(ask.into && ask.kind === 'yes-no'), {
    ...schemaMessage('schema.intoGoesWithExtract'),
    path: ['into'],
  }),
]);

/** What any step may add, beside its own key: `optional` and `when`. */
const control = { optional: z.boolean().optional(), when: StepConditionSchema.optional() };
/** A block's steps as the file writes them: each is read in its own form (the parser goes into them). */
const innerSteps = z.array(z.unknown()).min(1);

/** The forms of a block step, its inner steps left to the parser (flow-file.ts reads each in its own form). */
export const BLOCK_FORMS = ['run_flow', 'repeat', 'retry'] as const;

/** Every form a step of a flow file may take; FlowStepSchema's own forms are all among them. */
export const fileStepSchemas = () => ({
  action: ActionStepSchema,
  ai: z.strictObject({ ai: z.string().min(1).max(FLOW_TEXT_MAX).describe('A sub-goal the planner reaches with the model.'), ...control }),
  assert: z.strictObject({ assert: AssertionSchema, timeout: StepTimeoutSchema.optional(), ...control }),
  ask_ai: z.strictObject({ ask_ai: AskAiFileSchema, ...control }),
  wait_until: z.strictObject({ wait_until: WaitUntilSchema, ...control }),
  wait_for_settle: z.strictObject({ wait_for_settle: z.strictObject({ timeout: StepTimeoutSchema.optional() }).nullable(), ...control }),
  scroll_until_visible: z.strictObject({
    scroll_until_visible: z.union([LocatorSchema.shape.text.unwrap().describe('A text to scroll to.'), ScrollUntilVisibleSchema]),
    ...control,
  }),
  copy_text: z.strictObject({ copy_text: CopyTextSchema, timeout: StepTimeoutSchema.optional(), ...control }),
  run_flow: z.strictObject({
    run_flow: z.union([
      z.string().min(1).max(1000).describe('Another flow file, relative to this one.'),
      z.strictObject({ file: z.string().min(1).max(1000).optional(), steps: innerSteps.optional(), vars: z.record(FlowVarNameSchema, FlowVarValueSchema).optional() }).refine((block) => (block.file === undefined) !== (block.steps === undefined), {
        ...schemaMessage('schema.runFlowFileOrSteps'),
      }),
    ]),
    vars: z.record(FlowVarNameSchema, FlowVarValueSchema).optional(),
    ...control,
  }),
  repeat: z.strictObject({
    repeat: z
      .strictObject({ times: z.number().int().min(1).max(REPEAT_TIMES_MAX).optional(), while: StepConditionSchema.optional(), steps: innerSteps })
      .refine((repeat) => repeat.times !== undefined || repeat.while !== undefined, schemaMessage('schema.repeatNeedsOne')),
    ...control,
  }),
  retry: z.strictObject({ retry: z.strictObject({ max: z.number().int().min(1).max(RETRY_MAX).default(RETRY_MAX), steps: innerSteps }), ...control }),
  ...Object.fromEntries(ACTION_TOOL_NAMES.map((name) => [`tool:${name}`, shortStepSchema(name)])),
});

/** The whole file: FlowSchema with steps in any of their file forms. */
export function flowFileSchema() {
  return FlowSchema.extend({ steps: z.array(z.union(Object.values(fileStepSchemas()))).min(1) });
}

/** The JSON Schema editors validate a flow file with (YAML language servers, IDEs), generated from the zod schemas. */
export function flowJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(flowFileSchema(), { io: 'input', unrepresentable: 'any' }),
    title: 'Agentic Mobile Control flow',
    description: 'A flow file: `amc flow check FILE` checks it, `amc flow run FILE` runs it on a phone.',
  };
}
