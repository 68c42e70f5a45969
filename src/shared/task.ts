import { z } from 'zod';
import { SceneSchema } from './scene';
import { StepOutcomeSchema } from './action';
import { TokenUsageSchema } from './decision';

/**
 * A task: one goal carried out on one device, turn by turn (observe -> plan -> execute). The events below
 * are what the UI, the CLI and storage see of a running task; a TaskRecord is the whole task afterwards.
 * No screenshot bytes appear anywhere here (Perception Boundary): only the Scene and the image's size.
 */

export const TASK_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export const TaskStatusSchema = z.enum(TASK_STATUSES);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;
export const FINAL_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

/** The planner's choice for one turn. */
export const PlannedStepSchema = z.object({
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()),
  /** The model's short text before the call; null when it gave none (or the transport hides it). */
  rationale: z.string().nullable(),
  /** Extended thinking / reasoning_content; null when none (or the transport hides it). */
  thinking: z.string().nullable(),
});
export type PlannedStep = z.infer<typeof PlannedStepSchema>;

/** Which planner runs a task (shown next to the goal and stored with it). */
export const PlannerInfoSchema = z.object({
  kind: z.enum(['stub', 'ai']),
  provider: z.enum(['anthropic', 'openai']).optional(),
  transport: z.enum(['direct', 'cloud-proxy']).optional(),
  model: z.string().optional(),
  /** Whether this planner's transport can show the model's rationale and thinking at all. */
  exposesReasoning: z.boolean(),
});
export type PlannerInfo = z.infer<typeof PlannerInfoSchema>;

/** Size of the screenshot the planner received this turn (never the bytes). */
export const ScreenshotInfoSchema = z.object({
  mediaType: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().nonnegative(),
});

export const ZERO_USAGE = { inputTokens: 0, outputTokens: 0 } as const;

const at = z.number().int().nonnegative();
const ms = z.number().nonnegative();
const base = { taskId: z.string().min(1), at };

export const TaskStartedEventSchema = z.object({
  type: z.literal('task.started'),
  ...base,
  goal: z.string(),
  serial: z.string(),
  planner: PlannerInfoSchema,
  maxSteps: z.number().int().positive(),
});

/** A turn began: the phone as the planner will see it. `step` counts turns from 1. */
export const StepObservedEventSchema = z.object({
  type: z.literal('step.observed'),
  ...base,
  step: z.number().int().positive(),
  scene: SceneSchema.nullable(),
  /** Why the UI could not be read this turn (the planner is told). */
  sceneError: z.string().nullable(),
  screenshot: ScreenshotInfoSchema.nullable(),
  /** Whether the screen differs from the previous turn's (null on the first turn or without a Scene). */
  screenChanged: z.boolean().nullable(),
  observeMs: ms,
});

export const StepPlannedEventSchema = z.object({
  type: z.literal('step.planned'),
  ...base,
  step: z.number().int().positive(),
  ...PlannedStepSchema.shape,
  usage: TokenUsageSchema.nullable(),
  planMs: ms,
});

export const StepExecutedEventSchema = z.object({
  type: z.literal('step.executed'),
  ...base,
  step: z.number().int().positive(),
  outcome: StepOutcomeSchema,
  executeMs: ms,
});

export const TaskPausedEventSchema = z.object({ type: z.literal('task.paused'), ...base, step: z.number().int().nonnegative() });
export const TaskResumedEventSchema = z.object({ type: z.literal('task.resumed'), ...base, step: z.number().int().nonnegative() });

export const TaskFinishedEventSchema = z.object({
  type: z.literal('task.finished'),
  ...base,
  status: z.enum(['completed', 'failed', 'cancelled']),
  /** `<ErrorName>: <message>` or the model's reason, when failed; why it stopped, when cancelled. */
  failureReason: z.string().nullable(),
  /** The model's closing words on success (e.g. the answer to a question about the screen). */
  result: z.string().nullable(),
  steps: z.number().int().nonnegative(),
  usage: TokenUsageSchema,
  durationMs: ms,
});

export const TaskEventSchema = z.discriminatedUnion('type', [
  TaskStartedEventSchema,
  StepObservedEventSchema,
  StepPlannedEventSchema,
  StepExecutedEventSchema,
  TaskPausedEventSchema,
  TaskResumedEventSchema,
  TaskFinishedEventSchema,
]);
export type TaskEvent = z.infer<typeof TaskEventSchema>;
export type TaskEventType = TaskEvent['type'];
export type TaskEventOf<T extends TaskEventType> = Extract<TaskEvent, { type: T }>;

