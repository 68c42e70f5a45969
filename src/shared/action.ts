import { z } from 'zod';
import { SaidSchema } from './said';
import { ENGLISH, type Words } from './i18n/translate';

/** The ways `swipe` goes by name (the tool's argument; the timeline words each in the window's language). */
export const SWIPE_DIRECTIONS = ['up', 'down', 'left', 'right'] as const;
export type SwipeDirection = (typeof SWIPE_DIRECTIONS)[number];
export const isSwipeDirection = (value: string): value is SwipeDirection => (SWIPE_DIRECTIONS as readonly string[]).includes(value);

/** One tool call as the planner chose it: the tool's name and its raw (not yet validated) arguments. */
export const ToolCallSchema = z.object({
  name: z.string().min(1),
  args: z.record(z.string(), z.unknown()),
});

/** Where an action landed on the phone, in device pixels. */
export const StepTargetSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  /** The Scene element the action was aimed at, when it was given by id (or found under the point). */
  elementId: z.string().optional(),
  label: z.string().optional(),
});

/**
 * What the runtime could check, from the next turn's Scene, about what an action did (code, not the model):
 * typed text in its field, a switch flipped, the launched app in front, the screen changed.
 */
export const VerificationSchema = z.object({
  /** `verified`: the check held; `not-verified`: it did not (the fact says why). */
  status: z.enum(['verified', 'not-verified']),
  /** Which check ran. */
  check: z.enum(['text-in-field', 'checked-flipped', 'app-in-foreground', 'screen-changed', 'action-taken']),
  /** The fact in plain words, e.g. `the field "To" shows "555-0142"`, or why it could not be confirmed. */
  fact: z.string().min(1),
  /** The fact's code, for a window in another language (absent in records written before it). */
  said: SaidSchema.optional(),
});

/**
 * What executing one tool call did. An error is a normal outcome the planner reads next turn, not an
 * exception: `ok: false` with a reason a person (and the model) can act on.
 */
export const StepOutcomeSchema = z.object({
  ok: z.boolean(),
  error: z.string().optional(),
  /** The error's code, when the runtime worded it, for a reader in another language (absent in records written before it). */
  errorSaid: SaidSchema.optional(),
  /** adb attempts made (0 when the call was rejected before anything was sent to the phone). */
  attempts: z.number().int().nonnegative(),
  /** adb commands sent again after a transient failure (absent in records written before it was counted). */
  retries: z.number().int().nonnegative().optional(),
  durationMs: z.number().nonnegative(),
  target: StepTargetSchema.optional(),
  /** The package launch_app opened (so the runtime can check it came to the foreground). */
  app: z.string().optional(),
  /** Set after the next observation: what the runtime verified about this action. */
  verification: VerificationSchema.optional(),
  /** What the person said in reply to this step (ask_user's answer, a hand-over note). */
  fromPerson: z.string().optional(),
});

export type ToolCall = z.infer<typeof ToolCallSchema>;
export type StepTarget = z.infer<typeof StepTargetSchema>;
export type StepOutcome = z.infer<typeof StepOutcomeSchema>;
export type Verification = z.infer<typeof VerificationSchema>;

/** Whether the step's action reached the phone (a look or a wait sends nothing), so a change was to be expected. */
export function sentToPhone(outcome: StepOutcome): boolean {
  return outcome.attempts > 0;
}

/**
 * "Attempts" in words means retries: null for an action that went through at the first try (however many adb
 * commands it took) or that sent nothing (a look at the screen); "3 attempts" when a command had to be sent again;
 * an action refused before it reached the phone says so instead of "0 attempts".
 */
export function attemptsLabel(outcome: StepOutcome, words: Words = ENGLISH): string | null {
  if (outcome.attempts === 0) return outcome.ok ? null : words.t('common:attempts.notSent');
  const retries = outcome.retries ?? 0;
  return retries > 0 ? words.t('common:attempts.count', { count: retries + 1 }) : null;
}
