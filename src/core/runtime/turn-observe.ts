import { sceneFingerprint, type Scene } from '../../shared/scene';
import { abortable } from './cancellation';
import { nextDifferentLook } from './look-again';
import type { ObservationLike, ScreenshotPolicy } from './runner-ports';
import type { PlannerScreenshot } from './planner';
import { failTask } from './task-finish';
import type { TaskRun, TurnEnd } from './task-run';

/**
 * A turn's look at the phone: the observation (an exception fails the task: D7), what it tells about the last action
 * (the settle step), and, for a planner that waits for the screen, looking again within the turn.
 */

type ObserveOptions = { signal: AbortSignal; sceneTokenBudget: number; settle: boolean; screenshot: ScreenshotPolicy };

/** Decided once, for every look of the task: a screenshot only for a planner that accepts one (D8), at the policies' size. */
const screenshotFor = (task: TaskRun): ScreenshotPolicy => (task.planner.accepts.screenshot ? { longEdge: task.policies.screenshotLongEdge } : false);

/** This turn's latest look at the phone; `again` looks until the screen differs, and the turn then acts on that look. */
export class TurnLook {
  constructor(
    private readonly task: TaskRun,
    readonly turn: number,
    public observation: ObservationLike,
    private readonly options: ObserveOptions,
  ) {}

  /** The look's screenshot, when it was told to take one (only then may the planner have it). */
  get screenshot(): PlannerScreenshot | undefined {
    return this.options.screenshot ? this.observation.screenshot : undefined;
  }

  /** A fresh Scene once the screen differs from the latest look, or null when `until` (epoch ms) came first. */
  async again(until: number): Promise<Scene | null> {
    const { task } = this;
    const fresh = await nextDifferentLook(task.runner.options.observer, task.runner.now, task.record.serial, this.observation, until, this.options);
    if (!fresh) return null;
    this.observation = fresh.observation;
    task.previousScene = recordLook(task, this.turn, fresh.observation, fresh.observeMs) ?? task.previousScene;
    return fresh.observation.scene;
  }
}

/** Emits `step.observed` for one look; returns its Scene's fingerprint (null without a Scene). */
function recordLook(task: TaskRun, turn: number, seen: ObservationLike, observeMs: number): string | null {
  const shot = seen.screenshot;
  const key = seen.scene ? sceneFingerprint(seen.scene) : null;
  task.emit({
    type: 'step.observed',
    taskId: task.record.id,
    at: task.now(),
    step: turn,
    scene: seen.scene,
    sceneError: seen.sceneError ?? null,
    screenshot: shot ? { mediaType: shot.mediaType, width: shot.width, height: shot.height, bytes: shot.bytes.byteLength } : null,
    screenChanged: key !== null && task.previousScene !== null ? key !== task.previousScene : null,
    observeMs,
  });
  return key;
}

/**
 * Observes for turn `turn` and settles the last action against it: its check (`step.verified`), and, when it led out
 * of the allowed apps, this turn is the runtime's Back. The look to plan on; or how the turn ends: the task's end, or
 * null when the turn was the runtime's Back.
 */
export async function observeTurn(task: TaskRun, turn: number): Promise<{ look: TurnLook } | { end: TurnEnd }> {
  const { signal, planner } = task;
  const observeStart = performance.now();
  const options: ObserveOptions = { signal, sceneTokenBudget: task.policies.sceneTokenBudget, settle: planner.accepts.settledScreen === true, screenshot: screenshotFor(task) };
  let observation: ObservationLike;
  try {
    observation = await abortable(task.runner.options.observer.observe(task.record.serial, options), signal);
  } catch (error) {
    return { end: await failTask(task, error) };
  }
  const sceneKey = recordLook(task, turn, observation, performance.now() - observeStart);
  const screenChanged = sceneKey !== null && task.previousScene !== null ? sceneKey !== task.previousScene : null;
  // What the screen did after the loop guard's last action (the runtime's own Back is not one it watches).
  const lastWatched = task.record.steps.findLast((s) => s.outcome && s.planned?.source !== 'runtime');
  task.loops.observed(sceneKey, screenChanged, lastWatched?.step === turn - 1);
  task.previousScene = sceneKey ?? task.previousScene;
  const { leftTo } = task.actions.settle(observation.scene, screenChanged);
  if (!leftTo) return { look: new TurnLook(task, turn, observation, options) };
  // The last action led out of the allowed apps: this turn is the runtime's Back, and the next observes where it led.
  try {
    task.notices.push(await task.actions.goBack(turn, leftTo, observation.scene));
  } catch (error) {
    return { end: await failTask(task, error) };
  }
  return { end: null };
}
