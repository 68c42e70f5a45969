import { z } from 'zod';
import { ProviderSchema, TransportSchema } from '../settings';
import { RunTaskRequestSchema, TaskEventSchema, TaskRecordSchema, TaskStatusSchema } from '../task';
import { defineEvents, defineMethods, NoInput } from './define';

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

export const RunTaskInputSchema = RunTaskRequestSchema.extend({ overrides: TaskOverridesSchema.optional() }).strict();
export type RunTaskInput = z.infer<typeof RunTaskInputSchema>;

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

export const taskMethods = defineMethods({
  /**
   * Starts a task with the current Settings (plus overrides); answers with its record at that moment. One
   * task runs at a time: a second run while one is running is refused with a clear message.
   */
  'tasks.run': { input: RunTaskInputSchema, output: TaskRecordSchema },
  'tasks.stop': { input: NoInput, output: TaskControlResultSchema },
  /** Pauses between turns (the current turn finishes first). */
  'tasks.pause': { input: NoInput, output: TaskControlResultSchema },
  'tasks.resume': { input: NoInput, output: TaskControlResultSchema },
  'tasks.current': { input: NoInput, output: CurrentTaskSchema },
});

export const taskEvents = defineEvents({
  /** The runtime's per-turn events (task.started, step.observed/planned/executed, task.paused/resumed, task.finished). */
  'task.event': TaskEventSchema,
});
