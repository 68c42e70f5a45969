import { randomUUID } from 'node:crypto';
import { sceneFingerprint, type Scene } from '../../shared/scene';
import type { StepOutcome, Verification } from '../../shared/action';
import { costOf } from '../../shared/prices';
import {
  RunTaskRequestSchema,
  applyTaskEvent,
  newTaskRecord,
  type PersonReply,
  type PersonRequest,
  type PlannedStep,
  type RunTaskRequest,
  type TaskEvent,
  type TaskEventOf,
  type TaskRecord,
} from '../../shared/task';
import { ACTION_TOOLS } from '../tools/registry';
import type { ToolCatalog } from '../tools/tool';
import { ASK_USER, AskUserArgsSchema, HAND_OVER, HandOverArgsSchema } from '../tools/person-tools';
import { budgetExceeded } from './budgets';
import { plannerSourceFrom } from './build-planner';
import { abortable, APP_CLOSED, Cancelled, failureFields, failureOf, STOPPED, stopReasonOf } from './cancellation';
import { turnsOf } from './history';
import { LoopWatch, loopWarning } from './loop-guard';
import type { ConfiguredPlanner, Decision, PlanInput, Planner, PlannerSource } from './planner';
import { describeAction, endFor, SupervisedActions, type Ended } from './supervised-action';
import { noPersonPresent, type SupervisorPort } from './supervisor';
import { DEFAULT_TASK_POLICIES, type TaskPolicies } from './task-policies';
import { learnFrom, notesFor, type TaskLearning } from './notes/task-notes';
import { nextDifferentLook } from './look-again';
import type { ObservationLike, StartOptions, TaskEventListener, TaskHandle, TaskRunnerOptions } from './runner-ports';
import { DEFAULT_MAX_CONSECUTIVE_FAILURES, TaskStartError } from './runner-ports';
import { say, type Saying } from '../../shared/said';
import { claimVerification } from '../../shared/verdict';
import { actionCount, turnCount } from '../../shared/turns';

export type { ConfiguredPlanner, PlannerSource } from './planner';
export type { SupervisorDecision, SupervisorPort, SupervisorRequest } from './supervisor';
export { noPersonPresent, NO_PERSON_PRESENT } from './supervisor';
export type { TaskPolicies } from './task-policies';
export type { ExecutorPort } from './supervised-action';
export { failureReasonOf } from './cancellation';
export * from './runner-ports';

/** Why a task ends when the app (window, web host, CLI) is shut down under it rather than stopped by a person. */
export const APP_CLOSED_REASON = APP_CLOSED.text;


