import { z } from 'zod';
import { FleetOverviewSchema } from '../fleet';
import { SaidSchema } from '../said';
import { defineMethods, NoInput } from './define';

/** The fleet as the Fleet view shows it: no Redis set, a problem reaching it, or its workers, phones and jobs. */
export const FleetViewResultSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('not-set') }),
  /** `address` is shown without user or password. */
  z.object({ kind: z.literal('problem'), address: z.string().nullable(), problem: z.string(), problemSaid: SaidSchema.optional() }),
  z.object({ kind: z.literal('fleet'), address: z.string(), overview: FleetOverviewSchema }),
]);
export type FleetViewResult = z.infer<typeof FleetViewResultSchema>;

export const fleetMethods = defineMethods({
  /** Workers, their phones (ready, busy, offline), queued/running/finished jobs and interruptions: what `amc fleet` shows. */
  'fleet.overview': { input: NoInput, output: FleetViewResultSchema },
});
