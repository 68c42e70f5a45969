import { randomUUID } from 'node:crypto';
import type { TokenUsage } from '../../shared/decision';
import { sceneFingerprint, type Scene } from '../../shared/scene';
import type { StepOutcome, ToolCall, Verification } from '../../shared/action';
import { costOf } from '../../shared/prices';
import {
  PersonReplySchema,
  RunTaskRequestSchema,
  applyTaskEvent,
  newTaskRecord,
  replyFits,
  type PersonReply,
  type PersonRequest,
  type PlannedStep,
  type RunTaskRequest,
  type TaskEvent,
  type TaskEventOf,
  type TaskRecord,
} from '../../shared/task';
import { ASK_USER, AskUserArgsSchema, HAND_OVER, HandOverArgsSchema } from '../tools/person-tools';
import { ACTION_TOOLS } from '../tools/registry';
import { GO_BACK } from '../tools/actions/keys';
import type { ToolCatalog } from '../tools/tool';
import { appLeftTo, decideAction } from './action-policy';
import { budgetExceeded } from './budgets';
import { plannerSourceFrom } from './build-planner';
import { actionKeyOf, findLoop, loopDecision, loopWarning, type GuardedTurn } from './loop-guard';
import type { ConfiguredPlanner, PlanInput, Planner, PlannerDecision, PlannerScreenshot, PlannerSource, TurnSummary } from './planner';
import { FINISH_TASK } from './prompt';
import { noPersonPresent, type SupervisorDecision, type SupervisorPort } from './supervisor';
import { DEFAULT_TASK_POLICIES, type TaskPolicies } from './task-policies';
import { verifyAction } from './verify-outcome';

export type { ConfiguredPlanner, PlannerSource } from './planner';
export type { SupervisorDecision, SupervisorPort, SupervisorRequest } from './supervisor';
export { noPersonPresent, NO_PERSON_PRESENT } from './supervisor';
export type { TaskPolicies } from './task-policies';

/** What the runner needs from perception: one look at the phone. */
export interface ObservationLike {
  scene: Scene | null;
  sceneError?: string;
  /** Only ever handed to a planner that accepts it; never stored or emitted. */
  screenshot?: PlannerScreenshot;
}

export interface ObserverPort {
  observe(serial: string, options: { signal?: AbortSignal; sceneTokenBudget?: number }): Promise<ObservationLike>;
}

/** What the runner needs from tools: run one call against this turn's Scene. Errors are outcomes. */
export interface ExecutorPort {
  /** `allowedApps`: the task's app allow-list, which the Executor enforces for launch_app (absent: any app). */
  execute(call: ToolCall, context: { serial: string; scene: Scene | null; signal?: AbortSignal; allowedApps?: readonly string[] }): Promise<StepOutcome>;
}

/**
 * What the runner needs to keep other processes (the app, another `amc run`) off a phone while a task drives
 * it. `acquire` throws, with a message for the person, when the phone is taken.
 */
export interface DeviceLockPort {
  acquire(serial: string, info: { taskId: string; goal: string }): Promise<{ release(): Promise<void> }>;
}

export const DEFAULT_MAX_STEPS = 30;
export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 3;

export interface TaskRunnerOptions {
  observer: ObserverPort;
  executor: ExecutorPort;
  /**
   * Where each task's planner comes from. Default: the configuration (settings + environment) read afresh
   * per task, which gives the stub planner unless the AI planner is enabled (seed D6).
   */
  plannerSource?: PlannerSource;
  /** Failed actions in a row that end the task (default 3). */
  maxConsecutiveFailures?: number;
  /** One task per phone across processes; without it, only within this runner. */
  deviceLock?: DeviceLockPort;
  /**
   * How a task reaches a person (questions, confirmations, hand-overs, loops). Default: no person present, so any
   * such request ends the task `failed` with the reason. `start` may give a task its own.
   */
  supervisor?: SupervisorPort;
  now?: () => number;
  newTaskId?: () => string;
  /** The tools whose declared effects the policy, the allow-list and the outcome check read (default: the registry). */
  tools?: ToolCatalog;
}

/** A task that could not start (bad request, device busy). Nothing ran. */
export class TaskStartError extends Error {
  override name = 'TaskStartError';
}

