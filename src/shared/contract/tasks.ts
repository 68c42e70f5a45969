import { z } from 'zod';
import { ProviderSchema, TransportSchema } from '../settings';
import { RunTaskRequestSchema, TaskEventSchema, TaskRecordSchema, TaskStatusSchema } from '../task';
import { defineEvents, defineMethods } from './define';
import { LaunchPhonesSchema, LaunchRowSchema } from '../launch';
import { LANGUAGES } from '../i18n/languages';

/** Per-run choices that win over Settings for this one task. */
export const TaskOverridesSchema = z
  .object({
    planner: z.enum(['stub', 'ai']).optional(),
    provider: ProviderSchema.optional(),
    transport: TransportSchema.optional(),
    model: z.string().trim().min(1).max(200).optional(),
  })
  .strict();
export type TaskOverrides = z.infer<typeof TaskOverridesSchema>;

// A launch id is given by tasks.launch only: a window never makes up its own.
/** The language the person reads the window in: the model asks and explains in it (the rest of the prompt stays English). */
const ReaderLanguageSchema = z.enum(LANGUAGES).optional();
export const RunTaskInputSchema = RunTaskRequestSchema.omit({ launchId: true }).extend({ overrides: TaskOverridesSchema.optional(), language: ReaderLanguageSchema }).strict();
export type RunTaskInput = z.infer<typeof RunTaskInputSchema>;

/** "Run again without the model": a successful task from history replayed on a phone (the model only where the screen differs, when the AI planner is on). */
export const ReplayTaskInputSchema = z
  .object({
    taskId: z.string().trim().min(1).max(200),
    serial: RunTaskRequestSchema.shape.serial,
    /** "Run again, let the model fix differences": the AI planner takes a step the screen no longer matches. Absent: never the model. */
    letModelFix: z.boolean().optional(),
  })
  .strict();
export type ReplayTaskInput = z.infer<typeof ReplayTaskInputSchema>;
/** One goal on several phones at once: the phones picked one by one, or a device group declared in Settings. */
export const LaunchInputSchema = z
  .object({
    goal: RunTaskRequestSchema.shape.goal,
    phones: LaunchPhonesSchema,
    maxSteps: RunTaskRequestSchema.shape.maxSteps,
    allowedApps: RunTaskRequestSchema.shape.allowedApps,
    overrides: TaskOverridesSchema.optional(),
    language: ReaderLanguageSchema,
  })
  .strict();
export type LaunchInput = z.infer<typeof LaunchInputSchema>;

/** A launch as it started: its id and one row per phone (a task started, or the reason it could not). */
export const LaunchStartedSchema = z.object({ launchId: z.string(), goal: z.string(), rows: z.array(LaunchRowSchema) });
export type LaunchStarted = z.infer<typeof LaunchStartedSchema>;

/** The running task (if any) as far as it has got, and whether it is paused: what a reloaded window re-attaches to. */
export const CurrentTaskSchema = z.object({
  task: TaskRecordSchema.nullable(),
  paused: z.boolean(),
});
export type CurrentTask = z.infer<typeof CurrentTaskSchema>;

/** Answer to stop/pause/resume: which task it applied to (null when none was running). */
export const TaskControlResultSchema = z.object({
  taskId: z.string().nullable(),
  status: TaskStatusSchema.nullable(),
  paused: z.boolean(),
});
export type TaskControlResult = z.infer<typeof TaskControlResultSchema>;

/** Which running task a control applies to: the given one, else the most recently started. */
const TaskSelectorSchema = z.object({ taskId: z.string().trim().min(1).max(200).optional() }).strict();

/**
 * Stop picks a task like the other controls, or the phone: its task here, else an MCP agent's hold on it (the
 * person takes the phone back from an agent that is between actions).
 */
const StopInputSchema = TaskSelectorSchema.extend({ serial: z.string().trim().min(1).max(300).optional() }).strict();

/** Resuming may carry a note for the agent ("I logged in"); it joins the model's history. */
const ResumeInputSchema = TaskSelectorSchema.extend({ note: z.string().trim().max(2000).optional() }).strict();

export const taskMethods = defineMethods({
  /**
   * Starts a task with the current Settings (plus overrides); answers with its record at that moment. One
   * task per device at a time: a second run on a busy device is refused with a clear message.
   */
  'tasks.run': { input: RunTaskInputSchema, output: TaskRecordSchema },
  /**
   * Starts a new task with a finished task's goal that replays its recorded steps on the fresh screen, under the
   * same supervision; refused in plain words when that task is not in history, did not succeed or did nothing.
   */
  'tasks.replay': { input: ReplayTaskInputSchema, output: TaskRecordSchema },
  /**
   * Starts the goal on every phone of the launch at once, each as its own task under one launch id; a phone that
   * cannot take it (not connected, busy) gets a failed row with the reason while the others run.
   */
  'tasks.launch': { input: LaunchInputSchema, output: LaunchStartedSchema },
  /**
   * Cancels: the in-flight model call and adb command are aborted; the task ends `cancelled`. With `serial` and no
   * task of this app on that phone, an MCP agent's hold on it is released (its next action is refused).
   */
  'tasks.stop': { input: StopInputSchema, output: TaskControlResultSchema },
  /** Pauses between turns (the current turn finishes first; `task.paused` follows when it holds). */
  'tasks.pause': { input: TaskSelectorSchema, output: TaskControlResultSchema },
  'tasks.resume': { input: ResumeInputSchema, output: TaskControlResultSchema },
  /** The running task on this device (or the most recently started one) so far; `task: null` when none runs. */
  'tasks.current': {
    input: z.object({ serial: z.string().trim().min(1).max(300).optional() }).strict(),
    output: CurrentTaskSchema,
  },
});

export const taskEvents = defineEvents({
  /** The runtime's per-turn events (task.started, step.observed/planned/executed, task.paused/resumed, task.finished). */
  'task.event': TaskEventSchema,
});
