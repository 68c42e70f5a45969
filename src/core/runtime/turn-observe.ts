import { sceneFingerprint, type Scene } from '../../shared/scene';
import { abortable } from './cancellation';
import { nextDifferentLook } from './look-again';
import type { ObservationLike } from './runner-ports';
import { failTask } from './task-finish';
import type { TaskRun, TurnEnd } from './task-run';

/**
 * A turn's look at the phone: the observation (an exception fails the task: D7), what it tells about the last action
 * (the settle step), and, for a planner that waits for the screen, looking again within the turn.
 */

type ObserveOptions = { signal: AbortSignal; sceneTokenBudget: number; settle: boolean };

/** This turn's latest look at the phone; `again` looks until the screen differs, and the turn then acts on that look. */
export class TurnLook {
  constructor(
    private readonly task: TaskRun,
    readonly turn: number,
    public observation: ObservationLike,
    private readonly options: ObserveOptions,
  ) {}

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
 * Observes for turn `turn` and settles the last action against it: its check (`step.verified`), and Back when it
 * led out of the allowed apps. The look to plan on; or how the turn ends: the task's end, or null when the settle
 * step went back and the next turn observes where Back led.
 */
export async function observeTurn(task: TaskRun, turn: number): Promise<{ look: TurnLook } | { end: TurnEnd }> {
  const { signal, planner } = task;
  const observeStart = performance.now();
  const options: ObserveOptions = { signal, sceneTokenBudget: task.policies.sceneTokenBudget, settle: planner.accepts.settledScreen === true };
  let observation: ObservationLike;
  try {
    observation = await abortable(task.runner.options.observer.observe(task.record.serial, options), signal);
  } catch (error) {
    return { end: await failTask(task, error) };
  }
  const sceneKey = recordLook(task, turn, observation, performance.now() - observeStart);
  const screenChanged = sceneKey !== null && task.previousScene !== null ? sceneKey !== task.previousScene : null;
  task.loops.observed(sceneKey, screenChanged, task.record.steps.findLast((s) => s.outcome)?.step === turn - 1);
  task.previousScene = sceneKey ?? task.previousScene;
  let settled;
  try {
    settled = await task.actions.settle(observation.scene, screenChanged);
  } catch (error) {
    return { end: await failTask(task, error) };
  }
  // The last action led out of the allowed apps and Back left it: the next turn observes where Back led.
  if (settled.notice) {
    task.notices.push(settled.notice);
    return { end: null };
  }
  return { look: new TurnLook(task, turn, observation, options) };
}
