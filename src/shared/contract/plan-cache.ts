import { z } from 'zod';
import { PlanCacheEntrySchema, PlanCacheForgetSchema, PlanCacheListingSchema } from '../plan-cache';
import { defineMethods, NoInput } from './define';

export const planCacheMethods = defineMethods({
  /** The goals "Reuse successful runs" can follow, newest first, with the reason when the cache file cannot be read. */
  'planCache.list': { input: NoInput, output: PlanCacheListingSchema },
  /** Forgets a goal (by its words) or a run (by its task id): later tasks of that goal are planned by the model. */
  'planCache.forget': { input: PlanCacheForgetSchema, output: z.object({ which: z.string(), forgotten: z.array(PlanCacheEntrySchema) }) },
});
