import { z } from 'zod';
import type { StepTarget } from '../../shared/action';
import type { DecisionToolSpec } from '@amc/provider-clients';
import type { Scene } from '../../shared/scene';
import type { TypingMethod } from '../../shared/settings-catalog';
import type { HelperOnPhone } from '../device/helpers/phone-helpers';
import { toolKind, type ToolKind } from '../../shared/tool-vocabulary';
import { saidList, type Said, type Saying } from '../../shared/said';
import { issueSaidAt } from '../../shared/issue-said';

/** A problem with the call itself: reported as an error outcome before anything is sent to the phone. */
export class InvalidCall extends Error {
  /** The problem's code, for a reader in another language. */
  constructor(
    message: string,
    readonly said?: Said,
  ) {
    super(message);
  }
}

/** An InvalidCall worded by its code (the English text from the catalog, the code beside it). */
export const invalidCall = (problem: Saying): InvalidCall => new InvalidCall(problem.text, problem.said);

export interface ScreenSize {
  width: number;
  height: number;
}

/** Where a tap-like action may aim: an element of the turn's Scene, or a point in device pixels. */
export interface AimArgs {
  element_id?: string | undefined;
  x?: number | undefined;
  y?: number | undefined;
}

/** How text that `input text` cannot type is typed on this phone. */
export interface TypingPort {
  /** Settings' choice: automatic (yadb, then ADBKeyBoard), or one of them forced. */
  method(): Promise<TypingMethod>;
  /** yadb pushed to the phone and ready to run, or why it is not. */
  yadb(): Promise<HelperOnPhone>;
}

/** What a tool may do while it runs: the Executor gives every tool the same capabilities. */
export interface ToolContext {
  /** The Scene the planner saw this turn (null when the screen could not be read). */
  readonly scene: Scene | null;
  readonly signal?: AbortSignal | undefined;
  /** Runs a command that changes the phone; a failure on the phone throws. */
  send(command: string): Promise<string>;
  /** Runs a read-only command and returns its output whatever the exit code. */
  query(command: string): Promise<string>;
  /** The point an action aims at: an element's centre, or checked coordinates (`tool` names the caller in errors). */
  aimAt(args: AimArgs, tool: string): Promise<StepTarget>;
  /** The screen in device pixels (from the Scene, else the phone's own `wm size`). */
  screenSize(): Promise<ScreenSize>;
  /** Where the action lands; kept on the outcome even when a later command fails. */
  setTarget(target: StepTarget): void;
  /**
   * Before a call that opens an app: records the package (so the runtime can check it came to the foreground) and
   * throws InvalidCall when the task's allow-list does not hold it, so nothing is opened.
   */
  opening(app: string): void;
  /** The app this call opens, as its declared effect named it and the allow-list let through (undefined: none). */
  readonly openedApp?: string | undefined;
  readonly typing: TypingPort;
}

/**
 * What a call acts on: the Scene element it aims at (by id, or under its point), the text field it types into (the
 * one given, else the focused one), the phone as a whole (a key, an app), or nothing (it only looks or waits).
 */
export type ToolTarget = 'element' | 'text-field' | 'phone' | 'nothing';

/** What the next Scene can confirm about a call (a toggle's state where the element has one, else a screen change). */
export type ToolCheck = 'app-in-foreground' | 'text-in-field' | 'toggle-or-screen' | 'screen-changed';

/**
 * What a tool does, declared with it: the policy, the app allow-list and the outcome check read these and name
 * no tool. The functions get the call's parsed arguments.
 */
export interface ToolEffects<Args> {
  target: ToolTarget;
  /** How a confirmation says what the call does to its element ("taps"); default "uses <tool> on". */
  verb?: string;
  /** The app a call brings to the front, found before anything is changed, so the allow-list applies to it. */
  opensApp?: (args: Args, phone: Pick<ToolContext, 'query'>) => Promise<string>;
  /** What the next Scene can confirm (absent: nothing, as for a look or a wait). */
  verifies?: ToolCheck;
  /** The text a call types (checked in its field afterwards; a card number needs a yes). */
  typedText?: (args: Args) => string;
  /** Whether a call presses Enter, which may send what is typed next to a Send button. */
  pressesEnter?: (args: Args) => boolean;
  /** Every call needs the person's yes, whatever it aims at. */
  alwaysSensitive?: boolean;
}

/** A call's effects with its arguments applied: what the policy and the outcome check read. */
export interface CallEffects {
  target: ToolTarget;
  verb: string;
  opensApp: boolean;
  verifies: ToolCheck | null;
  typedText: string | null;
  pressesEnter: boolean;
  alwaysSensitive: boolean;
}

/**
 * Where a call lands, as a flow and a replay read it: on one element (or a point a person wrote), in the text field
 * (the one given, else the focused one), in a region given by a direction or two points (an element only narrows
 * it), or on no place of the screen (a key, an app, a look, a wait).
 */
export type ToolAim = 'element' | 'text-field' | 'region' | 'none';

/** Who is offered a tool besides flows (which may use every tool): the model, and an agent over MCP. */
export type ToolAudience = 'model' | 'agent';

