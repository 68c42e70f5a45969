import { z } from 'zod';
import { ScheduleNameSchema, ScheduleRequestSchema, SchedulesOverviewSchema } from '../schedule';
import { defineEvents, defineMethods, NoInput } from './define';

export const scheduleMethods = defineMethods({
  /** The schedules kept in the app's data folder, with their next runs, and the runs missed while the app was closed. */
  'schedules.list': { input: NoInput, output: SchedulesOverviewSchema },
  /** Adds a schedule (or replaces the one of the same name); a pattern the cron library refuses is refused in plain words. */
  'schedules.add': { input: ScheduleRequestSchema, output: SchedulesOverviewSchema },
  'schedules.remove': { input: z.object({ name: ScheduleNameSchema }).strict(), output: SchedulesOverviewSchema },
  /** The person has seen the missed runs: they are no longer shown. */
  'schedules.dismissMissed': { input: NoInput, output: SchedulesOverviewSchema },
});

export const scheduleEvents = defineEvents({
  /** The schedules changed (added, removed, fired, or edited by `amc schedule`). */
  'schedules.changed': SchedulesOverviewSchema,
});
