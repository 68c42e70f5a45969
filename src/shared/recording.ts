import { z } from 'zod';
import { schemaMessage } from './schema-message';
import { FlowSchema, FlowStepSchema, FlowVarNameSchema, FlowVarValueSchema } from './flow';
import { SaidSchema } from './said';

/**
 * A recording: what a person does on the mirror, as flow steps (recorded by the main process from the screen read
 * just before each input). It lives in main while it runs and becomes a task in History when it is stopped; windows
 * only show it and send edits. No picture is kept (seed D5): a step holds its locator, never pixels.
 */

/**
 * What a step says about how its element was named: `point` (no locator names it alone, so the step keeps its
 * point), `moved` (the element the person saw had moved before the input landed: it was found again and the input
 * aimed at it there), `launched` (a tap on the home screen that opened an app, kept as opening that app).
 */
export const RECORDED_NOTES = ['point', 'moved', 'launched'] as const;
export type RecordedNote = (typeof RECORDED_NOTES)[number];

/**
 * What "Add check" takes from the element clicked next: that it shows (its words), its checked state, or its text
 * kept in a variable for later steps (a copy_text step).
 */
export const CHECK_KINDS = ['visible', 'checked', 'text'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

export const RecordedStepSchema = z.object({
  /** Stable within its recording (`s1`, `s2`…), so an edit names the step it means whatever was deleted before it. */
  id: z.string().regex(/^s[1-9]\d*$/),
  step: FlowStepSchema,
  /** The step in our flow syntax, as the timeline shows it. */
  label: z.string(),
  note: z.enum(RECORDED_NOTES).optional(),
  /** How long the phone's layout read before the input took (ms), apart from the rest. */
  layoutMs: z.number().nonnegative(),
  /** From the input's arrival in main to the step's being recorded, without the layout read (ms). */
  handledMs: z.number().nonnegative(),
});
export type RecordedStep = z.infer<typeof RecordedStepSchema>;

export const RecordingSchema = z.object({
  id: z.string().min(1),
  serial: z.string().min(1),
  startedAt: z.number().int().nonnegative(),
  steps: z.array(RecordedStepSchema),
  vars: z.record(FlowVarNameSchema, FlowVarValueSchema),
  /** Set after "Add check": the next click on the mirror adds a check of that element instead of tapping it. */
  checking: z.enum(CHECK_KINDS).nullable(),
  /** The last input that could not be recorded, in plain words (the input itself was still carried out or refused). */
  problem: z.string().nullable(),
  problemSaid: SaidSchema.optional(),
});
export type Recording = z.infer<typeof RecordingSchema>;

/** What a task recorded by a person keeps beside its turns: who made it, and the flow as it was kept. */
export const RecordedOriginSchema = z.object({ by: z.literal('person'), flow: FlowSchema });
export type RecordedOrigin = z.infer<typeof RecordedOriginSchema>;

/** A step's one-line text as a person edits it (`tap: { text: Wi-Fi }`). */
export const RecordedStepTextSchema = z.string().trim().min(1, schemaMessage('schema.recordedStepText')).max(4000);
export { FlowVarNameSchema, FlowVarValueSchema };
