import type { Scene } from '../../shared/scene';
import type { Saying } from '../../shared/said';
import type { PlanContext } from '../runtime/planner';

/**
 * A replay's look at the screen within one turn: the latest Scene, whether it is known to have held still, and the
 * waits for it to show what a step needs or to stop changing. Never a fixed sleep: the runner looks again (a cheap
 * fingerprint, a layout read only when it changed).
 */
export class ScreenWatch {
  /** This turn's latest look at the screen (a waiting step may have looked again). */
  scene: Scene | null = null;
  /** Whether `scene` is known to show a screen that held still: read settled, or a wait since found it unchanged. */
  settled = false;

  /** `waits`: whether a lookup or a check looks again while it misses (a replay's do; the plan cache's do not). */
  constructor(private readonly waits: boolean) {}

  /** A new turn's Scene. */
  saw(scene: Scene, settled: boolean): void {
    this.scene = scene;
    this.settled = settled;
  }

  /**
   * Judges the turn's screen with `look`, and while it misses, the next screen that differs from it, until `timeoutMs`
   * has passed.
   */
  async waitFor<T>(look: (scene: Scene) => { found: T } | { missing: Saying; wait?: boolean }, timeoutMs: number, context: PlanContext): Promise<{ found: T } | { missing: Saying; waitedMs: number }> {
    const started = Date.now();
    const until = started + timeoutMs;
    for (;;) {
      const seen = look(this.scene!);
      if ('found' in seen) return seen;
      const waits = this.waits && context.lookAgain && seen.wait !== false;
      const fresh = waits ? await context.lookAgain!(until) : null;
      if (!fresh) return { missing: seen.missing, waitedMs: waits ? Date.now() - started : 0 };
      this.scene = fresh;
      this.settled = false;
    }
  }

  /**
   * Looks again until the screen stays the same for one look (two equal reads) or `timeoutMs` passed; the time it took.
   * A screen this turn already saw hold still (its read settled, or an earlier wait) needs no look: Maestro's
   * waitForAnimationToEnd polls for the same two equal screenshots.
   */
  async settle(timeoutMs: number, context: PlanContext): Promise<number> {
    const started = Date.now();
    const until = started + timeoutMs;
    while (!this.settled && context.lookAgain && Date.now() < until) {
      const changed = await context.lookAgain(Math.min(until, Date.now() + 1));
      if (!changed) {
        this.settled = true;
        break;
      }
      this.scene = changed;
    }
    return Date.now() - started;
  }
}
