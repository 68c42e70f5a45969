// Schedules without Redis: "every day at 08:00 run this goal on this phone or group", kept in the app's data folder
// (schedules.json) and fired by the running app. Runs that fell while the app was closed are kept as missed runs
// until a person has seen them.
import { z } from 'zod';
import { schemaMessage, schemaSaying } from './schema-message';
import { LaunchPhonesSchema } from './launch';
import { RunTaskRequestSchema } from './task';
import { NamedFlowSchema } from './flow';
import { NAME_MAX_LENGTH, NAME_PROBLEM_CODES, nameProblem } from './names';

export const ScheduleNameSchema = z
  .string()
  .trim()
  // The bound every string a window sends carries; the other problems are worded below.
  .max(NAME_MAX_LENGTH, schemaMessage(NAME_PROBLEM_CODES.tooLong))
  .superRefine((name, context) => {
    const problem = nameProblem(name);
    if (!problem || problem === 'tooLong') return;
    const { text, said } = schemaSaying(NAME_PROBLEM_CODES[problem]);
    context.addIssue({ code: 'custom', message: text, params: { said } });
  });

/** What a person gives to add a schedule. The cron pattern is checked where it is read (main), by the cron library. */
export const ScheduleRequestSchema = z
  .object({
    name: ScheduleNameSchema,
    /** Five fields (minute hour day month weekday), the computer's local time: "0 8 * * *" is every day at 08:00. */
    cron: z.string().trim().min(1, schemaMessage('schema.cronEmpty')).max(100),
    goal: RunTaskRequestSchema.shape.goal,
    /**
     * A schedule of a flow: the flow's content as it was when the schedule was added (its goal is the schedule's), so
     * editing or deleting the file later changes nothing scheduled.
     */
    flow: NamedFlowSchema.optional(),
    phones: LaunchPhonesSchema,
    maxSteps: RunTaskRequestSchema.shape.maxSteps,
    allowedApps: RunTaskRequestSchema.shape.allowedApps,
  })
  .strict();
export type ScheduleRequest = z.infer<typeof ScheduleRequestSchema>;

const at = z.number().int().nonnegative();

/** What the last firing did: the launch it started and the phones that could not take it. */
export const ScheduleRunSchema = z.object({
  plannedAt: at,
  firedAt: at,
  launchId: z.string().nullable(),
  /** One line per phone that could not start, or why nothing started at all. */
  problems: z.array(z.string()),
});

export const LocalScheduleSchema = ScheduleRequestSchema.extend({
  createdAt: at,
  /** The planned time of the last run accounted for (fired, or reported missed); runs after it are still to come. */
  lastPlannedAt: at.nullable().default(null),
  lastRun: ScheduleRunSchema.nullable().default(null),
});
export type LocalSchedule = z.infer<typeof LocalScheduleSchema>;

/** Runs of one schedule that fell while the app was closed: how many, the first and the last. */
export const MissedRunsSchema = z.object({
  name: z.string(),
  goal: z.string(),
  count: z.number().int().positive(),
  first: at,
  last: at,
  /** When the app noticed them (it started). */
  noticedAt: at,
});
export type MissedRuns = z.infer<typeof MissedRunsSchema>;

export const ScheduleFileSchema = z.object({
  schedules: z.array(LocalScheduleSchema).default([]),
  missed: z.array(MissedRunsSchema).default([]),
});
export type ScheduleFile = z.infer<typeof ScheduleFileSchema>;

/** A schedule as the app and `amc schedule list` show it. */
export const ScheduleViewSchema = LocalScheduleSchema.extend({ nextRunAt: at.nullable() });
export type ScheduleView = z.infer<typeof ScheduleViewSchema>;

export const SchedulesOverviewSchema = z.object({ schedules: z.array(ScheduleViewSchema), missed: z.array(MissedRunsSchema) });
export type SchedulesOverview = z.infer<typeof SchedulesOverviewSchema>;
