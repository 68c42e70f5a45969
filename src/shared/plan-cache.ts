import { z } from 'zod';
import { SaidSchema } from './said';

/**
 * The plan cache ("Reuse successful runs"): for each goal, the one earlier run that a model drove to a verified success
 * for exactly that goal, which a later AI task of the goal follows. Kept in its own file beside history, listed and
 * forgotten by the person (Settings, `amc cache`).
 */

/** One goal the cache can follow, and the run it follows. */
export const PlanCacheEntrySchema = z.object({
  /** The goal as the run was given it. */
  goal: z.string().min(1).max(2000),
  /** The run (in history) a later task of this goal follows. */
  taskId: z.string().min(1).max(200),
  /** The app the run started in (package), when it did in one. */
  app: z.string().max(300).nullable(),
  learnedAt: z.number().int().nonnegative(),
});
export type PlanCacheEntry = z.infer<typeof PlanCacheEntrySchema>;

/** The entries, newest first, with the reason when the cache file cannot be read. */
export const PlanCacheListingSchema = z.object({ entries: z.array(PlanCacheEntrySchema), problem: z.string().nullable(), problemSaid: SaidSchema.optional() });
export type PlanCacheListing = z.infer<typeof PlanCacheListingSchema>;

/** Forgetting: one goal (its words) or one run (its task id). */
export const PlanCacheForgetSchema = z.object({ which: z.string().trim().min(1).max(2000) }).strict();

const ALL_CAPITALS = /^[^\p{Ll}]*\p{Lu}[^\p{Ll}]*$/u;

/**
 * The key a goal is cached under: its words exactly, case and all, setting aside only what carries nothing: spacing,
 * closing punctuation, and the case of the first letter when its word is not written in capitals ("Turn on Wi-Fi" is
 * "turn on Wi-Fi"; "KIM LEE" is not "Kim Lee", nor "kim lee").
 */
export function planCacheKey(goal: string): string {
  const words = goal.trim().replace(/\s+/g, ' ').replace(/[\s.!?…。！？]+$/u, '');
  const first = words.split(' ')[0] ?? '';
  return first.length > 1 && ALL_CAPITALS.test(first) ? words : words.charAt(0).toLowerCase() + words.slice(1);
}
