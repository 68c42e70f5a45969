import { z } from 'zod';

/**
 * Phone-level faults. `hang`, `idle-state-error`, `corrupt-screencap`, `push-refused` (the next file written, a
 * push, fails with EACCES) and `scrcpy-crash` (the running or next scrcpy server dies after its next frame) fire once;
 * `popup-dialog` stays until dismissed and `screen-off` until the screen is woken.
 */
export const PHONE_FAULT_KINDS = ['hang', 'idle-state-error', 'corrupt-screencap', 'popup-dialog', 'screen-off', 'push-refused', 'scrcpy-crash'] as const;
export const PhoneFaultSchema = z.object({ kind: z.enum(PHONE_FAULT_KINDS) }).strict();
export type PhoneFault = z.infer<typeof PhoneFaultSchema>;
export type PhoneFaultKind = PhoneFault['kind'];