/** Control over one running task. */
export interface TaskHandle {
  readonly id: string;
  /** Resolves with the final record; never rejects. */
  readonly done: Promise<TaskRecord>;
  /**
   * Cancels: aborts the in-flight model call and adb command; the task ends `cancelled` with the reason
   * (default: a person's stop; APP_CLOSED_REASON when the app shuts down).
   */
  stop(reason?: string): void;
  /** Holds the task before its next turn. */
  pause(): void;
  /** `note`: what the person tells the agent on resuming ("I logged in"); it joins the planner's history. */
  resume(note?: string): void;
}

/** Per-task choices for `start`. */
export interface StartOptions {
  /** The planner (with its budgets and policies), e.g. built with per-run overrides; default: the planner source. */
  planner?: ConfiguredPlanner;
  /** This task's way to a person (e.g. the CLI's terminal, or `--yes` / `--answer`); default: the runner's. */
  supervisor?: SupervisorPort;
}

export type TaskEventListener = (event: TaskEvent) => void;

/** Rejects as soon as `signal` aborts, even if `work` ignores the signal (Stop must be prompt). */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** `<ErrorName>: <message>` (seed D7). */
export function failureReasonOf(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `Error: ${String(error)}`;
}

const addUsage = (total: TokenUsage, usage: TokenUsage | null): TokenUsage =>
  usage ? { inputTokens: total.inputTokens + usage.inputTokens, outputTokens: total.outputTokens + usage.outputTokens } : total;

class Cancelled extends Error {
  override name = 'Cancelled';
}

const STOPPED = 'stopped by the user';
/** Why a task ends when the app (window, web host, CLI) is shut down under it rather than stopped by a person. */
export const APP_CLOSED_REASON = 'interrupted: the app was closed';

/** The reason given to stop(), as the aborted signal carries it. */
function stopReasonOf(signal: AbortSignal): string {
  return signal.reason instanceof Cancelled ? signal.reason.message : STOPPED;
}

/** The bookkeeping of one task's turns. */
interface RunState {
  startedAt: number;
  usage: TokenUsage;
  lastCall: TokenUsage | null;
  costUsd: number | null;
  /** Time spent waiting for a person or paused: not the agent's time. */
  waitedMs: number;
  turn: number;
  /** Turns that acted (or asked, or had their action denied): what the step budget counts. */
  executed: number;
  failuresInARow: number;
  /** The previous turn's Scene and its fingerprint (clock and battery aside), to tell what an action changed. */
  previousScene: string | null;
  previousSceneValue: Scene | null;
  history: TurnSummary[];
  /** Screen fingerprints observed since the loop guard last restarted (a person said to go on). */
  screens: (string | null)[];
  guarded: GuardedTurn[];
  /** The loop count last warned about, so one loop is reported once. */
  warnedLoop: number;
  /** What the runtime tells the model next turn. */
  notices: string[];
  /** The person allowed every action for the rest of this task. */
  allowAll: boolean;
}

interface RunningTask {
  record: TaskRecord;
  controller: AbortController;
  paused: boolean;
  wake: (() => void) | null;
  release: () => Promise<void>;
  /** The note given with the last resume, until the next `task.resumed` carries it. */
  resumeNote?: string;
  planner: Planner;
  policies: TaskPolicies;
  supervisor: SupervisorPort;
  allowedApps: readonly string[] | null;
}

/** What a turn that ends the task returns; null when the task goes on. */
type TurnEnd = TaskRecord | null;

const clipped = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** An action as messages name it, e.g. `tap {"element_id":"e4"} on Button "Send"`. */
function describeAction(tool: string, args: Record<string, unknown>, label?: string): string {
  return `${tool} ${clipped(JSON.stringify(args), 120)}${label ? ` on ${label}` : ''}`;
}

/**
 * Runs tasks: observe -> plan -> execute, re-observing every turn, until the planner finishes, a budget runs out,
 * too many actions fail in a row, a guard ends it, or the task is stopped. Before each action the sensitive-action
 * policy may ask the person; the model may ask the person (ask_user) or hand the phone over (hand_over); a loop
 * is first pointed out to the model, then put to the person. A task never stays `running`: every exception from
 * observe or plan fails it with `<ErrorName>: <message>` (seed D7). One task per device at a time; several
 * devices may run tasks at once.
 */
export class TaskRunner {
  private readonly listeners = new Set<TaskEventListener>();
  private readonly running = new Map<string, RunningTask>();
  /** Devices whose task is being set up (planner, lock): taken, though not yet in `running`. */
  private readonly starting = new Set<string>();
  private readonly now: () => number;
  private readonly newTaskId: () => string;
  private readonly maxConsecutiveFailures: number;
  private readonly plannerSource: PlannerSource;
  private readonly supervisor: SupervisorPort;
  private readonly tools: ToolCatalog;

