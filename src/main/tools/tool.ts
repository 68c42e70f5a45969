import { z } from 'zod';
import type { StepTarget } from '../../shared/action';
import type { DecisionToolSpec } from '../../shared/decision';
import type { Scene } from '../../shared/scene';
import type { TypingMethod } from '../../shared/settings-catalog';
import type { HelperOnPhone } from '../device/helpers/phone-helpers';

/** A problem with the call itself: reported as an error outcome before anything is sent to the phone. */
export class InvalidCall extends Error {}

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
  /** The task's app allow-list (undefined: any app). */
  readonly allowedApps?: readonly string[] | undefined;
  /** The package an action opened, so the runtime can check it came to the foreground. */
  setOpenedApp(app: string): void;
  readonly typing: TypingPort;
}

interface ToolFacts {
  name: string;
  description: string;
  /** False for tools that only look or wait: nothing reaches the phone, so no change is expected of them. */
  actsOnPhone: boolean;
  /** False for tools only people and the built-in planner use (the model observes every turn anyway). */
  offeredToModel: boolean;
  /** Whether every call of the tool needs the person's confirmation, whatever it aims at. */
  sensitiveByDefault: boolean;
}

/** One tool as it is declared: its facts, its argument schema and what it does with the parsed arguments. */
export interface ToolDefinition<Schema extends z.ZodType> extends ToolFacts {
  schema: Schema;
  /** Returns where the action landed (undefined for actions without a point). */
  run(args: z.output<Schema>, context: ToolContext): Promise<StepTarget | undefined>;
}

/** A registered tool: its facts plus `execute`, which checks raw arguments against the tool's own schema first. */
export interface ActionTool extends ToolFacts {
  schema: z.ZodType;
  spec: DecisionToolSpec;
  execute(rawArgs: unknown, context: ToolContext): Promise<StepTarget | undefined>;
}

export function defineTool<Schema extends z.ZodType>(definition: ToolDefinition<Schema>): ActionTool {
  const { run, ...facts } = definition;
  return {
    ...facts,
    spec: { name: definition.name, description: definition.description, inputSchema: toolInputSchema(definition.schema) },
    execute: async (rawArgs, context) => run(parseArgs(definition.name, definition.schema, rawArgs), context),
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
  throw new InvalidCall(`Invalid arguments for ${name}: ${problems.join('; ')}.`);
}
