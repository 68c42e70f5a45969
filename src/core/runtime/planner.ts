import type { Scene } from '../../shared/scene';
import type { StepOutcome } from '../../shared/action';
import type { PlannedStep, PlannerInfo } from '../../shared/task';
import type { Said } from '../../shared/said';
import type { FlowTurn } from '../../shared/flow';
import type { TaskPolicies } from './task-policies';
import type { AppNote } from '../../shared/app-notes';

/** The screenshot of the current turn, as only the AI planner may receive it (Perception Boundary). */
export interface PlannerScreenshot {
  bytes: Uint8Array;
  mediaType: 'image/png' | 'image/jpeg' | 'image/webp';
  width: number;
  height: number;
  /** Device pixels per image pixel. */
  scale: number;
}

/** One finished turn as the planner may remember it. */
export interface TurnSummary {
  step: number;
  tool: string;
  args: Record<string, unknown>;
  rationale: string | null;
  outcome: StepOutcome;
  /** Whether this turn's action changed the screen, as the next turn's look told (null when unknown). */
  screenChanged: boolean | null;
  /** The runtime's own step (Back out of an app outside the allowed apps), not the planner's. */
  byRuntime?: boolean;
}

/**
 * What the planner gets each turn. `screenshot` and `history` are present only when the planner declares
 * it accepts them (`Planner.accepts`), never by guessing.
 */
export interface PlanInput {
  goal: string;
  /** Turn number, from 1. */
  step: number;
  scene: Scene | null;
  /** Why there is no Scene this turn (the UI could not be read). */
  sceneError: string | null;
  screenshot?: PlannerScreenshot;
  history?: readonly TurnSummary[];
  /** The person's standing instructions (Settings), apart from the goal; empty or absent: none. */
  standingInstructions?: string;
  /** The apps this task may use; absent: any. */
  allowedApps?: readonly string[];
  /**
   * The Scene was read on a screen that held still (two equal screen fingerprints around the layout read); told only
   * to a planner that accepts `settledScreen`.
   */
  screenSettled?: boolean;
  /** What the runtime tells the model this turn: a loop warning, a refused success claim, the person's resume note. */
  notices?: readonly string[];
  /**
   * Notes from earlier successful runs in the app in front (most relevant first, already within the notes' token
   * budget) and how many of its notes did not fit; absent: none, or learning notes is off.
   */
  appNotes?: { app: string; notes: readonly Pick<AppNote, 'goal' | 'route'>[]; leftOut: number };
}

/**
 * A turn's one decision. `call` is the turn's plan as the record keeps it (tool, rationale, thinking, usage), present
 * whenever a call was made or a step written: `act` always; `finish` and `fail` when a model's finish_task (or a flow's
 * end) said so, null when nothing was called (the stub's end, a flow step that failed on its own).
 * - act: carry out `call` on the phone (or reach the person, for ask_user / hand_over).
 * - finish: the planner judged the goal: reached (success, the reason is the result) or impossible (the reason why).
 * - fail: the planner cannot go on (a flow's step failed, a replay with no model to take over), with the reason (and, from
 *   a flow's replay, the steps it knew the result of on this turn: `task.finished` carries them).
 * An exception from plan() is an error (a provider outage, a bug), never an outcome; a flow's replay leaves on it the
 * steps it knew the result of before it (`flow`, see `flowMarksOf`), which `task.finished` carries.
 */
export type Decision =
  | { kind: 'act'; call: PlannedStep }
  | { kind: 'finish'; success: true; reason: string | null; call: PlannedStep | null; said?: Said }
  | { kind: 'finish'; success: false; reason: string; call: PlannedStep | null }
  | { kind: 'fail'; reason: string; call: PlannedStep | null; said?: Said; flow?: FlowTurn };

export const act = (call: PlannedStep): Decision => ({ kind: 'act', call });

/** The flow marks a replay left on an error its plan() threw (the steps it knew the result of before it), if any. */
export const flowMarksOf = (error: unknown): FlowTurn | undefined => (error instanceof Error ? (error as { flow?: FlowTurn }).flow : undefined);

export interface PlanContext {
  /** Aborts the in-flight decision call (Stop). */
  signal: AbortSignal;
  /**
   * Looks at the phone again within this turn, for a planner that waits for the screen (a flow's lookup or check): the
   * fresh Scene once the screen differs from the last look (a cheap screen fingerprint is compared first, the layout is
   * read only when it changed), or null when `until` (epoch ms) came first. The turn then acts on the fresh Scene.
   */
  lookAgain?(until: number): Promise<Scene | null>;
}

/** What a planner can use beyond goal and Scene (seed D8, as an explicit declaration). */
export interface PlannerCapabilities {
  screenshot: boolean;
  /** The compact history of previous turns (this project's cross-step "world" state). */
  history: boolean;
  /**
   * Each turn's Scene read on a settled screen: the layout read between two equal screen fingerprints (read again
   * while they differ). A flow's written steps want it; a model reads a moving screen well enough and saves the time.
   */
  settledScreen?: boolean;
}

export interface Planner {
  readonly info: PlannerInfo;
  readonly accepts: PlannerCapabilities;
  /** This turn's one decision (seed D2/D3: completion only ever comes from a `finish`). */
  plan(input: PlanInput, context: PlanContext): Promise<Decision>;
}

/** The planner for one task plus the step budget and the other policies configured with it. */
export interface ConfiguredPlanner {
  planner: Planner;
  maxSteps: number;
  /** Budgets, price, confirmation mode, loop thresholds, standing instructions (default: DEFAULT_TASK_POLICIES). */
  policies?: TaskPolicies;
}

/** Chooses the planner for each new task, so settings changes apply to the next task without a restart. */
export type PlannerSource = () => Promise<ConfiguredPlanner>;
