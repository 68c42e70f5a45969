import type { Said, Saying } from '../../shared/said';
import type { Scene } from '../../shared/scene';
import type { TaskEvent, TaskRecord } from '../../shared/task';
import type { ToolCatalog } from '../tools/tool';
import type { ConfiguredPlanner, PlannerScreenshot, PlannerSource } from './planner';
import type { ExecutorPort } from './supervised-action';
import type { SupervisorPort } from './supervisor';
import type { AppNotesPort } from './notes/app-notes-port';
import type { PlanCachePort } from './plan-cache-port';

/** What the TaskRunner is given (its ports and options) and what it hands back (a task's handle, its events). */

/** What the runner needs from perception: one look at the phone. */
export interface ObservationLike {
  scene: Scene | null;
  sceneError?: string;
  /** Taken only when the look was told to (for a planner that accepts it); never stored or emitted. */
  screenshot?: PlannerScreenshot;
  /** The screen's cheap fingerprint when the layout was read on it (see `screenFingerprint`). */
  fingerprint?: string;
  /** The layout was read on a screen that held still (equal fingerprints around the read). */
  settled?: boolean;
}

/** A look's screenshot: of this size (its long edge in pixels) for a planner that takes one, or none. */
export type ScreenshotPolicy = { longEdge: number } | false;

export interface ObserverPort {
  /** `screenshot`: whether this look takes one, and how big (the runner decides it from the planner, once per task). */
  observe(serial: string, options: { signal?: AbortSignal; sceneTokenBudget?: number; settle?: boolean; screenshot: ScreenshotPolicy }): Promise<ObservationLike>;
  /** What the screen shows now as a short string (one screencap, hashed): cheaper than a layout read; absent: unknown. */
  screenFingerprint?(serial: string, signal?: AbortSignal): Promise<string>;
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
  /** Notes per app: learned from completed tasks, given to the planner (when the task's policies say so); absent: none. */
  appNotes?: AppNotesPort;
  /** The plan cache, offered every completed task (it decides what teaches it); absent: this runner's tasks teach it nothing. */
  planCache?: PlanCachePort;
}

/** A task that could not start (bad request, device busy). Nothing ran. */
export class TaskStartError extends Error {
  override name = 'TaskStartError';
  /** The refusal's code, when the runtime worded it, for a reader in another language. */
  readonly said?: Said;
  constructor(reason: string | Saying) {
    super(typeof reason === 'string' ? reason : reason.text);
    if (typeof reason !== 'string') this.said = reason.said;
  }
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
