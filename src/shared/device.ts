import { z } from 'zod';
import { SaidSchema } from './said';

/**
 * adb transport states, normalised (`no permissions (...)` -> `no-permissions`); anything adb reports that
 * we do not know becomes `unknown`.
 */
export const DeviceStateSchema = z.enum([
  'device',
  'offline',
  'unauthorized',
  'authorizing',
  'connecting',
  'no-permissions',
  'bootloader',
  'recovery',
  'sideload',
  'unknown',
]);

export const DeviceScreenSchema = z.object({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  density: z.number().int().positive().optional(),
});

export const DeviceSummarySchema = z.object({
  serial: z.string().min(1),
  state: DeviceStateSchema,
  /** What the person must do, in plain words, when the phone is not usable yet (e.g. unauthorized). */
  hint: z.string().optional(),
  /** The hint's code, for a window in another language. */
  hintSaid: SaidSchema.optional(),
  model: z.string().optional(),
  /** What the app calls the phone where the model does not tell phones apart (e.g. "Demo phone 2"). */
  name: z.string().optional(),
  /** The name's code, for a window in another language ("演示手机 2"). */
  nameSaid: SaidSchema.optional(),
  /** e.g. `14` (ro.build.version.release). */
  androidVersion: z.string().optional(),
  /** Natural (portrait) size in pixels from `wm size`, and density from `wm density`. */
  screen: DeviceScreenSchema.optional(),
  /** `tcp` for `adb connect` / wireless / emulator serials, `usb` otherwise. */
  connection: z.enum(['usb', 'tcp']),
});

export type DeviceState = z.infer<typeof DeviceStateSchema>;
export type DeviceScreen = z.infer<typeof DeviceScreenSchema>;
export type DeviceSummary = z.infer<typeof DeviceSummarySchema>;
