import { randomUUID } from 'node:crypto';
import { costOf } from '../../shared/prices';
import { issueSaidAt } from '../../shared/issue-said';
import { say, saidList, sayingOf } from '../../shared/said';
import { RunTaskRequestSchema, newTaskRecord, type RunTaskRequest, type TaskEvent, type TaskRecord } from '../../shared/task';
import { ACTION_TOOLS } from '../tools/registry';
import { plannerSourceFrom } from './build-planner';
import { abortable, APP_CLOSED, Cancelled, STOPPED } from './cancellation';
import { turnsOf } from './history';
import type { ConfiguredPlanner, Decision, PlanInput, PlannerSource } from './planner';
import { noPersonPresent, type SupervisorPort } from './supervisor';
import { DEFAULT_TASK_POLICIES } from './task-policies';
import { notesFor } from './notes/task-notes';
import type { StartOptions, TaskEventListener, TaskHandle, TaskRunnerOptions } from './runner-ports';
import { DEFAULT_MAX_CONSECUTIVE_FAILURES, TaskStartError } from './runner-ports';
import { TaskRun, type RunnerShared, type TurnEnd } from './task-run';
import { cancelTask, completeTask, failTask, finishTask } from './task-finish';
import { checkBudgets, guardLoops, holdWhilePaused } from './turn-guards';
import { observeTurn } from './turn-observe';
import { carryOut } from './turn-actions';

export type { ConfiguredPlanner, PlannerSource } from './planner';
export type { SupervisorDecision, SupervisorPort, SupervisorRequest } from './supervisor';
export { noPersonPresent, NO_PERSON_PRESENT } from './supervisor';
export type { TaskPolicies } from './task-policies';
export type { ExecutorPort } from './supervised-action';
export { failureReasonOf } from './cancellation';
export * from './runner-ports';

/** Why a task ends when the app (window, web host, CLI) is shut down under it rather than stopped by a person. */
export const APP_CLOSED_REASON = APP_CLOSED.text;

/**
 * Runs tasks: observe -> plan -> execute, re-observing every turn, until the planner finishes, a budget runs out,
 * too many actions fail in a row, a guard ends it, or the task is stopped. Before each action the sensitive-action
 * policy may ask the person; the model may ask the person (ask_user) or hand the phone over (hand_over); a loop
 * is first pointed out to the model, then put to the person. A task never stays `running`: every exception from
 * observe or plan fails it with `<ErrorName>: <message>` (seed D7). One task per device at a time; several
 * devices may run tasks at once. A turn's parts are modules beside this one: its look (turn-observe), what stands
 * between turns (turn-guards), what it does with its step (turn-actions) and how a task ends (task-finish).
 */
export class TaskRunner {
  private readonly listeners = new Set<TaskEventListener>();
  private readonly running = new Map<string, TaskRun>();
  /** Devices whose task is being set up (planner, lock): taken, though not yet in `running`. */
  private readonly starting = new Set<string>();
  private readonly now: () => number;
  private readonly newTaskId: () => string;
  private readonly plannerSource: PlannerSource;
  private readonly supervisor: SupervisorPort;
  /** What every task of this runner shares. */
  private readonly shared: RunnerShared;

  constructor(options: TaskRunnerOptions) {
    this.now = options.now ?? Date.now;
    this.newTaskId = options.newTaskId ?? randomUUID;
    this.plannerSource = options.plannerSource ?? plannerSourceFrom();
    this.supervisor = options.supervisor ?? noPersonPresent;
    this.shared = {
      options,
      tools: options.tools ?? ACTION_TOOLS,
      now: this.now,
      maxConsecutiveFailures: options.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES,
      publish: (event) => this.publish(event),
      forget: (taskId) => this.running.delete(taskId),
    };
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
      // The English stays zod's own words; the code words each issue in the reader's language.
      const text = parsed.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ');
      throw new TaskStartError({ text, said: { code: 'taskStart.invalid', values: { issuesSaid: saidList(parsed.error.issues.map(issueSaidAt)) } } });
    }
    const { serial, goal } = parsed.data;
    const busy = [...this.running.values()].find((task) => task.record.serial === serial);
    if (busy) throw new TaskStartError(say('taskStart.busy', { serial, id: busy.record.id }));
    if (this.starting.has(serial)) throw new TaskStartError(say('taskStart.starting', { serial }));
    this.starting.add(serial);
    let configured: ConfiguredPlanner;
    let hold: { release(): Promise<void> } | undefined;
    const id = this.newTaskId();
    try {
      configured = options.planner ?? (await this.plannerSource());
      hold = await this.shared.options.deviceLock?.acquire(serial, { taskId: id, goal }).catch((error: unknown) => {
        throw new TaskStartError(sayingOf(error));
      });
    } finally {
      this.starting.delete(serial);
    }
    const maxSteps = parsed.data.maxSteps ?? configured.maxSteps;
    const task = new TaskRun(this.shared, {
      record: newTaskRecord({ id, goal, serial, planner: configured.planner.info, maxSteps, createdAt: this.now(), launchId: parsed.data.launchId ?? null }),
      release: () => hold?.release() ?? Promise.resolve(),
      planner: configured.planner,
      policies: configured.policies ?? DEFAULT_TASK_POLICIES,
      supervisor: options.supervisor ?? this.supervisor,
      allowedApps: parsed.data.allowedApps ?? null,
    });
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
    if (!task || task.signal.aborted) return false;
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