/** One turn of a finished (or running) task. */
export const StepRecordSchema = z.object({
  step: z.number().int().positive(),
  scene: SceneSchema.nullable(),
  sceneError: z.string().nullable(),
  screenshot: ScreenshotInfoSchema.nullable(),
  screenChanged: z.boolean().nullable(),
  /** null when the planner returned no step (goal reached) or failed this turn. */
  planned: PlannedStepSchema.extend({ usage: TokenUsageSchema.nullable() }).nullable(),
  /** null when nothing was executed this turn (finish_task, goal reached, failure or cancel). */
  outcome: StepOutcomeSchema.nullable(),
  timings: z.object({ observeMs: ms, planMs: ms.nullable(), executeMs: ms.nullable() }),
});
export type StepRecord = z.infer<typeof StepRecordSchema>;

/** The whole task, as history stores it. */
export const TaskRecordSchema = z.object({
  id: z.string().min(1),
  goal: z.string(),
  serial: z.string(),
  status: TaskStatusSchema,
  failureReason: z.string().nullable(),
  result: z.string().nullable(),
  planner: PlannerInfoSchema,
  maxSteps: z.number().int().positive(),
  createdAt: at,
  startedAt: at.nullable(),
  finishedAt: at.nullable(),
  steps: z.array(StepRecordSchema),
  usage: TokenUsageSchema,
  /** Sum of the turns' phases, for the summary line. */
  timings: z.object({ observeMs: ms, planMs: ms, executeMs: ms, totalMs: ms }),
});
export type TaskRecord = z.infer<typeof TaskRecordSchema>;

/** Starting a task (what the UI and the CLI send). */
export const RunTaskRequestSchema = z.object({
  serial: z.string().trim().min(1).max(300),
  goal: z.string().trim().min(1).max(2000),
  maxSteps: z.number().int().min(1).max(500).optional(),
});
export type RunTaskRequest = z.infer<typeof RunTaskRequestSchema>;

/** Applies one event to a record: the one reducer UI, CLI and storage share. Returns a new record. */
export function applyTaskEvent(record: TaskRecord, event: TaskEvent): TaskRecord {
  const steps = record.steps;
  const replaceStep = (step: number, change: (s: StepRecord) => StepRecord) =>
    steps.map((s) => (s.step === step ? change(s) : s));
  switch (event.type) {
    case 'task.started':
      return { ...record, status: 'running', startedAt: event.at, planner: event.planner, maxSteps: event.maxSteps };
    case 'step.observed':
      return {
        ...record,
        timings: { ...record.timings, observeMs: record.timings.observeMs + event.observeMs },
        steps: [
          ...steps,
          {
            step: event.step,
            scene: event.scene,
            sceneError: event.sceneError,
            screenshot: event.screenshot,
            screenChanged: event.screenChanged,
            planned: null,
            outcome: null,
            timings: { observeMs: event.observeMs, planMs: null, executeMs: null },
          },
        ],
      };
    case 'step.planned':
      return {
        ...record,
        usage: event.usage
          ? { inputTokens: record.usage.inputTokens + event.usage.inputTokens, outputTokens: record.usage.outputTokens + event.usage.outputTokens }
          : record.usage,
        timings: { ...record.timings, planMs: record.timings.planMs + event.planMs },
        steps: replaceStep(event.step, (s) => ({
          ...s,
          planned: { tool: event.tool, args: event.args, rationale: event.rationale, thinking: event.thinking, usage: event.usage },
          timings: { ...s.timings, planMs: event.planMs },
        })),
      };
    case 'step.executed':
      return {
        ...record,
        timings: { ...record.timings, executeMs: record.timings.executeMs + event.executeMs },
        steps: replaceStep(event.step, (s) => ({ ...s, outcome: event.outcome, timings: { ...s.timings, executeMs: event.executeMs } })),
      };
    case 'task.paused':
    case 'task.resumed':
      return record;
    case 'task.finished':
      return {
        ...record,
        status: event.status,
        failureReason: event.failureReason,
        result: event.result,
        usage: event.usage,
        finishedAt: event.at,
        timings: { ...record.timings, totalMs: event.durationMs },
      };
  }
}

/** A record before its first event. */
/**
 * Whether this step's action changed the screen, as the next turn's observation tells: true or false once the
 * next turn has looked, null before that (or when either Scene was unreadable).
 */
export function screenChangedByAction(record: Pick<TaskRecord, 'steps'>, step: number): boolean | null {
  return record.steps.find((s) => s.step === step + 1)?.screenChanged ?? null;
}

export function newTaskRecord(init: { id: string; goal: string; serial: string; planner: PlannerInfo; maxSteps: number; createdAt: number }): TaskRecord {
  return {
    ...init,
    status: 'pending',
    failureReason: null,
    result: null,
    startedAt: null,
    finishedAt: null,
    steps: [],
    usage: { ...ZERO_USAGE },
    timings: { observeMs: 0, planMs: 0, executeMs: 0, totalMs: 0 },
  };
}
