import { z } from 'zod';
import { schemaMessage } from '../schema-message';
import { SaidSchema } from '../said';
import { DeviceSummarySchema } from '../device';
import { defineEvents, defineMethods, NoInput } from './define';

/** Every phone the adb server knows, plus why the list may be incomplete (adb missing, server unreachable). */
export const DeviceListSchema = z.object({
  devices: z.array(DeviceSummarySchema),
  /** `HOST:PORT` of the adb server the app talks to. */
  adbServer: z.string(),
  /** A plain-words problem with adb itself (null when the list is live and complete). */
  problem: z.string().nullable(),
  /** The problem's code, for a window in another language. */
  problemSaid: SaidSchema.optional(),
});
export type DeviceList = z.infer<typeof DeviceListSchema>;

const address = z
  .string()
  .trim()
  .min(1, schemaMessage('schema.enterAddress'))
  .max(300)
  .regex(/^(\[[^\]]+\]|[^:\s]+)(:\d{1,5})?$/, schemaMessage('schema.addressForm'));
const serial = z.string().trim().min(1, schemaMessage('schema.chooseDevice')).max(300);
/** Device pixels; the renderer maps canvas clicks through the last frame's size. */
const coordinate = z.number().int().nonnegative().max(100_000);

/** Keys the person can press from the mirror: its buttons, and Enter/Backspace typed while it has focus. */
export const MIRROR_KEYS = ['back', 'home', 'recents', 'volume_up', 'volume_down', 'power', 'enter', 'delete'] as const;
export type MirrorKey = (typeof MIRROR_KEYS)[number];

/** A PNG of the phone's screen at full resolution, for the person to keep (base64: it travels as JSON). */
export const ScreenshotFileSchema = z.object({
  fileName: z.string(),
  mediaType: z.literal('image/png'),
  base64: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type ScreenshotFile = z.infer<typeof ScreenshotFileSchema>;

/** What a mirror gesture did on the phone. */
export const MirrorInputResultSchema = z.object({ serial: z.string(), durationMs: z.number().nonnegative() });
export type MirrorInputResult = z.infer<typeof MirrorInputResultSchema>;

export const deviceMethods = defineMethods({
  'devices.list': { input: NoInput, output: DeviceListSchema },
  /** `adb connect HOST:PORT`; answers with the serial the phone gets. */
  'devices.connect': { input: z.object({ address }).strict(), output: z.object({ serial: z.string() }) },
  /** `adb disconnect` of a TCP serial (`HOST:PORT`). */
  'devices.disconnect': { input: z.object({ serial }).strict(), output: z.object({ serial: z.string() }) },
  /** Wireless pairing: the address and 6-digit code shown under "Pair device with pairing code". */
  'devices.pair': {
    input: z.object({ address, code: z.string().trim().max(32).regex(/^\d{6}$/, schemaMessage('schema.pairingCode')) }).strict(),
    output: z.object({ message: z.string() }),
  },
  /**
   * Starts the built-in virtual phone (once per app run) and connects it; answers with its serial, its name and
   * whether it was already running. `another` starts one more demo phone ("Demo phone 2", ...).
   */
  'devices.startDemo': {
    input: z.object({ another: z.boolean().optional() }).strict(),
    output: z.object({ serial: z.string(), name: z.string(), alreadyRunning: z.boolean() }),
  },
  /**
   * Mirror gestures. Refused (RpcError `failed`, message says why) while a task runs on the device and is
   * not paused, so a person never fights the agent.
   */
  'devices.tap': { input: z.object({ serial, x: coordinate, y: coordinate }).strict(), output: MirrorInputResultSchema },
  /** A press held in place (500 ms or more on the mirror): the long_press tool's touch and hold. */
  'devices.longPress': { input: z.object({ serial, x: coordinate, y: coordinate }).strict(), output: MirrorInputResultSchema },
  'devices.swipe': {
    input: z
      .object({
        serial,
        fromX: coordinate,
        fromY: coordinate,
        toX: coordinate,
        toY: coordinate,
        durationMs: z.number().int().min(50).max(5000).optional(),
      })
      .strict(),
    output: MirrorInputResultSchema,
  },
  'devices.pressKey': { input: z.object({ serial, key: z.enum(MIRROR_KEYS) }).strict(), output: MirrorInputResultSchema },
  /** Text the person typed on the focused mirror, into the phone's focused field (ASCII by `input text`, the rest by the IME). */
  'devices.typeText': {
    input: z.object({ serial, text: z.string().min(1, schemaMessage('schema.typeSomething')).max(2000) }).strict(),
    output: MirrorInputResultSchema,
  },
  /** Turns the screen a quarter to the left (auto-rotate off, `user_rotation` + 1); answers with the new rotation. */
  'devices.rotate': {
    input: z.object({ serial }).strict(),
    output: MirrorInputResultSchema.extend({ rotation: z.number().int().min(0).max(3) }),
  },
  /** The phone's screen as a full-size PNG (the person's own copy: never given to a planner). */
  'devices.screenshot': { input: z.object({ serial }).strict(), output: ScreenshotFileSchema },
});

export const deviceEvents = defineEvents({
  /** The whole (small) list whenever a phone appears, disappears or changes state. */
  'devices.changed': DeviceListSchema,
});