  private publish(event: TaskEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener (a closed window, a full pipe) must not stop the task.
      }
    }
  }

  private async drive(task: TaskRun): Promise<TaskRecord> {
    const { id: taskId, goal, serial, maxSteps } = task.record;
    const { policies, planner } = task;
    task.startedAt = this.now();
    task.emit({
      type: 'task.started',
      taskId,
      at: task.startedAt,
      goal,
      serial,
      planner: planner.info,
      maxSteps,
      limits: { maxSteps, maxTokens: policies.maxTokens, maxCostUsd: policies.maxCostUsd, maxDurationMs: policies.maxDurationMs },
      supervision: { allowedApps: task.allowedApps ? [...task.allowedApps] : null, confirmation: policies.confirmation, standingInstructions: policies.standingInstructions },
      ...(task.record.launchId && { launchId: task.record.launchId }),
    });
    if (policies.maxCostUsd !== null && policies.price === null && planner.info.kind === 'ai') {
      const noPrice = planner.info.model ? say('budget.noPrice', { model: planner.info.model }) : say('budget.noPriceUnnamed');
      task.guardDecided(0, { guard: 'budget', finding: 'cost', decision: 'allow', message: noPrice.text, said: noPrice.said, by: 'runtime' });
    }
    try {
      for (;;) {
        const ended = await this.turn(task);
        if (ended) return ended;
      }
    } catch (error) {
      // Not expected (each phase handles its own errors), but a task must never stay `running`.
      return failTask(task, error);
    }
  }

  /** One turn: observe, the guards, plan, carry out; returns the final record when the task ended during it. */
  private async turn(task: TaskRun): Promise<TurnEnd> {
    const { id: taskId, goal } = task.record;
    const { planner, signal } = task;
    await holdWhilePaused(task);
    if (signal.aborted) return cancelTask(task);
    const overBudget = checkBudgets(task);
    if (overBudget) return overBudget;
    const turn = ++task.turn;

    const observed = await observeTurn(task, turn);
    if ('end' in observed) return observed.end;
    const { look } = observed;

    const loopEnd = await guardLoops(task, turn);
    if (loopEnd) return loopEnd;
    if (signal.aborted) return cancelTask(task);
    // Time may have run out while observing or waiting for the person.
    const late = checkBudgets(task, true);
    if (late) return late;

    // Plan: the screenshot (taken only for it) and the history go only to a planner that declares it accepts them (D8).
    const { observation, screenshot } = look;
    const appNotes = await notesFor(observation.scene, goal, task.learning());
    const input: PlanInput = {
      goal,
      step: turn,
      scene: observation.scene,
      sceneError: observation.sceneError ?? null,
      ...(screenshot && { screenshot }),
      ...(planner.accepts.history ? { history: turnsOf(task.record) } : {}),
      ...(task.policies.standingInstructions ? { standingInstructions: task.policies.standingInstructions } : {}),
      ...(task.allowedApps ? { allowedApps: task.allowedApps } : {}),
      ...(task.notices.length ? { notices: task.notices.splice(0) } : {}),
      ...(planner.accepts.settledScreen && observation.settled && { screenSettled: true }),
      ...(appNotes && { appNotes }),
    };
    const planStart = performance.now();
    let decision: Decision;
    try {
      // A planner that waits for the screen looks again within the turn; the turn then acts on the latest look.
      decision = await abortable(planner.plan(input, { signal, lookAgain: (until) => look.again(until) }), signal);
    } catch (error) {
      return failTask(task, error);
    }
    if (decision.call) {
      // The record sums usage and cost; the runner only prices the call.
      const { call } = decision;
      const costUsd = call.usage && task.policies.price ? costOf(call.usage, task.policies.price) : null;
      task.emit({ type: 'step.planned', taskId, at: this.now(), step: turn, ...call, costUsd, planMs: performance.now() - planStart });
    }
    if (decision.kind === 'fail') return finishTask(task, 'failed', decision.said ? { text: decision.reason, said: decision.said } : decision.reason, null, undefined, decision.flow);
    if (decision.kind === 'finish') return decision.success ? completeTask(task, turn, decision) : finishTask(task, 'failed', decision.reason);
    return carryOut(task, turn, decision.call, look.observation.scene);
  }
}
