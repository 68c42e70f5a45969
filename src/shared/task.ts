import { z } from 'zod';
import { schemaMessage } from './schema-message';
import { BoundsSchema, SceneSchema } from './scene';
import { StepOutcomeSchema, VerificationSchema } from './action';
import { SaidSchema } from './said';
import { TokenUsageSchema, ToolCallDecisionSchema } from '@amc/provider-clients/contract';
import { CONFIRMATION_MODES } from './settings-catalog';
import { FlowTurnSchema, STEP_SOURCES } from './flow';
import { RecordedOriginSchema } from './recording';

/**
 * A task: one goal carried out on one device, turn by turn (observe -> plan -> execute). The events below
 * are what the UI, the CLI and storage see of a running task; a TaskRecord is the whole task afterwards.
 * No screenshot bytes appear anywhere here (Perception Boundary): only the Scene and the image's size.
 */

export const TASK_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export const TaskStatusSchema = z.enum(TASK_STATUSES);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;
export const FINAL_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

/**
 * The planner's choice for one turn: the one shape a turn's plan keeps from the model's decision through the
 * `step.planned` event to the step record. Usage and cost are null for a planner without a model (and, by
 * default, in history written before they were kept per turn).
 */
export const PlannedStepSchema = ToolCallDecisionSchema.extend({
  usage: TokenUsageSchema.nullable().default(null),
  /** What this call cost in USD by the price table; null when the model has no price (or no call was made). */
  costUsd: z.number().nonnegative().nullable().default(null),
  /**
   * Where the step came from: the model, a replayed flow, the plan cache, or a flow step skipped because its outcome
   * already held (recorded, not acted). History written before replay existed was all the model's.
   */
  source: z.enum(STEP_SOURCES).default('model'),
  /** The rationale's code, when the app wrote it (a replayed flow step's), for a reader in another language. */
  rationaleSaid: SaidSchema.optional(),
  /** A finish_task's reason's code, when the app wrote the reason (a replayed flow's end), for a reader in another language. */
  reasonSaid: SaidSchema.optional(),
  /** A flow's replay: the flow step this turn carries out and the steps it knew the result of (absent: not a flow's turn). */
  flow: FlowTurnSchema.optional(),
});
export type PlannedStep = z.infer<typeof PlannedStepSchema>;