interface ToolFacts {
  name: string;
  /** The tool's name as a person reads it (MCP's title). */
  title: string;
  description: string;
  aim: ToolAim;
  /** Empty for tools only people write into flows (stop_app, clear_app) and the built-in planner's look. */
  offeredTo: readonly ToolAudience[];
}

/**
 * A tool of the catalog as every reader sees it: its facts, its kind (from the shared tool vocabulary, by its
 * name), its argument schema and its provider-neutral spec.
 */
export interface CatalogTool extends ToolFacts {
  kind: ToolKind;
  schema: z.ZodType;
  spec: DecisionToolSpec;
}

/** One tool as it is declared: its facts, its effects, its argument schema and what it does with the parsed arguments. */
export interface ToolDefinition<Schema extends z.ZodType> extends ToolFacts {
  schema: Schema;
  effects: ToolEffects<z.output<Schema>>;
  /** Returns where the action landed (undefined for actions without a point). */
  run(args: z.output<Schema>, context: ToolContext): Promise<StepTarget | undefined>;
}

/** A tool the Executor runs on the phone: its facts plus `execute`, which checks raw arguments against the tool's own schema first. */
export interface ActionTool extends CatalogTool {
  /** False for tools that only look or wait (their kind): nothing reaches the phone, so no change is expected. */
  actsOnPhone: boolean;
  /** Whether its calls bring an app to the front (declared by `effects.opensApp`). */
  opensApp: boolean;
  /** The call's declared effects; null when its arguments do not fit the schema (the Executor reports those). */
  effectsOf(rawArgs: unknown): CallEffects | null;
  execute(rawArgs: unknown, context: ToolContext): Promise<StepTarget | undefined>;
}

/** The tools a runtime knows, by name (the registry's, or a test's own set). */
export type ToolCatalog = ReadonlyMap<string, ActionTool>;

/** The kinds the runtime answers itself: the phone never sees these calls. */
const ANSWERED_BY_RUNTIME: readonly ToolKind[] = ['question', 'hand-over', 'finish'];

function catalogFacts<Schema extends z.ZodType>(facts: ToolFacts & { schema: Schema }): CatalogTool {
  const { name, title, description, aim, offeredTo, schema } = facts;
  return { name, title, description, aim, offeredTo, kind: toolKind(name), schema, spec: { name, description, inputSchema: toolInputSchema(schema) } };
}

/**
 * A tool the runtime answers instead of the phone (a question to the person, a hand-over, the task's end), declared
 * like every tool: its facts and its argument schema, never hand-written JSON.
 */
export function defineRuntimeTool<Schema extends z.ZodType>(definition: ToolFacts & { schema: Schema }): CatalogTool {
  const tool = catalogFacts(definition);
  if (!ANSWERED_BY_RUNTIME.includes(tool.kind)) throw new Error(`${tool.name} is a ${tool.kind} tool in the tool vocabulary, not one the runtime answers`);
  return tool;
}

export function defineTool<Schema extends z.ZodType>(definition: ToolDefinition<Schema>): ActionTool {
  const { run, effects, schema } = definition;
  const facts = catalogFacts(definition);
  if (ANSWERED_BY_RUNTIME.includes(facts.kind)) throw new Error(`${facts.name} is answered by the runtime (a ${facts.kind} tool), not run on the phone`);
  return {
    ...facts,
    actsOnPhone: facts.kind === 'phone',
    opensApp: effects.opensApp !== undefined,
    effectsOf(rawArgs) {
      const parsed = schema.safeParse(rawArgs ?? {});
      if (!parsed.success) return null;
      const args = parsed.data;
      return {
        target: effects.target,
        verb: effects.verb ?? `uses ${definition.name} on`,
        opensApp: effects.opensApp !== undefined,
        verifies: effects.verifies ?? null,
        typedText: effects.typedText?.(args) ?? null,
        pressesEnter: effects.pressesEnter?.(args) ?? false,
        alwaysSensitive: effects.alwaysSensitive ?? false,
      };
    },
    async execute(rawArgs, context) {
      const args = parseArgs(definition.name, schema, rawArgs);
      if (!effects.opensApp) return run(args, context);
      const app = await effects.opensApp(args, context);
      context.opening(app);
      return run(args, { ...context, openedApp: app });
    },
  };
}

/** JSON Schema of a zod schema in the plain form both providers accept (an object schema, no `$schema`). */
export function toolInputSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  return json;
}

function parseArgs<Schema extends z.ZodType>(name: string, schema: Schema, args: unknown): z.output<Schema> {
  const result = schema.safeParse(args ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const path = issue.path.join('.');
    if (issue.code === 'unrecognized_keys') return `unknown argument(s) ${issue.keys.join(', ')}`;
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  throw new InvalidCall(`Invalid arguments for ${name}: ${problems.join('; ')}.`, invalidArgumentsSaid(name, result.error.issues));
}

/** Why a tool's arguments were refused, by code: each problem with its field. */
export const invalidArgumentsSaid = (tool: string, issues: readonly z.core.$ZodIssue[]): Said => ({
  code: 'step.invalidArguments',
  values: { tool, problemsSaid: saidList(issues.map(issueSaidAt)) },
});