/** What one task's turns keep besides its record (history, totals and step counts are read from the record). */
interface RunState {
  startedAt: number;
  /** Time spent waiting for a person or paused: not the agent's time. */
  waitedMs: number;
  turn: number;
  failuresInARow: number;
  /** The previous turn's Scene fingerprint (clock and battery aside), to tell what an action changed. */
  previousScene: string | null;
  loops: LoopWatch;
  /** What the runtime tells the model next turn. */
  notices: string[];
  /** This task's one way to act on the phone. */
  actions: SupervisedActions;
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
      record: newTaskRecord({ id, goal, serial, planner: configured.planner.info, maxSteps, createdAt: this.now(), launchId: parsed.data.launchId ?? null }),
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
    if (note) run.notices.push(`The person paused the task, may have used the phone, and resumed it saying: ${JSON.stringify(note)}`);
    // The person may have changed anything: loops and screen comparisons start afresh.
    run.loops.restart();
  }

  private async finish(task: RunningTask, run: RunState, status: 'completed' | 'failed' | 'cancelled', failure: string | Saying | null, result: string | null = null, verification?: Verification): Promise<TaskRecord> {
    // The device is free (here and for other processes) before anyone hears of the end, so a listener may
    // start the next task at once.
    // A lock that cannot be removed is replaced as stale by this process's next task.
    await task.release().catch(() => undefined);
    this.running.delete(task.record.id);
    // Before anyone hears of the end: a person who marks the task wrong at once then forgets what it taught.
    if (status === 'completed') await learnFrom({ ...task.record, status, verification: verification ?? null }, this.learning(task));
    this.emit(task, {
      type: 'task.finished',
      taskId: task.record.id,
      at: this.now(),
      status,
      ...failureFields(failure),
      result,
      steps: actionCount(task.record),
      usage: task.record.usage,
      costUsd: task.record.costUsd,
      ...(verification && { verification }),
      durationMs: this.now() - run.startedAt,
    });
    return task.record;
  }

  private learning(task: RunningTask): TaskLearning {
    return { appNotes: this.options.appNotes, planCache: this.options.planCache, notesOn: task.policies.appNotes };
  }

  /** Ends the task for an exception: failed with `<ErrorName>: <message>`, or cancelled when it came from Stop. */
  private fail(task: RunningTask, run: RunState, error: unknown): Promise<TaskRecord> {
    if (task.controller.signal.aborted) return this.finish(task, run, 'cancelled', stopReasonOf(task.controller.signal));
    return this.finish(task, run, 'failed', failureOf(error));
  }

  private end(task: RunningTask, run: RunState, ended: Ended): Promise<TaskRecord> {
    return this.finish(task, run, ended.status, ended.reason);
  }

  private async drive(task: RunningTask): Promise<TaskRecord> {
    const { id: taskId, goal, serial, maxSteps } = task.record;
    const { policies, planner } = task;
    const run: RunState = {
      startedAt: this.now(),
      waitedMs: 0,
      turn: 0,
      failuresInARow: 0,
      previousScene: null,
      loops: new LoopWatch(),
      notices: [],
      actions: new SupervisedActions(
        { executor: this.options.executor, tools: this.tools },
        {
          taskId,
          serial,
          signal: task.controller.signal,
          supervisor: task.supervisor,
          allowedApps: task.allowedApps,
          confirmation: () => policies.confirmation,
          emit: (event) => this.emit(task, event),
          now: this.now,
          waited: (ms) => (run.waitedMs += ms),
        },
      ),
    };
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
      ...(task.record.launchId && { launchId: task.record.launchId }),
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

  /** Ends the task (no further model call) when a budget is used up; the turns counted are those before the one `underway`. */
  private checkBudgets(task: RunningTask, run: RunState, underway = false): Promise<TaskRecord> | null {
    const { record } = task;
    const lastCall = record.steps.findLast((step) => step.planned?.usage)?.planned?.usage ?? null;
    const exceeded = budgetExceeded(
      { turns: turnCount(record) - (underway ? 1 : 0), usage: record.usage, lastCall, costUsd: record.costUsd, agentMs: this.now() - run.startedAt - run.waitedMs },
      task.record.maxSteps,
      task.policies,
    );
    if (!exceeded) return null;
    this.guardDecided(task, run.turn, { guard: 'budget', finding: exceeded.finding, decision: 'stop', message: exceeded.reason.text, said: exceeded.reason.said, by: 'runtime' });
    return this.finish(task, run, 'failed', exceeded.reason);
  }

  /**
   * The loop guard after an observation: warns the model (once per loop) or, when the loop goes on, asks the
   * person; ends the task when the person stops it or nobody can answer.
   */
  private async guardLoops(task: RunningTask, run: RunState, step: number): Promise<TurnEnd> {
    const loop = run.loops.check(task.policies.loop);
    if (!loop) return null;
    const { finding } = loop;
    if (loop.decision === 'warn') {
      if (loop.firstWarning) this.guardDecided(task, step, { guard: 'loop', finding: finding.kind, decision: 'warn', message: finding.description, said: finding.descriptionSaid, by: 'runtime' });
      run.notices.push(loopWarning(finding));
      return null;
    }
    this.guardDecided(task, step, { guard: 'loop', finding: finding.kind, decision: 'ask', message: finding.description, said: finding.descriptionSaid, by: 'runtime' });
    const { reply } = await run.actions.ask(step, { kind: 'loop', description: finding.description, descriptionSaid: finding.descriptionSaid });
    const ended = endFor(reply, (why) => `stopped a loop: ${finding.description}; ${why}`);
    if (ended) return this.end(task, run, ended);
    run.loops.restart();
    if (reply.kind === 'continue' && reply.note) run.notices.push(`The person saw you looping and said: ${JSON.stringify(reply.note)}`);
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
    const observeOptions = { signal, sceneTokenBudget: task.policies.sceneTokenBudget, settle: planner.accepts.settledScreen === true };
    try {
      observation = await abortable(this.options.observer.observe(serial, observeOptions), signal);
    } catch (error) {
      return this.fail(task, run, error);
    }
    const observed = (seen: ObservationLike, observeMs: number) => {
      const shot = seen.screenshot;
      const key = seen.scene ? sceneFingerprint(seen.scene) : null;
      this.emit(task, {
        type: 'step.observed',
        taskId,
        at: this.now(),
        step: turn,
        scene: seen.scene,
        sceneError: seen.sceneError ?? null,
        screenshot: shot ? { mediaType: shot.mediaType, width: shot.width, height: shot.height, bytes: shot.bytes.byteLength } : null,
        screenChanged: key !== null && run.previousScene !== null ? key !== run.previousScene : null,
        observeMs,
      });
      return key;
    };
    const sceneKey = observed(observation, performance.now() - observeStart);
    const screenChanged = sceneKey !== null && run.previousScene !== null ? sceneKey !== run.previousScene : null;
    const shot = observation.screenshot;
    run.loops.observed(sceneKey, screenChanged, task.record.steps.findLast((s) => s.outcome)?.step === turn - 1);
    run.previousScene = sceneKey ?? run.previousScene;
    let settled;
    try {
      settled = await run.actions.settle(observation.scene, screenChanged);
    } catch (error) {
      return this.fail(task, run, error);
    }
    // The last action led out of the allowed apps and Back left it: the next turn observes where Back led.
    if (settled.notice) {
      run.notices.push(settled.notice);
      return null;
    }

    const loopEnd = await this.guardLoops(task, run, turn);
    if (loopEnd) return loopEnd;
    if (signal.aborted) return this.finish(task, run, 'cancelled', stopReasonOf(signal));
    // Time may have run out while observing or waiting for the person.
    const late = this.checkBudgets(task, run, true);
    if (late) return late;

    // Plan: the screenshot and the history go only to a planner that declares it accepts them (D8).
    const appNotes = await notesFor(observation.scene, goal, this.learning(task));
    const input: PlanInput = {
      goal,
      step: turn,
      scene: observation.scene,
      sceneError: observation.sceneError ?? null,
      ...(planner.accepts.screenshot && shot ? { screenshot: shot } : {}),
      ...(planner.accepts.history ? { history: turnsOf(task.record) } : {}),
      ...(task.policies.standingInstructions ? { standingInstructions: task.policies.standingInstructions } : {}),
      ...(task.allowedApps ? { allowedApps: task.allowedApps } : {}),
      ...(run.notices.length ? { notices: run.notices.splice(0) } : {}),
      ...(planner.accepts.settledScreen && observation.settled && { screenSettled: true }),
      ...(appNotes && { appNotes }),
    };
    const planStart = performance.now();
    // A planner that waits for the screen looks again within the turn; the turn then acts on the latest look.
    const lookAgain = async (until: number): Promise<Scene | null> => {
      const fresh = await nextDifferentLook(this.options.observer, this.now, serial, observation, until, observeOptions);
      if (!fresh) return null;
      observation = fresh.observation;
      run.previousScene = observed(fresh.observation, fresh.observeMs) ?? run.previousScene;
      return fresh.observation.scene;
    };
    let decision: Decision;
    try {
      decision = await abortable(planner.plan(input, { signal, lookAgain }), signal);
    } catch (error) {
      return this.fail(task, run, error);
    }
    if (decision.call) {
      // The record sums usage and cost; the runner only prices the call.
      const { call } = decision;
      const costUsd = call.usage && task.policies.price ? costOf(call.usage, task.policies.price) : null;
      this.emit(task, { type: 'step.planned', taskId, at: this.now(), step: turn, ...call, costUsd, planMs: performance.now() - planStart });
    }
    if (decision.kind === 'fail') return this.finish(task, run, 'failed', decision.said ? { text: decision.reason, said: decision.said } : decision.reason);
    if (decision.kind === 'finish') {
      if (decision.success) return this.complete(task, run, turn, decision);
      return this.finish(task, run, 'failed', decision.reason);
    }
    const step = decision.call;
    if (step.source === 'skipped') return this.skip(run, turn, step);
    if (step.tool === ASK_USER || step.tool === HAND_OVER) return this.personTool(task, run, turn, step);
    return this.act(task, run, turn, step, observation.scene);
  }

  /** A flow step whose outcome already holds ("Wi-Fi is already on"): recorded as done, and nothing reaches the phone. */
  private skip(run: RunState, turn: number, step: PlannedStep): TurnEnd {
    run.actions.record(turn, step, { ok: true, attempts: 0, durationMs: 0 }, 0);
    return null;
  }

  /**
   * The planner says the goal is reached. A model's success claim when nothing was done completes the task
   * marked "not verified" (the runtime cannot confirm it), and the guard's decision is an event.
   */
  private complete(task: RunningTask, run: RunState, turn: number, decision: Extract<Decision, { kind: 'finish'; success: true }>): Promise<TaskRecord> {
    const result = decision.reason;
    // A claim a planner made (a model's finish_task, a flow's end) is checked; a planner without one (the stub) claims nothing.
    const against = decision.call ? claimVerification(task.record, result) : null;
    if (!against) return this.finish(task, run, 'completed', null, result);
    const noAction = against.check === 'action-taken';
    const message = noAction ? say('guard.successWithoutAction', { factCode: 'verify.noAction' }) : say('guard.claimNotVerified', { fact: against.fact });
    const finding = noAction ? 'no-action-taken' : 'claim-not-verified';
    this.guardDecided(task, turn, { guard: 'completion', finding, decision: 'allow', message: message.text, said: message.said, by: 'runtime' });
    return this.finish(task, run, 'completed', null, result, against);
  }

  /**
   * What the loop guard remembers of a recorded turn. A step a person wrote (a flow's, replayed or skipped) is not the
   * model's doing: three written `wait` steps in a row are not a loop, and the watch starts afresh after one.
   */
  private guard(run: RunState, step: PlannedStep, outcome: StepOutcome): void {
    if (step.source === 'replayed' || step.source === 'skipped') {
      run.loops.restart();
      return;
    }
    const label = outcome.target?.label;
    run.loops.acted(step.tool, step.args, label, describeAction(step.tool, step.args, label, 'done'));
  }

  /** ask_user / hand_over: the model reaches the person; the reply (or note) is the turn's outcome. */
  private async personTool(task: RunningTask, run: RunState, turn: number, step: PlannedStep): Promise<TurnEnd> {
    const asking = step.tool === ASK_USER;
    const args = (asking ? AskUserArgsSchema : HandOverArgsSchema).safeParse(step.args);
    if (!args.success) {
      const outcome: StepOutcome = { ok: false, error: `Invalid arguments for ${step.tool}: ${args.error.issues.map((i) => i.message).join('; ')}.`, attempts: 0, durationMs: 0 };
      run.actions.record(turn, step, outcome, 0);
      this.guard(run, step, outcome);
      return this.countFailure(task, run, outcome);
    }
    const text = 'question' in args.data ? args.data.question : args.data.reason;
    const request: PersonRequest = asking ? { kind: 'question', question: text } : { kind: 'hand-over', reason: text };
    let reply: PersonReply;
    try {
      ({ reply } = await run.actions.ask(turn, request));
    } catch {
      return this.finish(task, run, 'cancelled', stopReasonOf(task.controller.signal));
    }
    const ended = endFor(reply, (why) => (asking ? `the model asked "${text}" and ${why}` : `the model handed the phone over ("${text}") and ${why}`));
    if (ended) return this.end(task, run, ended);
    const said = reply.kind === 'answer' ? reply.text : reply.kind === 'continue' ? reply.note : undefined;
    // The person's time to answer is not the agent acting: the turn records no act time.
    const outcome: StepOutcome = { ok: true, attempts: 0, durationMs: 0, ...(said && { fromPerson: said }) };
    run.actions.record(turn, step, outcome, 0);
    this.guard(run, step, outcome);
    run.failuresInARow = 0;
    // After a hand-over the person may have changed anything: the next observation starts afresh.
    if (!asking) run.loops.restart();
    return null;
  }

  /** Ends the task when too many actions failed in a row. */
  private countFailure(task: RunningTask, run: RunState, outcome: StepOutcome): Promise<TaskRecord> | null {
    run.failuresInARow = outcome.ok ? 0 : run.failuresInARow + 1;
    if (run.failuresInARow >= this.maxConsecutiveFailures) {
      return this.finish(task, run, 'failed', say('stop.failuresInARow', { failures: run.failuresInARow, error: outcome.error ?? 'unknown error' }));
    }
    return null;
  }

  /** An action for the phone, through the one supervised action; a denial is heard by the model, not counted as a failure. */
  private async act(task: RunningTask, run: RunState, turn: number, step: PlannedStep, scene: Scene | null): Promise<TurnEnd> {
    const result = await run.actions.act(turn, step, scene);
    if (result.kind === 'ended') return this.end(task, run, result);
    this.guard(run, step, result.outcome);
    return result.kind === 'denied' ? null : this.countFailure(task, run, result.outcome);
  }
}