/** Which planner runs a task (shown next to the goal and stored with it). */
export const PlannerInfoSchema = z.object({
  /** `replay`: a recorded flow carried out again (with a model's fields when one may take over). */
  kind: z.enum(['stub', 'ai', 'replay']),
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

/** A task's limits; null means none. Reaching one ends the task `failed`, naming it, before any further model call. */
export const TaskLimitsSchema = z.object({
  maxSteps: z.number().int().positive(),
  /** Input + output tokens over all model calls. */
  maxTokens: z.number().int().positive().nullable(),
  maxCostUsd: z.number().positive().nullable(),
  /** The agent's own time (waiting for a person or a pause does not count). */
  maxDurationMs: z.number().int().positive().nullable(),
});
export type TaskLimits = z.infer<typeof TaskLimitsSchema>;

/** A task's scope and supervision, fixed when it starts. */
export const TaskSupervisionSchema = z.object({
  /** Packages the task may launch and act in; null: any app. */
  allowedApps: z.array(z.string().min(1)).nullable(),
  confirmation: z.enum(CONFIRMATION_MODES),
  /** The person's standing instructions as the prompt carries them (empty: none). */
  standingInstructions: z.string(),
});
export type TaskSupervision = z.infer<typeof TaskSupervisionSchema>;

/**
 * Who took a supervision decision: the runtime's guards, the sensitive-action policy, a person (in the app or at
 * the terminal), an answer given in advance (`amc run --yes` / `--answer`, "allow for the rest of this task"),
 * or nobody, because no person could be asked (the default for a task without a person present).
 */
export const DECIDERS = ['runtime', 'policy', 'person', 'preset', 'no-one-present'] as const;
export const DeciderSchema = z.enum(DECIDERS);
export type Decider = z.infer<typeof DeciderSchema>;

/** What the runtime asks a person. */
export const PersonRequestSchema = z.discriminatedUnion('kind', [
  /** The model's ask_user(question). */
  z.object({ kind: z.literal('question'), question: z.string().min(1) }),
  /** The policy wants a yes before this action runs. `target` is what it would touch on the turn's Scene. */
  z.object({
    kind: z.literal('confirmation'),
    tool: z.string().min(1),
    args: z.record(z.string(), z.unknown()),
    rationale: z.string().nullable(),
    /** Why it needs a yes, in plain words (e.g. `it taps "Send SMS" (send)`). */
    reasons: z.array(z.string().min(1)).min(1),
    /** The reasons' codes, in the same order, for a window in another language (absent in older records). */
    reasonsSaid: z.array(SaidSchema).optional(),
    target: z.object({ elementId: z.string().optional(), label: z.string().optional(), bounds: BoundsSchema.optional() }).nullable(),
  }),
  /** The model's hand_over(reason): the person takes the phone (log in, captcha, password, payment). */
  z.object({ kind: z.literal('hand-over'), reason: z.string().min(1) }),
  /** The loop guard: the agent keeps looping after a warning; go on or stop? */
  z.object({ kind: z.literal('loop'), description: z.string().min(1), descriptionSaid: SaidSchema.optional() }),
]);
export type PersonRequest = z.infer<typeof PersonRequestSchema>;
export type PersonRequestKind = PersonRequest['kind'];

/** A person's reply (or the lack of one). */
export const PersonReplySchema = z.discriminatedUnion('kind', [
  /** To a question. */
  z.object({ kind: z.literal('answer'), text: z.string().trim().min(1).max(2000) }),
  /** To a confirmation: this action only, or every action for the rest of the task. */
  z.object({ kind: z.literal('allow'), scope: z.enum(['once', 'task']) }),
  /** To a confirmation: the action is not run; the model hears "the person denied this action" and goes on. */
  z.object({ kind: z.literal('deny') }),
  /** To a hand-over or a loop: go on, with an optional note for the agent ("I logged in"). */
  z.object({ kind: z.literal('continue'), note: z.string().trim().min(1).max(2000).optional() }),
  /** To anything: end the task (cancelled). */
  z.object({ kind: z.literal('stop') }),
  /** Nobody could answer (no person present, no terminal, `--json`): the task ends `failed` with the reason. */
  z.object({
    kind: z.literal('unanswered'),
    reason: z.string().min(1),
    /** The reason's code, when the runtime worded it with values (absent in records written before it). */
    reasonSaid: SaidSchema.optional(),
  }),
]);
export type PersonReply = z.infer<typeof PersonReplySchema>;

/** Which replies fit which request (every request also accepts `stop` and `unanswered`). */
export const REPLIES_FOR: Record<PersonRequestKind, readonly PersonReply['kind'][]> = {
  question: ['answer', 'stop', 'unanswered'],
  confirmation: ['allow', 'deny', 'stop', 'unanswered'],
  'hand-over': ['continue', 'stop', 'unanswered'],
  loop: ['continue', 'stop', 'unanswered'],
};

export function replyFits(request: PersonRequest, reply: PersonReply): boolean {
  return REPLIES_FOR[request.kind].includes(reply.kind);
}

/** The guards whose decisions are events: loop/stall, budgets, the sensitive-action policy, scope, the check of a success claim. */
export const GUARDS = ['loop', 'budget', 'policy', 'scope', 'completion'] as const;
export const GUARD_FINDINGS = [
  'repeat', // the same action, the screen unchanged
  'alternation', // back and forth between two screens
  'steps',
  'tokens',
  'cost',
  'time',
  'sensitive-action',
  'every-action', // step mode
  'allowed-for-task', // "allow for the rest of this task" let an action through
  'outside-allowed-apps',
  'no-action-taken', // success claimed before anything was done
  'claim-not-verified', // success claimed, and the last action's own check did not hold
] as const;
export const GuardFindingSchema = z.enum(GUARD_FINDINGS);
export type GuardFinding = z.infer<typeof GuardFindingSchema>;

/** What a guard decided: tell the model (`warn`), ask a person (`ask`), let it through (`allow`), or end the task (`stop`). */
export const GUARD_DECISIONS = ['warn', 'ask', 'allow', 'stop'] as const;

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
  /** Absent in tasks recorded before budgets existed. */
  limits: TaskLimitsSchema.optional(),
  supervision: TaskSupervisionSchema.optional(),
  /** The launch this task is one of (one goal run on several phones at once); absent for a task run alone. */
  launchId: z.string().optional(),
  /** A person's recording on the mirror, kept as this task: the flow as they left it. */
  recorded: RecordedOriginSchema.optional(),
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
  /**
   * Whether the screen differs from the look before (null on the first look or without a Scene). A turn's first look
   * tells what the previous turn's action changed: the record keeps it on that turn's row.
   */
  screenChanged: z.boolean().nullable(),
  observeMs: ms,
});