  constructor(private readonly options: TaskRunnerOptions) {
    this.tools = options.tools ?? ACTION_TOOLS;
    this.now = options.now ?? Date.now;
    this.newTaskId = options.newTaskId ?? randomUUID;
    this.maxConsecutiveFailures = options.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES;
    this.plannerSource = options.plannerSource ?? plannerSourceFrom();
    this.supervisor = options.supervisor ?? noPersonPresent;
  }

  /** Subscribes to every task's events; returns the unsubscribe function. */
  on(listener: TaskEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Live snapshots of the tasks running now (for a window that re-attaches after a reload). */
  activeTasks(): TaskRecord[] {
    return [...this.running.values()].map((task) => task.record);
  }

  /**
   * Starts a task once its planner is ready (`options.planner`, e.g. with per-run overrides, or the planner
   * source). Rejects (TaskStartError, ConfigError...) when it cannot start; after that, every problem ends
   * the task itself, reported through events and `done`.
   */
  async start(request: RunTaskRequest, options: StartOptions = {}): Promise<TaskHandle> {
    const parsed = RunTaskRequestSchema.safeParse(request);
    if (!parsed.success) {
      throw new TaskStartError(parsed.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; '));
    }
    const { serial, goal } = parsed.data;
    const busy = [...this.running.values()].find((task) => task.record.serial === serial);
    if (busy) throw new TaskStartError(`a task is already running on ${serial} (${busy.record.id}); stop it first`);
    if (this.starting.has(serial)) throw new TaskStartError(`a task is already running on ${serial}; stop it first`);
    this.starting.add(serial);
    let configured: ConfiguredPlanner;
    let hold: { release(): Promise<void> } | undefined;
    const id = this.newTaskId();
    try {
      configured = options.planner ?? (await this.plannerSource());
      hold = await this.options.deviceLock?.acquire(serial, { taskId: id, goal }).catch((error: unknown) => {
        throw new TaskStartError(error instanceof Error ? error.message : String(error));
      });
    } finally {
      this.starting.delete(serial);
    }
    const maxSteps = parsed.data.maxSteps ?? configured.maxSteps;
    const task: RunningTask = {
      record: newTaskRecord({ id, goal, serial, planner: configured.planner.info, maxSteps, createdAt: this.now() }),
      controller: new AbortController(),
      paused: false,
      wake: null,
      release: () => hold?.release() ?? Promise.resolve(),
      planner: configured.planner,
      policies: configured.policies ?? DEFAULT_TASK_POLICIES,
      supervisor: options.supervisor ?? this.supervisor,
      allowedApps: parsed.data.allowedApps ?? null,
    };
    this.running.set(id, task);
    const done = this.drive(task);
    return {
      id,
      done,
      stop: (reason) => this.stop(id, reason),
      pause: () => this.pause(id),
      resume: (note) => this.resume(id, note),
    };
  }

  /** Starts a task and waits for its end. */
  async run(request: RunTaskRequest, options: StartOptions = {}): Promise<TaskRecord> {
    return (await this.start(request, options)).done;
  }

  stop(taskId: string, reason: string = STOPPED): boolean {
    const task = this.running.get(taskId);
    if (!task) return false;
    task.controller.abort(new Cancelled(reason));
    task.wake?.();
    return true;
  }

  pause(taskId: string): boolean {
    const task = this.running.get(taskId);
    if (!task || task.controller.signal.aborted) return false;
    task.paused = true;
    return true;
  }

  resume(taskId: string, note?: string): boolean {
    const task = this.running.get(taskId);
    if (!task) return false;
    task.paused = false;
    if (note?.trim()) task.resumeNote = note.trim();
    task.wake?.();
    return true;
  }

  private emit(task: RunningTask, event: TaskEvent): void {
    task.record = applyTaskEvent(task.record, event);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener (a closed window, a full pipe) must not stop the task.
      }
    }
  }

  private guardDecided(task: RunningTask, step: number, decided: Omit<TaskEventOf<'guard.decided'>, 'type' | 'taskId' | 'at' | 'step'>): void {
    this.emit(task, { type: 'guard.decided', taskId: task.record.id, at: this.now(), step, ...decided });
  }

