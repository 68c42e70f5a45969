import { z } from 'zod';
import { schemaMessage } from '../schema-message';
import { defineEvents, defineMethods, NoInput } from './define';
import { SaidSchema } from '../said';
import { FrameMetaSchema } from './frame';

export const MIRROR_STATES = ['stopped', 'running', 'paused', 'error'] as const;
/** Where frames come from: scrcpy's video stream, or screencap screenshots. */
export const MIRROR_SOURCES = ['video', 'screenshots'] as const;

/**
 * The live mirror's state. Frames themselves travel as binary frames (FrameMeta + bytes), never in here.
 * `paused` says why no frames flow: the window is hidden, or nobody receives frames.
 */
export const MirrorStatusSchema = z.object({
  serial: z.string().nullable(),
  state: z.enum(MIRROR_STATES),
  pausedBecause: z.enum(['hidden', 'no-viewers']).nullable(),
  visible: z.boolean(),
  /** Frames delivered per second over the last few seconds. */
  fps: z.number().nonnegative(),
  /** Mean time of one screencap (before encoding) over the same window, ms. */
  captureMs: z.number().nonnegative().nullable(),
  lastFrame: FrameMetaSchema.nullable(),
  /** The last capture failure in plain words; cleared by the next good frame. */
  error: z.string().nullable(),
  source: z.enum(MIRROR_SOURCES).optional(),
  /** Why the video mirror is not used, in one clause ("the scrcpy-server 3.3.3 download failed (ECONNREFUSED)"). */
  fallbackReason: z.string().nullable().optional(),
  /** What to change to get video, when a setting can ("Turn on \"Download missing helpers\" in Settings …"). */
  fallbackFix: z.string().nullable().optional(),
  /** The codes of the reason and the fix, when main worded them: the window says them in its language. */
  fallbackSaid: z.object({ reason: SaidSchema, fix: SaidSchema.nullable() }).nullable().optional(),
});
export type MirrorStatus = z.infer<typeof MirrorStatusSchema>;

export const mirrorMethods = defineMethods({
  /** Mirrors this device (replacing any other); frames flow while visible and someone receives them. */
  'mirror.start': {
    input: z
      .object({
        serial: z.string().trim().min(1, schemaMessage('schema.chooseDevice')).max(300),
        /** The mirror's long edge on screen in device pixels: the video is not made larger than this. */
        maxSize: z.number().int().min(120).max(4096).optional(),
        /** False when the window cannot decode video (no WebCodecs): screenshots are sent. */
        decodesVideo: z.boolean().optional(),
      })
      .strict(),
    output: MirrorStatusSchema,
  },
  /** A window lost video packets (or joined late): the phone is asked for a key frame. */
  'mirror.requestKeyFrame': { input: NoInput, output: z.object({ requested: z.boolean() }) },
  'mirror.stop': { input: NoInput, output: MirrorStatusSchema },
  /** The window tells main whether it can be seen; hidden pauses the capture loop. */
  'mirror.setVisible': { input: z.object({ visible: z.boolean() }).strict(), output: MirrorStatusSchema },
  'mirror.getStatus': { input: NoInput, output: MirrorStatusSchema },
});

export const mirrorEvents = defineEvents({
  /** On every state change and about once a second while running (fps, last frame). */
  'mirror.status': MirrorStatusSchema,
});