/** A turn's plan (the `PlannedStep` fields, no others) and when and how long it was made. */
export const StepPlannedEventSchema = PlannedStepSchema.extend({
  type: z.literal('step.planned'),
  ...base,
  step: z.number().int().positive(),
  planMs: ms,
});

export const StepExecutedEventSchema = z.object({
  type: z.literal('step.executed'),
  ...base,
  step: z.number().int().positive(),
  outcome: StepOutcomeSchema,
  executeMs: ms,
});

/** What the runtime checked about step `step`'s action, from the Scene of the turn after it. */
export const StepVerifiedEventSchema = z.object({
  type: z.literal('step.verified'),
  ...base,
  step: z.number().int().positive(),
  verification: VerificationSchema,
});

export const TaskPausedEventSchema = z.object({ type: z.literal('task.paused'), ...base, step: z.number().int().nonnegative() });
export const TaskResumedEventSchema = z.object({
  type: z.literal('task.resumed'),
  ...base,
  step: z.number().int().nonnegative(),
  /** The person's note for the agent when resuming ("I logged in"); it joins the planner's history. */
  note: z.string().optional(),
});

/** A guard's decision, with who took it (the runtime, the policy, or a person's earlier "allow for the rest"). */
export const GuardDecidedEventSchema = z.object({
  type: z.literal('guard.decided'),
  ...base,
  step: z.number().int().nonnegative(),
  guard: z.enum(GUARDS),
  finding: GuardFindingSchema,
  decision: z.enum(GUARD_DECISIONS),
  /** Plain words, e.g. `launch_app {"app":"Settings"} 3 times in a row and the screen did not change`. */
  message: z.string().min(1),
  /** The message's code, for a window in another language (absent in records written before it). */
  said: SaidSchema.optional(),
  by: DeciderSchema,
});

/** The runtime asks a person and waits (no model call while it waits). Until `person.answered`, the request is pending. */
export const PersonAskedEventSchema = z.object({
  type: z.literal('person.asked'),
  ...base,
  step: z.number().int().positive(),
  requestId: z.string().min(1),
  request: PersonRequestSchema,
});

export const PersonAnsweredEventSchema = z.object({
  type: z.literal('person.answered'),
  ...base,
  step: z.number().int().positive(),
  requestId: z.string().min(1),
  reply: PersonReplySchema,
  by: DeciderSchema,
});

/**
 * A task that failed on an exception: the error's name and its own message, the two halves of seed D7's
 * `<ErrorName>: <message>` kept apart so no reader takes that string apart again.
 */
export const TaskFailureSchema = z.object({ error: z.string().min(1).max(200), message: z.string() });
export type TaskFailure = z.infer<typeof TaskFailureSchema>;

