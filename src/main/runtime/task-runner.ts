import { randomUUID } from 'node:crypto';
import type { TokenUsage } from '../../shared/decision';
import { sceneFingerprint, type Scene } from '../../shared/scene';
import type { StepOutcome, ToolCall } from '../../shared/action';
import {
  RunTaskRequestSchema,
  applyTaskEvent,
  newTaskRecord,
  type PlannedStep,
  type RunTaskRequest,
  type TaskEvent,
  type TaskRecord,
} from '../../shared/task';
import { plannerSourceFrom } from './build-planner';
import type { ConfiguredPlanner, PlanInput, Planner, PlannerDecision, PlannerScreenshot, PlannerSource, TurnSummary } from './planner';
import type { SupervisorPort } from './supervisor';

export type { ConfiguredPlanner, PlannerSource } from './planner';
export type { SupervisorDecision, SupervisorPort, SupervisorRequest } from './supervisor';
export { noPersonPresent, NO_PERSON_PRESENT } from './supervisor';

/** What the runner needs from perception: one look at the phone. */
export interface ObservationLike {
  scene: Scene | null;
  sceneError?: string;
  /** Only ever handed to a planner that accepts it; never stored or emitted. */
  screenshot?: PlannerScreenshot;
}

export interface ObserverPort {
  observe(serial: string, options: { signal?: AbortSignal }): Promise<ObservationLike>;
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
  turn: number;
  executed: number;
  failuresInARow: number;
  /** The previous turn's Scene fingerprint (clock and battery aside), to tell whether an action changed the screen. */
  previousScene: string | null;
  history: TurnSummary[];
}

interface RunningTask {
  record: TaskRecord;
  controller: AbortController;
  paused: boolean;
  wake: (() => void) | null;
  release: () => Promise<void>;
  /** The note given with the last resume, until the next `task.resumed` carries it. */
  resumeNote?: string;
}