  /** Between turns: holds while paused; throws Cancelled when stopped. */
  private async holdWhilePaused(task: RunningTask, run: RunState): Promise<void> {
    const signal = task.controller.signal;
    if (!task.paused || signal.aborted) return;
    const heldAt = this.now();
    this.emit(task, { type: 'task.paused', taskId: task.record.id, at: heldAt, step: run.turn });
    while (task.paused && !signal.aborted) {
      await new Promise<void>((resolve) => (task.wake = resolve));
      task.wake = null;
    }
    run.waitedMs += this.now() - heldAt;
    if (signal.aborted) return;
    const note = task.resumeNote;
    task.resumeNote = undefined;
    this.emit(task, { type: 'task.resumed', taskId: task.record.id, at: this.now(), step: run.turn, ...(note && { note }) });
    if (note) run.notices.push(`The person paused the task, may have used the phone, and resumed it saying: "${note}"`);
    // The person may have changed anything: loops and screen comparisons start afresh.
    this.restartLoopGuard(run);
  }

  /**
   * Asks the person through the task's supervisor and waits (no model call meanwhile); the request is an event
   * before and the reply after. A reply that does not fit the request counts as unanswered. Rejects when stopped.
   */
  private async askPerson(task: RunningTask, run: RunState, step: number, request: PersonRequest): Promise<SupervisorDecision> {
    const signal = task.controller.signal;
    const requestId = randomUUID();
    const askedAt = this.now();
    this.emit(task, { type: 'person.asked', taskId: task.record.id, at: askedAt, step, requestId, request });
    let decision: SupervisorDecision;
    try {
      decision = await abortable(task.supervisor.ask({ taskId: task.record.id, requestId, step, request }, { signal }), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      decision = { reply: { kind: 'unanswered', reason: `the request could not reach a person (${failureReasonOf(error)})` }, by: 'no-one-present' };
    } finally {
      run.waitedMs += this.now() - askedAt;
    }
    const checked = PersonReplySchema.safeParse(decision.reply);
    if (!checked.success || !replyFits(request, checked.data)) {
      decision = { reply: { kind: 'unanswered', reason: `the reply did not fit the ${request.kind} request` }, by: decision.by };
    }
    this.emit(task, { type: 'person.answered', taskId: task.record.id, at: this.now(), step, requestId, reply: decision.reply, by: decision.by });
    return decision;
  }

  private async finish(task: RunningTask, run: RunState, status: 'completed' | 'failed' | 'cancelled', failureReason: string | null, result: string | null = null, verification?: Verification): Promise<TaskRecord> {
    // The device is free (here and for other processes) before anyone hears of the end, so a listener may
    // start the next task at once.
    // A lock that cannot be removed is replaced as stale by this process's next task.
    await task.release().catch(() => undefined);
    this.running.delete(task.record.id);
    this.emit(task, {
      type: 'task.finished',
      taskId: task.record.id,
      at: this.now(),
      status,
      failureReason,
      result,
      steps: run.executed,
      usage: run.usage,
      costUsd: run.costUsd,
      ...(verification && { verification }),
      durationMs: this.now() - run.startedAt,
    });
    return task.record;
  }

  /** Ends the task for an exception: failed with `<ErrorName>: <message>`, or cancelled when it came from Stop. */
  private fail(task: RunningTask, run: RunState, error: unknown): Promise<TaskRecord> {
    if (task.controller.signal.aborted) return this.finish(task, run, 'cancelled', stopReasonOf(task.controller.signal));
    return this.finish(task, run, 'failed', failureReasonOf(error));
  }

  /** The end a person's reply calls for: stopped (cancelled), or failed when nobody answered; null to go on. */
  private endForReply(task: RunningTask, run: RunState, reply: PersonReply, unansweredReason: (why: string) => string): Promise<TaskRecord> | null {
    if (reply.kind === 'stop') return this.finish(task, run, 'cancelled', STOPPED);
    if (reply.kind === 'unanswered') return this.finish(task, run, 'failed', unansweredReason(reply.reason));
    return null;
  }

  private async drive(task: RunningTask): Promise<TaskRecord> {
    const run: RunState = {
      startedAt: this.now(),
      usage: { inputTokens: 0, outputTokens: 0 },
      lastCall: null,
      costUsd: null,
      waitedMs: 0,
      turn: 0,
      executed: 0,
      failuresInARow: 0,
      previousScene: null,
      previousSceneValue: null,
      history: [],
      screens: [],
      guarded: [],
      warnedLoop: 0,
      notices: [],
      allowAll: false,
    };
    const { id: taskId, goal, serial, maxSteps } = task.record;
    const { policies, planner } = task;
    this.emit(task, {
      type: 'task.started',
      taskId,
      at: run.startedAt,
      goal,
      serial,
      planner: planner.info,
      maxSteps,
      limits: { maxSteps, maxTokens: policies.maxTokens, maxCostUsd: policies.maxCostUsd, maxDurationMs: policies.maxDurationMs },
      supervision: { allowedApps: task.allowedApps ? [...task.allowedApps] : null, confirmation: policies.confirmation, standingInstructions: policies.standingInstructions },
    });
    if (policies.maxCostUsd !== null && policies.price === null && planner.info.kind === 'ai') {
      this.guardDecided(task, 0, {
        guard: 'budget',
        finding: 'cost',
        decision: 'allow',
        message: `${planner.info.model ?? 'the model'} has no price in the price table, so its cost is unknown and the cost limit cannot apply`,
        by: 'runtime',
      });
    }
    try {
      for (;;) {
        const ended = await this.turn(task, run);
        if (ended) return ended;
      }
    } catch (error) {
      // Not expected (each phase handles its own errors), but a task must never stay `running`.
      return this.fail(task, run, error);
    }
  }

  /** Ends the task (no further model call) when a budget is used up. */
  private checkBudgets(task: RunningTask, run: RunState): Promise<TaskRecord> | null {
    const exceeded = budgetExceeded(
      { steps: run.executed, usage: run.usage, lastCall: run.lastCall, costUsd: run.costUsd, agentMs: this.now() - run.startedAt - run.waitedMs },
      task.record.maxSteps,
      task.policies,
    );
    if (!exceeded) return null;
    this.guardDecided(task, run.turn, { guard: 'budget', finding: exceeded.finding, decision: 'stop', message: exceeded.reason, by: 'runtime' });
    return this.finish(task, run, 'failed', exceeded.reason);
  }

  private restartLoopGuard(run: RunState): void {
    run.guarded = [];
    run.screens = run.screens.slice(-1);
    run.warnedLoop = 0;
  }

  /**
   * The loop guard after an observation: warns the model (once per loop) or, when the loop goes on, asks the
   * person; ends the task when the person stops it or nobody can answer.
   */
  private async guardLoops(task: RunningTask, run: RunState, step: number): Promise<TurnEnd> {
    const thresholds = task.policies.loop;
    const finding = findLoop(run.guarded, run.screens, thresholds);
    if (!finding) {
      run.warnedLoop = 0;
      return null;
    }
    if (loopDecision(finding, thresholds) === 'warn') {
      if (run.warnedLoop === 0) {
        this.guardDecided(task, step, { guard: 'loop', finding: finding.kind, decision: 'warn', message: finding.description, by: 'runtime' });
      }
      run.warnedLoop = finding.count;
      run.notices.push(loopWarning(finding));
      return null;
    }
    this.guardDecided(task, step, { guard: 'loop', finding: finding.kind, decision: 'ask', message: finding.description, by: 'runtime' });
    const { reply } = await this.askPerson(task, run, step, { kind: 'loop', description: finding.description });
    const ended = this.endForReply(task, run, reply, (why) => `stopped a loop: ${finding.description}; ${why}`);
    if (ended) return ended;
    this.restartLoopGuard(run);
    if (reply.kind === 'continue' && reply.note) run.notices.push(`The person saw you looping and said: "${reply.note}"`);
    return null;
  }

  /** One turn; returns the final record when the task ended during it. */
  private async turn(task: RunningTask, run: RunState): Promise<TurnEnd> {
    const { id: taskId, goal, serial } = task.record;
    const { planner } = task;
    const signal = task.controller.signal;
    await this.holdWhilePaused(task, run);
    if (signal.aborted) return this.finish(task, run, 'cancelled', stopReasonOf(signal));
    const overBudget = this.checkBudgets(task, run);
    if (overBudget) return overBudget;
    const turn = ++run.turn;

    // Observe (an exception fails the task: D7).
    const observeStart = performance.now();
    let observation: ObservationLike;
    try {
      observation = await abortable(this.options.observer.observe(serial, { signal, sceneTokenBudget: task.policies.sceneTokenBudget }), signal);
    } catch (error) {
      return this.fail(task, run, error);
    }
    const sceneKey = observation.scene ? sceneFingerprint(observation.scene) : null;
    const screenChanged = sceneKey !== null && run.previousScene !== null ? sceneKey !== run.previousScene : null;
    const shot = observation.screenshot;
    this.emit(task, {
      type: 'step.observed',
      taskId,
      at: this.now(),
      step: turn,
      scene: observation.scene,
      sceneError: observation.sceneError ?? null,
      screenshot: shot ? { mediaType: shot.mediaType, width: shot.width, height: shot.height, bytes: shot.bytes.byteLength } : null,
      screenChanged,
      observeMs: performance.now() - observeStart,
    });
    this.learnFromObservation(task, run, observation.scene, screenChanged);
    const leftTo = this.appLeftByLastAction(task, run, observation.scene);
    run.previousScene = sceneKey ?? run.previousScene;
    run.previousSceneValue = observation.scene;
    run.screens.push(sceneKey);
    // The turn ends unplanned: the next one observes the screen Back led to.
    if (leftTo) return this.goBackInScope(task, run, turn, leftTo, observation.scene);

    const loopEnd = await this.guardLoops(task, run, turn);
    if (loopEnd) return loopEnd;
    if (signal.aborted) return this.finish(task, run, 'cancelled', stopReasonOf(signal));
    // Time may have run out while observing or waiting for the person.
    const late = this.checkBudgets(task, run);
    if (late) return late;

    // Plan: the screenshot and the history go only to a planner that declares it accepts them (D8).
    const input: PlanInput = {
      goal,
      step: turn,
      scene: observation.scene,
      sceneError: observation.sceneError ?? null,
      ...(planner.accepts.screenshot && shot ? { screenshot: shot } : {}),
      ...(planner.accepts.history ? { history: run.history.map((h) => ({ ...h })) } : {}),
      ...(task.policies.standingInstructions ? { standingInstructions: task.policies.standingInstructions } : {}),
      ...(task.allowedApps ? { allowedApps: task.allowedApps } : {}),
      ...(run.notices.length ? { notices: run.notices.splice(0) } : {}),
    };
    const planStart = performance.now();
    const decisions: PlannerDecision[] = [];
    const reportPlanned = (step: PlannedStep, usage: TokenUsage | null) => {
      run.usage = addUsage(run.usage, usage);
      const price = task.policies.price;
      const costUsd = usage && price ? costOf(usage, price) : null;
      if (usage) run.lastCall = usage;
      if (costUsd !== null) run.costUsd = (run.costUsd ?? 0) + costUsd;
      const { tool, args, rationale, thinking } = step;
      this.emit(task, { type: 'step.planned', taskId, at: this.now(), step: turn, tool, args, rationale, thinking, usage, costUsd, planMs: performance.now() - planStart });
    };
    let steps: PlannedStep[];
    try {
      steps = await abortable(planner.plan(input, { signal, onDecision: (d) => decisions.push(d) }), signal);
    } catch (error) {
      const decision = decisions.at(-1);
      if (decision && !signal.aborted) reportPlanned(decision, decision.usage);
      return this.fail(task, run, error);
    }
    const first = steps[0];
    const decision = decisions.at(-1);
    if (decision) reportPlanned(decision, decision.usage);
    else if (first) reportPlanned(first, null);
    // The seed's short-circuit (D2/D3): an empty plan, or a planner saying the goal is reached, completes.
    if (!first || planner.goalReached(input)) return this.complete(task, run, turn, decision);

    if (first.tool === ASK_USER || first.tool === HAND_OVER) return this.personTool(task, run, turn, first);
    return this.act(task, run, turn, first, observation.scene);
  }

  /**
   * What the observation tells about the previous turn: whether its action changed the screen, and what the
   * runtime can verify about it (an event, the turn's outcome and the planner's history all get it).
   */
  private learnFromObservation(task: RunningTask, run: RunState, scene: Scene | null, screenChanged: boolean | null): void {
    const lastTurn = run.history.at(-1);
    if (!lastTurn || lastTurn.step !== run.turn - 1) return;
    lastTurn.screenChanged = screenChanged;
    const guarded = run.guarded.at(-1);
    if (guarded) guarded.screenChanged = screenChanged;
    const verification = verifyAction({
      tool: lastTurn.tool,
      args: lastTurn.args,
      outcome: lastTurn.outcome,
      before: run.previousSceneValue,
      after: scene,
      screenChanged,
      tools: this.tools,
    });
    if (!verification) return;
    lastTurn.outcome = { ...lastTurn.outcome, verification };
    this.emit(task, { type: 'step.verified', taskId: task.record.id, at: this.now(), step: lastTurn.step, verification });
  }

  /** The app outside the task's allowed apps that the last turn's action led into (null: none). */
  private appLeftByLastAction(task: RunningTask, run: RunState, scene: Scene | null): string | null {
    const lastTurn = run.history.at(-1);
    if (!lastTurn || lastTurn.step !== run.turn - 1 || !lastTurn.outcome.ok || !this.tools.get(lastTurn.tool)?.actsOnPhone) return null;
    return appLeftTo(run.previousSceneValue, scene, task.allowedApps);
  }

  /** Leaves an app the last action opened outside the allow-list (Back, as a person would) and tells the planner why. */
  private async goBackInScope(task: RunningTask, run: RunState, turn: number, app: string, scene: Scene | null): Promise<TurnEnd> {
    const signal = task.controller.signal;
    const lastTurn = run.history.at(-1)!;
    const action = describeAction(lastTurn.tool, lastTurn.args, lastTurn.outcome.target?.label);
    let back: StepOutcome;
    try {
      back = await abortable(this.options.executor.execute(GO_BACK, { serial: task.record.serial, scene, signal }), signal);
    } catch (error) {
      if (signal.aborted) return this.finish(task, run, 'cancelled', stopReasonOf(signal));
      back = { ok: false, error: failureReasonOf(error), attempts: 0, durationMs: 0 };
    }
    const allowed = task.allowedApps!.join(', ');
    const how = back.ok ? 'went back out of it' : `could not go back out of it (${back.error ?? 'unknown error'})`;
    this.guardDecided(task, turn, { guard: 'scope', finding: 'outside-allowed-apps', decision: 'warn', message: `${action} opened ${app}, which is not among this task's allowed apps: the runtime ${how}`, by: 'runtime' });
    run.notices.push(`Your last action (${action}) opened ${app}, which is not among this task's allowed apps (${allowed}); the runtime ${how}. Stay within the allowed apps.`);
    return null;
  }

  /**
   * The planner says the goal is reached. A model's success claim when nothing was done completes the task
   * marked "not verified" (the runtime cannot confirm it), and the guard's decision is an event.
   */
  private complete(task: RunningTask, run: RunState, turn: number, decision: PlannerDecision | undefined): Promise<TaskRecord> {
    const result = typeof decision?.args.reason === 'string' ? decision.args.reason : null;
    const claimed = decision?.tool === FINISH_TASK && decision.args.success === true;
    if (!claimed || run.executed > 0) return this.finish(task, run, 'completed', null, result);
    const fact = 'no action was taken in this task, so nothing confirms the goal was reached';
    this.guardDecided(task, turn, { guard: 'completion', finding: 'no-action-taken', decision: 'allow', message: `success claimed, but ${fact}: completed as not verified`, by: 'runtime' });
    return this.finish(task, run, 'completed', null, result, { status: 'not-verified', check: 'action-taken', fact });
  }

  /** Records a turn that did not reach the Executor (a question, a hand-over, a denied action). */
  private recordTurn(task: RunningTask, run: RunState, turn: number, step: PlannedStep, outcome: StepOutcome, executeMs: number): void {
    run.executed += 1;
    this.emit(task, { type: 'step.executed', taskId: task.record.id, at: this.now(), step: turn, outcome, executeMs });
    run.history.push({ step: turn, tool: step.tool, args: step.args, rationale: step.rationale, outcome, screenChanged: null });
    run.guarded.push({ actionKey: actionKeyOf(step.tool, step.args, outcome.target?.label), actionText: describeAction(step.tool, step.args, outcome.target?.label), screenChanged: null });
  }

  /** ask_user / hand_over: the model reaches the person; the reply (or note) is the turn's outcome. */
  private async personTool(task: RunningTask, run: RunState, turn: number, step: PlannedStep): Promise<TurnEnd> {
    const started = performance.now();
    const asking = step.tool === ASK_USER;
    const args = (asking ? AskUserArgsSchema : HandOverArgsSchema).safeParse(step.args);
    if (!args.success) {
      const outcome: StepOutcome = { ok: false, error: `Invalid arguments for ${step.tool}: ${args.error.issues.map((i) => i.message).join('; ')}.`, attempts: 0, durationMs: 0 };
      this.recordTurn(task, run, turn, step, outcome, 0);
      return this.countFailure(task, run, outcome);
    }
    const text = 'question' in args.data ? args.data.question : args.data.reason;
    const request: PersonRequest = asking ? { kind: 'question', question: text } : { kind: 'hand-over', reason: text };
    let reply: PersonReply;
    try {
      ({ reply } = await this.askPerson(task, run, turn, request));
    } catch {
      return this.finish(task, run, 'cancelled', stopReasonOf(task.controller.signal));
    }
    const ended = this.endForReply(task, run, reply, (why) => (asking ? `the model asked "${text}" and ${why}` : `the model handed the phone over ("${text}") and ${why}`));
    if (ended) return ended;
    const said = reply.kind === 'answer' ? reply.text : reply.kind === 'continue' ? reply.note : undefined;
    const outcome: StepOutcome = { ok: true, attempts: 0, durationMs: Math.round(performance.now() - started), ...(said && { fromPerson: said }) };
    this.recordTurn(task, run, turn, step, outcome, performance.now() - started);
    run.failuresInARow = 0;
    // After a hand-over the person may have changed anything: the next observation starts afresh.
    if (!asking) this.restartLoopGuard(run);
    return null;
  }

  /** Ends the task when too many actions failed in a row. */
  private countFailure(task: RunningTask, run: RunState, outcome: StepOutcome): Promise<TaskRecord> | null {
    run.failuresInARow = outcome.ok ? 0 : run.failuresInARow + 1;
    if (run.failuresInARow >= this.maxConsecutiveFailures) {
      return this.finish(task, run, 'failed', `${run.failuresInARow} actions in a row failed; the last one: ${outcome.error ?? 'unknown error'}`);
    }
    return null;
  }

  /**
   * Whether the action may run: the sensitive-action policy, then the person when it asks. Returns the reply's
   * effect: run it, a denial (the turn's outcome), or the task's end.
   */
  private async permit(task: RunningTask, run: RunState, turn: number, step: PlannedStep, scene: Scene | null): Promise<'run' | 'denied' | TaskRecord> {
    const verdict = decideAction({ call: { name: step.tool, args: step.args }, scene, mode: task.policies.confirmation, allowedApps: task.allowedApps, tools: this.tools });
    if (verdict.decision === 'allow') return 'run';
    const action = describeAction(step.tool, step.args, verdict.target?.label);
    if (run.allowAll) {
      this.guardDecided(task, turn, { guard: 'policy', finding: 'allowed-for-task', decision: 'allow', message: `${action}: the person allowed every action for the rest of this task`, by: 'preset' });
      return 'run';
    }
    const guard = verdict.finding === 'outside-allowed-apps' ? 'scope' : 'policy';
    this.guardDecided(task, turn, { guard, finding: verdict.finding, decision: 'ask', message: `${action} needs a yes: ${verdict.reasons.join('; ')}`, by: 'policy' });
    let reply: PersonReply;
    try {
      ({ reply } = await this.askPerson(task, run, turn, {
        kind: 'confirmation',
        tool: step.tool,
        args: step.args,
        rationale: step.rationale,
        reasons: verdict.reasons,
        target: verdict.target,
      }));
    } catch {
      return this.finish(task, run, 'cancelled', stopReasonOf(task.controller.signal));
    }
    const ended = this.endForReply(task, run, reply, (why) => `${action} needs a person's yes (${verdict.reasons.join('; ')}) and ${why}`);
    if (ended) return ended;
    if (reply.kind === 'deny') return 'denied';
    if (reply.kind === 'allow' && reply.scope === 'task') run.allowAll = true;
    return 'run';
  }

  /** An action for the phone: permitted, executed (errors are outcomes the planner reads next turn), recorded. */
  private async act(task: RunningTask, run: RunState, turn: number, step: PlannedStep, scene: Scene | null): Promise<TurnEnd> {
    const signal = task.controller.signal;
    const executeStart = performance.now();
    const permitted = await this.permit(task, run, turn, step, scene);
    if (typeof permitted !== 'string') return permitted;
    if (permitted === 'denied') {
      // Not a failure of the agent: the model hears it and goes on (the loop guard stops it insisting).
      this.recordTurn(task, run, turn, step, { ok: false, error: DENIED, attempts: 0, durationMs: Math.round(performance.now() - executeStart) }, performance.now() - executeStart);
      return null;
    }
    let outcome: StepOutcome;
    try {
      const call: ToolCall = { name: step.tool, args: step.args };
      const context = { serial: task.record.serial, scene, signal, ...(task.allowedApps && { allowedApps: task.allowedApps }) };
      outcome = await abortable(this.options.executor.execute(call, context), signal);
    } catch (error) {
      if (signal.aborted) return this.finish(task, run, 'cancelled', stopReasonOf(signal));
      outcome = { ok: false, error: failureReasonOf(error), attempts: 0, durationMs: performance.now() - executeStart };
    }
    this.recordTurn(task, run, turn, step, outcome, performance.now() - executeStart);
    return this.countFailure(task, run, outcome);
  }
}

/** The outcome of an action the person said no to. */
export const DENIED = 'the person denied this action';