export const TaskFinishedEventSchema = z.object({
  type: z.literal('task.finished'),
  ...base,
  status: z.enum(['completed', 'failed', 'cancelled']),
  /** `<ErrorName>: <message>` or the model's reason, when failed; why it stopped, when cancelled. */
  failureReason: z.string().nullable(),
  /** The failure reason's code, for a window in another language (absent in records written before it). */
  failureSaid: SaidSchema.optional(),
  /** When it failed on an exception: the error's name and message (older files gain it where they are read). */
  failure: TaskFailureSchema.optional(),
  /** The model's closing words on success (e.g. the answer to a question about the screen). */
  result: z.string().nullable(),
  /** The result's code, when the app wrote it (a flow's end), for a reader in another language. */
  resultSaid: SaidSchema.optional(),
  steps: z.number().int().nonnegative(),
  usage: TokenUsageSchema,
  /** Total cost in USD; null when the model has no price. Absent in tasks recorded before costs existed. */
  costUsd: z.number().nonnegative().nullable().optional(),
  /** On success: whether the runtime could confirm anything was done (e.g. not verified when no action was taken). */
  verification: VerificationSchema.optional(),
  /** A flow's replay that failed without a plan of its own on the last turn: the steps it knew the result of then. */
  flow: FlowTurnSchema.optional(),
  durationMs: ms,
});

export const TaskEventSchema = z.discriminatedUnion('type', [
  TaskStartedEventSchema,
  StepObservedEventSchema,
  StepPlannedEventSchema,
  StepExecutedEventSchema,
  StepVerifiedEventSchema,
  TaskPausedEventSchema,
  TaskResumedEventSchema,
  GuardDecidedEventSchema,
  PersonAskedEventSchema,
  PersonAnsweredEventSchema,
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
  /**
   * Whether this turn's action changed the screen: the next turn's first look against this turn's last. Null until
   * the next turn has looked (or when either Scene was unreadable). Every fact about a turn is on its own row.
   */
  screenChanged: z.boolean().nullable(),
  /** null when the planner returned no step (goal reached) or failed this turn. */
  planned: PlannedStepSchema.nullable(),
  /** null when nothing was executed this turn (finish_task, goal reached, failure or cancel). */
  outcome: StepOutcomeSchema.nullable(),
  timings: z.object({ observeMs: ms, planMs: ms.nullable(), executeMs: ms.nullable() }),
});
export type StepRecord = z.infer<typeof StepRecordSchema>;

/** A guard decision, a question, an answer, a hand-over or a confirmation, in order, as history keeps it. */
export const SupervisionEntrySchema = z.discriminatedUnion('type', [GuardDecidedEventSchema, PersonAskedEventSchema, PersonAnsweredEventSchema, TaskResumedEventSchema]);
export type SupervisionEntry = z.infer<typeof SupervisionEntrySchema>;

/** A request waiting for a person's reply (what a reloaded window shows again). */
export const PendingRequestSchema = PersonAskedEventSchema.omit({ type: true, taskId: true });
export type PendingRequest = z.infer<typeof PendingRequestSchema>;

/**
 * Which turns a record read from history holds when it holds not all of them (a long task is read a page at a time):
 * its `steps` are turns `from + 1 …` of `turnCount`, and `actionCount` counts the actions of every turn.
 */
export const TurnPageSchema = z.object({
  from: z.number().int().nonnegative(),
  turnCount: z.number().int().nonnegative(),
  actionCount: z.number().int().nonnegative(),
});
export type TurnPage = z.infer<typeof TurnPageSchema>;

