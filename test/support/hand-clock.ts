// A scheduler's clock that the test moves by hand: no test waits for real time to pass.
import type { SchedulerClock } from '../../src/app/local-scheduler';

interface HandTimer {
  at: number;
  fire: () => void;
}

export class HandClock implements SchedulerClock {
  private readonly timers = new Set<HandTimer>();
  constructor(private at: number) {}
  now = () => this.at;
  setTimeout = (fire: () => void, ms: number) => {
    const timer = { at: this.at + ms, fire };
    this.timers.add(timer);
    // As a real timer does, one already due fires on its own, without the hand moving.
    if (ms <= 0) setImmediate(() => this.timers.delete(timer) && fire());
    return timer;
  };
  clearTimeout = (timer: unknown) => void this.timers.delete(timer as HandTimer);
  /** Moves to `at`, firing every timer due by then. */
  moveTo(at: number): void {
    this.at = at;
    for (const timer of [...this.timers].filter((each) => each.at <= at)) {
      this.timers.delete(timer);
      timer.fire();
    }
  }
  /** Timers armed and not yet fired or cleared. */
  pending = () => this.timers.size;
}