/**
 * Runs tasks: observe -> plan -> execute, re-observing every turn, until the planner finishes, the step
 * budget runs out, too many actions fail in a row, or the task is stopped. A task never stays `running`:
 * every exception from observe or plan fails it with `<ErrorName>: <message>` (seed D7). One task per
 * device at a time; several devices may run tasks at once.
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

  constructor(private readonly options: TaskRunnerOptions) {
    this.now = options.now ?? Date.now;
    this.newTaskId = options.newTaskId ?? randomUUID;
    this.maxConsecutiveFailures = options.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES;
    this.plannerSource = options.plannerSource ?? plannerSourceFrom();
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
    };
    this.running.set(id, task);
    const done = this.drive(task, configured.planner);
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

  /** Between turns: holds while paused; throws Cancelled when stopped. */
  private async holdWhilePaused(task: RunningTask, turnsDone: number): Promise<void> {
    const signal = task.controller.signal;
    if (!task.paused || signal.aborted) return;
    this.emit(task, { type: 'task.paused', taskId: task.record.id, at: this.now(), step: turnsDone });
    while (task.paused && !signal.aborted) {
      await new Promise<void>((resolve) => (task.wake = resolve));
      task.wake = null;
    }
    if (signal.aborted) return;
    this.emit(task, { type: 'task.resumed', taskId: task.record.id, at: this.now(), step: turnsDone });
  }

  private async finish(task: RunningTask, run: RunState, status: 'completed' | 'failed' | 'cancelled', failureReason: string | null, result: string | null = null): Promise<TaskRecord> {
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
      durationMs: this.now() - run.startedAt,
    });
    return task.record;
  }

  /** Ends the task for an exception: failed with `<ErrorName>: <message>`, or cancelled when it came from Stop. */
  private fail(task: RunningTask, run: RunState, error: unknown): Promise<TaskRecord> {
    if (task.controller.signal.aborted) return this.finish(task, run, 'cancelled', stopReasonOf(task.controller.signal));
    return this.finish(task, run, 'failed', failureReasonOf(error));
  }

  private async drive(task: RunningTask, planner: Planner): Promise<TaskRecord> {
    const run: RunState = { startedAt: this.now(), usage: { inputTokens: 0, outputTokens: 0 }, turn: 0, executed: 0, failuresInARow: 0, previousScene: null, history: [] };
    const { id: taskId, goal, serial, maxSteps } = task.record;
    this.emit(task, { type: 'task.started', taskId, at: run.startedAt, goal, serial, planner: planner.info, maxSteps });
    try {
      for (;;) {
        const ended = await this.turn(task, planner, run);
        if (ended) return ended;
      }
    } catch (error) {
      // Not expected (each phase handles its own errors), but a task must never stay `running`.
      return this.fail(task, run, error);
    }
  }

  /** One turn; returns the final record when the task ended during it. */
  private async turn(task: RunningTask, planner: Planner, run: RunState): Promise<TaskRecord | null> {
    const { id: taskId, goal, serial, maxSteps } = task.record;
    const signal = task.controller.signal;
    await this.holdWhilePaused(task, run.turn);
    if (signal.aborted) return this.finish(task, run, 'cancelled', stopReasonOf(signal));
    const turn = ++run.turn;

    // Observe (an exception fails the task: D7).
    const observeStart = performance.now();
    let observation: ObservationLike;
    try {
      observation = await abortable(this.options.observer.observe(serial, { signal }), signal);
    } catch (error) {
      return this.fail(task, run, error);
    }
    const sceneKey = observation.scene ? sceneFingerprint(observation.scene) : null;
    const screenChanged = sceneKey !== null && run.previousScene !== null ? sceneKey !== run.previousScene : null;
    const lastTurn = run.history.at(-1);
    if (lastTurn) lastTurn.screenChanged = screenChanged;
    run.previousScene = sceneKey ?? run.previousScene;
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

    // Plan: the screenshot and the history go only to a planner that declares it accepts them (D8).
    const input: PlanInput = {
      goal,
      step: turn,
      scene: observation.scene,
      sceneError: observation.sceneError ?? null,
      ...(planner.accepts.screenshot && shot ? { screenshot: shot } : {}),
      ...(planner.accepts.history ? { history: run.history.map((h) => ({ ...h })) } : {}),
    };
    const planStart = performance.now();
    const decisions: PlannerDecision[] = [];
    const reportPlanned = (step: PlannedStep, usage: TokenUsage | null) => {
      run.usage = addUsage(run.usage, usage);
      const { tool, args, rationale, thinking } = step;
      this.emit(task, { type: 'step.planned', taskId, at: this.now(), step: turn, tool, args, rationale, thinking, usage, planMs: performance.now() - planStart });
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
    if (!first || planner.goalReached(input)) {
      const result = typeof decision?.args.reason === 'string' ? decision.args.reason : null;
      return this.finish(task, run, 'completed', null, result);
    }
    if (run.executed >= maxSteps) {
      return this.finish(task, run, 'failed', `reached the maximum of ${maxSteps} step${maxSteps === 1 ? '' : 's'} without finishing the goal`);
    }

    // Execute (only the first step: planners return at most one, D1). Errors are outcomes the planner
    // reads next turn, until too many come in a row.
    const executeStart = performance.now();
    let outcome: StepOutcome;
    try {
      const call: ToolCall = { name: first.tool, args: first.args };
      outcome = await abortable(this.options.executor.execute(call, { serial, scene: observation.scene, signal }), signal);
    } catch (error) {
      if (signal.aborted) return this.finish(task, run, 'cancelled', stopReasonOf(signal));
      outcome = { ok: false, error: failureReasonOf(error), attempts: 0, durationMs: performance.now() - executeStart };
    }
    run.executed += 1;
    this.emit(task, { type: 'step.executed', taskId, at: this.now(), step: turn, outcome, executeMs: performance.now() - executeStart });
    run.history.push({ step: turn, tool: first.tool, args: first.args, rationale: first.rationale, outcome, screenChanged: null });
    run.failuresInARow = outcome.ok ? 0 : run.failuresInARow + 1;
    if (run.failuresInARow >= this.maxConsecutiveFailures) {
      return this.finish(task, run, 'failed', `${run.failuresInARow} actions in a row failed; the last one: ${outcome.error ?? 'unknown error'}`);
    }
    return null;
  }
}