/** The whole task, as history stores it. */
export const TaskRecordSchema = z.object({
  id: z.string().min(1),
  goal: z.string(),
  serial: z.string(),
  status: TaskStatusSchema,
  failureReason: z.string().nullable(),
  /** The failure reason's code, for a window in another language (absent in records written before it). */
  failureSaid: SaidSchema.optional(),
  /** When it failed on an exception: the error's name and message (older files gain it where they are read). */
  failure: TaskFailureSchema.optional(),
  result: z.string().nullable(),
  /** The result's code, when the app wrote it (a flow's end); absent in records written before it. */
  resultSaid: SaidSchema.optional(),
  planner: PlannerInfoSchema,
  maxSteps: z.number().int().positive(),
  createdAt: at,
  startedAt: at.nullable(),
  finishedAt: at.nullable(),
  steps: z.array(StepRecordSchema),
  usage: TokenUsageSchema,
  /** USD so far by the price table; null when the model has no price. */
  costUsd: z.number().nonnegative().nullable().default(null),
  limits: TaskLimitsSchema.nullable().default(null),
  supervision: TaskSupervisionSchema.nullable().default(null),
  /** Guard decisions, questions, answers, hand-overs, confirmations and resume notes, in order. */
  supervisionLog: z.array(SupervisionEntrySchema).default([]),
  /** The request waiting for a person now, if any. */
  pending: PendingRequestSchema.nullable().default(null),
  /** On success: whether the runtime could confirm anything was done. */
  verification: VerificationSchema.nullable().default(null),
  /** Sum of the turns' phases, for the summary line. */
  timings: z.object({ observeMs: ms, planMs: ms, executeMs: ms, totalMs: ms }),
  /** The launch it was one of (one goal on several phones); null for a task run alone and for tasks recorded before launches. */
  launchId: z.string().nullable().default(null),
  /** Absent: `steps` holds every turn. Set on a long task read from history, whose `steps` are its latest page. */
  page: TurnPageSchema.optional(),
  /** Set when a person recorded this task on the mirror ("recorded by you"): its flow as they kept it. */
  recorded: RecordedOriginSchema.optional(),
});
export type TaskRecord = z.infer<typeof TaskRecordSchema>;

/** Starting a task (what the UI and the CLI send). */
export const RunTaskRequestSchema = z.object({
  serial: z.string().trim().min(1).max(300),
  goal: z.string().trim().min(1).max(2000),
  maxSteps: z.number().int().min(1).max(500).optional(),
  /**
   * Apps this task may launch and act in (`launch_app` is refused outside them), each a package name or the app's
   * name as the home screen shows it ("Contacts"); absent: any app.
   */
  allowedApps: z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .max(255)
        .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._&'+-]*$/u, schemaMessage('schema.appName')),
    )
    .min(1)
    .max(50)
    .optional(),
  /** Set when the task is one of several started together on several phones (a launch): History groups them by it. */
  launchId: z.string().trim().min(1).max(100).optional(),
});
export type RunTaskRequest = z.infer<typeof RunTaskRequestSchema>;

/** The launch a task belongs to: its own when it ran alone (or was recorded before launches existed). */
export const launchOf = (record: { id: string; launchId?: string | null }): string => record.launchId ?? record.id;

/** Applies one event to a record: the one reducer UI, CLI and storage share. Returns a new record (`record` is left as it was). */
export function applyTaskEvent(record: TaskRecord, event: TaskEvent): TaskRecord {
  const next = { ...record, steps: [...record.steps], supervisionLog: [...record.supervisionLog] };
  applyTaskEventInPlace(next, event);
  return next;
}

/**
 * The reducer itself: changes `record` and its two lists in place (steps and objects in them are replaced, never
 * changed), so folding a whole task file costs time in proportion to its events (loading history), where copying
 * the lists for every event would grow with their square.
 */
