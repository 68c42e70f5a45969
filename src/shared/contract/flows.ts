import { z } from 'zod';
import { schemaMessage } from '../schema-message';
import { SaidSchema } from '../said';
import { TaskRecordSchema } from '../task';
import { defineMethods } from './define';
import { ExportedFileSchema } from './history';
import { LaunchPhonesSchema } from '../launch';
import { LaunchStartedSchema } from './tasks';
import { FLOW_FILE_MAX_BYTES, FlowVarNameSchema, FlowVarValueSchema } from '../flow';

/** A flow file's text as the window read it from the person's disk (the window opens files, main checks them). */
const flowText = z.string().min(1, schemaMessage('schema.flowEmpty')).max(FLOW_FILE_MAX_BYTES, schemaMessage('schema.flowTooBig', { max: FLOW_FILE_MAX_BYTES / 1_000_000 }));
/** `${name}` values for this run, over the file's own `vars`. */
const flowVars = z.record(FlowVarNameSchema, FlowVarValueSchema).optional();

/** `said`: the problem's code and values, which a window words in its language (`message` is the English). */
export const FlowProblemSchema = z.object({ line: z.number().int().positive().optional(), column: z.number().int().positive().optional(), message: z.string(), said: SaidSchema.optional() });
export type FlowProblem = z.infer<typeof FlowProblemSchema>;

/** What a checked flow file holds, or every problem with its line and column. */
export const FlowCheckSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), goal: z.string(), steps: z.number().int().positive(), vars: z.array(z.string()) }),
  z.object({ ok: z.literal(false), problems: z.array(FlowProblemSchema).min(1) }),
]);
export type FlowCheck = z.infer<typeof FlowCheckSchema>;

export const flowMethods = defineMethods({
  /** Reads a flow file's text as `amc flow check` does. */
  'flows.check': { input: z.object({ text: flowText, vars: flowVars }).strict(), output: FlowCheckSchema },
  /**
   * Runs a flow file on a phone as a task (each action replayed on the element its locator finds; asserts judged in
   * code; `ai` and `ask_ai` steps by the configured model); answers with the task's record at its start. A file
   * with problems starts nothing: the error lists them.
   */
  'flows.run': { input: z.object({ serial: z.string().trim().min(1).max(300), text: flowText, vars: flowVars }).strict(), output: TaskRecordSchema },
  /**
   * Runs a flow file on several phones at once (the phones picked, or a device group), each its own task under one
   * launch id, as `amc flow run FILE --all` does; answers as tasks.launch does. A file with problems starts nothing.
   */
  'flows.launch': { input: z.object({ phones: LaunchPhonesSchema, text: flowText, vars: flowVars }).strict(), output: LaunchStartedSchema },
  /** A finished task as a flow file (YAML), to save and run again. */
  'flows.fromTask': { input: z.object({ id: z.string().trim().min(1).max(200) }).strict(), output: ExportedFileSchema },
});
