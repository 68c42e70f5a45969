import { applyTaskEvent, type TaskEvent, type TaskEventOf, type TaskRecord } from '../../shared/task';
import type { ToolCatalog } from '../tools/tool';
import { LoopWatch } from './loop-guard';
import type { Planner } from './planner';
import type { TaskRunnerOptions } from './runner-ports';
import { SupervisedActions } from './supervised-action';
import type { SupervisorPort } from './supervisor';
import type { TaskPolicies } from './task-policies';
import type { TaskLearning } from './notes/task-notes';

/** What a turn that ends the task returns: its final record; null when the task goes on. */
export type TurnEnd = TaskRecord | null;

/** What every task of one runner shares: its ports, its clock, and how it tells listeners and lets a task go. */
export interface RunnerShared {
  readonly options: TaskRunnerOptions;
  readonly tools: ToolCatalog;
  readonly now: () => number;
  readonly maxConsecutiveFailures: number;
  /** Hands an event to every listener (the record has taken it already). */
  publish(event: TaskEvent): void;
  /** The task has ended: its phone may take the next one. */
  forget(taskId: string): void;
}

/** A task as it starts: its first record, its planner and policies, its way to a person and its scope. */
export interface TaskSetup {
  record: TaskRecord;
  planner: Planner;
  policies: TaskPolicies;
  supervisor: SupervisorPort;
  allowedApps: readonly string[] | null;
  release: () => Promise<void>;
}

/**
 * One running task: its record (folded from the events it emits), its controls (Stop, Pause, Resume) and what its
 * turns keep between them (history, totals and counts are read from the record). The runner's turn modules share it.
 */
export class TaskRun {
  record: TaskRecord;
  readonly controller = new AbortController();
  paused = false;
  wake: (() => void) | null = null;
  /** The note given with the last resume, until the next `task.resumed` carries it. */
  resumeNote: string | undefined;
  readonly planner: Planner;
  readonly policies: TaskPolicies;
  readonly supervisor: SupervisorPort;
  readonly allowedApps: readonly string[] | null;
  readonly release: () => Promise<void>;
  startedAt = 0;
  /** Time spent waiting for a person or paused: not the agent's time. */
  waitedMs = 0;
  turn = 0;
  failuresInARow = 0;
  /** The previous look's Scene fingerprint (clock and battery aside), to tell what an action changed. */
  previousScene: string | null = null;
  readonly loops = new LoopWatch();
  /** What the runtime tells the model next turn. */
  notices: string[] = [];
  /** This task's one way to act on the phone. */
  readonly actions: SupervisedActions;

  constructor(
    readonly runner: RunnerShared,
    setup: TaskSetup,
  ) {
    this.record = setup.record;
    this.planner = setup.planner;
    this.policies = setup.policies;
    this.supervisor = setup.supervisor;
    this.allowedApps = setup.allowedApps;
    this.release = setup.release;
    this.actions = new SupervisedActions(
      { executor: runner.options.executor, tools: runner.tools },
      {
        taskId: setup.record.id,
        serial: setup.record.serial,
        signal: this.controller.signal,
        supervisor: setup.supervisor,
        allowedApps: setup.allowedApps,
        confirmation: () => setup.policies.confirmation,
        emit: (event) => this.emit(event),
        now: runner.now,
        waited: (ms) => (this.waitedMs += ms),
      },
    );
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  now(): number {
    return this.runner.now();
  }

  emit(event: TaskEvent): void {
    this.record = applyTaskEvent(this.record, event);
    this.runner.publish(event);
  }

  guardDecided(step: number, decided: Omit<TaskEventOf<'guard.decided'>, 'type' | 'taskId' | 'at' | 'step'>): void {
    this.emit({ type: 'guard.decided', taskId: this.record.id, at: this.now(), step, ...decided });
  }

  /** Where a completed task teaches its notes and the plan cache. */
  learning(): TaskLearning {
    const { appNotes, planCache } = this.runner.options;
    return { appNotes, planCache, notesOn: this.policies.appNotes };
  }
}