export function applyTaskEventInPlace(record: TaskRecord, event: TaskEvent): void {
  switch (event.type) {
    case 'task.started':
      record.status = 'running';
      record.startedAt = event.at;
      record.planner = event.planner;
      record.maxSteps = event.maxSteps;
      record.limits = event.limits ?? record.limits;
      record.supervision = event.supervision ?? record.supervision;
      record.launchId = event.launchId ?? record.launchId;
      if (event.recorded) record.recorded = event.recorded;
      return;
    case 'step.observed': {
      record.timings = { ...record.timings, observeMs: record.timings.observeMs + event.observeMs };
      // A turn that looked again before planning (a flow step waiting for its element) keeps its latest look.
      const last = record.steps.at(-1);
      if (last?.step === event.step && last.planned === null) record.steps.pop();
      // A turn's first look tells what the turn before changed: that is a fact of the turn before, kept on its row.
      else if (last) record.steps[record.steps.length - 1] = { ...last, screenChanged: event.screenChanged };
      record.steps.push({
        step: event.step,
        scene: event.scene,
        sceneError: event.sceneError,
        screenshot: event.screenshot,
        screenChanged: null,
        planned: null,
        outcome: null,
        timings: { observeMs: event.observeMs, planMs: null, executeMs: null },
      });
      return;
    }
    case 'step.planned':
      if (event.usage) {
        record.usage = { inputTokens: record.usage.inputTokens + event.usage.inputTokens, outputTokens: record.usage.outputTokens + event.usage.outputTokens };
      }
      record.costUsd = addCost(record, event.costUsd);
      record.timings = { ...record.timings, planMs: record.timings.planMs + event.planMs };
      replaceStep(record.steps, event.step, (s) => ({ ...s, planned: plannedOf(event), timings: { ...s.timings, planMs: event.planMs } }));
      return;
    case 'step.executed':
      record.timings = { ...record.timings, executeMs: record.timings.executeMs + event.executeMs };
      replaceStep(record.steps, event.step, (s) => ({ ...s, outcome: event.outcome, timings: { ...s.timings, executeMs: event.executeMs } }));
      return;
    case 'step.verified':
      replaceStep(record.steps, event.step, (s) => (s.outcome ? { ...s, outcome: { ...s.outcome, verification: event.verification } } : s));
      return;
    case 'task.paused':
      return;
    case 'task.resumed':
      if (event.note) record.supervisionLog.push(event);
      return;
    case 'guard.decided':
      record.supervisionLog.push(event);
      return;
    case 'person.asked': {
      const { type: _type, taskId: _taskId, ...pending } = event;
      record.pending = pending;
      record.supervisionLog.push(event);
      return;
    }
    case 'person.answered':
      if (record.pending?.requestId === event.requestId) record.pending = null;
      record.supervisionLog.push(event);
      return;
    case 'task.finished':
      record.status = event.status;
      record.failureReason = event.failureReason;
      if (event.failureSaid) record.failureSaid = event.failureSaid;
      if (event.failure) record.failure = event.failure;
      record.result = event.result;
      if (event.resultSaid) record.resultSaid = event.resultSaid;
      // Usage and cost were summed turn by turn above; the event's totals are for its listeners.
      record.verification = event.verification ?? null;
      record.pending = null;
      record.finishedAt = event.at;
      record.timings = { ...record.timings, totalMs: event.durationMs };
      return;
  }
}

/** Replaces step `step` (searched from the newest, where events land) with its changed copy. */
function replaceStep(steps: StepRecord[], step: number, change: (s: StepRecord) => StepRecord): void {
  for (let i = steps.length - 1; i >= 0; i -= 1) {
    if (steps[i]!.step === step) {
      steps[i] = change(steps[i]!);
      return;
    }
  }
}

/** The turn's plan a `step.planned` event carries: everything but where and when. */
export function plannedOf(event: TaskEventOf<'step.planned'>): PlannedStep {
  const { type: _type, taskId: _taskId, at: _at, step: _step, planMs: _planMs, ...planned } = event;
  return planned;
}

/** The running cost plus one call's; a call without a price (unknown model, no model) adds nothing, so that stays null. */
function addCost(record: Pick<TaskRecord, 'costUsd'>, cost: number | null | undefined): number | null {
  return cost === undefined || cost === null ? record.costUsd : (record.costUsd ?? 0) + cost;
}

/** A record before its first event. */
export function newTaskRecord(init: { id: string; goal: string; serial: string; planner: PlannerInfo; maxSteps: number; createdAt: number; launchId?: string | null }): TaskRecord {
  return {
    ...init,
    launchId: init.launchId ?? null,
    status: 'pending',
    failureReason: null,
    result: null,
    startedAt: null,
    finishedAt: null,
    steps: [],
    usage: { ...ZERO_USAGE },
    costUsd: null,
    limits: null,
    supervision: null,
    supervisionLog: [],
    pending: null,
    verification: null,
    timings: { observeMs: 0, planMs: 0, executeMs: 0, totalMs: 0 },
  };
}
