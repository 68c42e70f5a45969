import { z } from 'zod';
import { schemaMessage } from '../schema-message';
import { CHECK_KINDS, RecordedStepTextSchema, RecordingSchema } from '../recording';
import { FlowVarNameSchema, FlowVarValueSchema } from '../flow';
import { defineEvents, defineMethods } from './define';

const serial = z.string().trim().min(1, schemaMessage('schema.chooseDevice')).max(300);
const stepId = z.string().max(12).regex(/^s[1-9]\d*$/, schemaMessage('schema.recordedStepId'));
const coordinate = z.number().int().nonnegative().max(100_000);

/** The phone's recording, or null when none runs on it. */
export const RecordingStatusSchema = z.object({ recording: RecordingSchema.nullable() });

/**
 * Recording a flow by showing it on the mirror. While a recording runs on a phone, the mirror's gestures (devices.tap,
 * devices.longPress, devices.swipe, devices.pressKey, devices.typeText) are carried out as always and each also becomes a step.
 */
export const recordingMethods = defineMethods({
  'record.start': { input: z.object({ serial }).strict(), output: RecordingStatusSchema },
  'record.status': { input: z.object({ serial }).strict(), output: RecordingStatusSchema },
  /** Keeps the recording as a task in History ("recorded by you") named by `goal`; answers with its id. */
  'record.stop': {
    input: z.object({ serial, goal: z.string().trim().min(1, schemaMessage('schema.recordingGoal')).max(2000) }).strict(),
    output: z.object({ taskId: z.string() }),
  },
  /** Ends the recording and keeps nothing. */
  'record.discard': { input: z.object({ serial }).strict(), output: RecordingStatusSchema },
  'record.deleteStep': { input: z.object({ serial, stepId }).strict(), output: RecordingStatusSchema },
  /** A step rewritten in our flow syntax (its locator fields, `${vars}`), with the values of any variable it uses. */
  'record.editStep': {
    input: z.object({ serial, stepId, text: RecordedStepTextSchema, vars: z.record(FlowVarNameSchema, FlowVarValueSchema).optional() }).strict(),
    output: RecordingStatusSchema,
  },
  'record.setOptional': { input: z.object({ serial, stepId, optional: z.boolean() }).strict(), output: RecordingStatusSchema },
  /** "Add check": the next click on the mirror (or this point, when given) adds a check of the element there. */
  'record.addCheck': {
    input: z.object({ serial, kind: z.enum(CHECK_KINDS), x: coordinate.optional(), y: coordinate.optional() }).strict(),
    output: RecordingStatusSchema,
  },
  'record.cancelCheck': { input: z.object({ serial }).strict(), output: RecordingStatusSchema },
});

export const recordingEvents = defineEvents({
  /** The phone's recording after every change (a step added, edited or deleted; started; stopped: null). */
  'record.changed': z.object({ serial: z.string(), recording: RecordingSchema.nullable() }),
});
