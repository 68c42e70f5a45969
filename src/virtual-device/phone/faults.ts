import { z } from 'zod';

/**
 * Phone-level faults. `hang`, `idle-state-error` and `corrupt-screencap` fire once on the next matching command;
 * `popup-dialog` stays until dismissed and `screen-off` until the screen is woken.
 */
export const PHONE_FAULT_KINDS = ['hang', 'idle-state-error', 'corrupt-screencap', 'popup-dialog', 'screen-off'] as const;
export const PhoneFaultSchema = z.object({ kind: z.enum(PHONE_FAULT_KINDS) }).strict();
export type PhoneFault = z.infer<typeof PhoneFaultSchema>;
export type PhoneFaultKind = PhoneFault['kind'];
