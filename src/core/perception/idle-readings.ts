import { isAbortError } from '../device/errors';
import type { Observer, ReadingSource, ScreenReading } from './observer';

export interface IdleReadingsOptions {
  /** How often an idle phone's screen is looked at when it just changed; it backs off to `slowestMs` while it stays the same. */
  intervalMs?: number;
  slowestMs?: number;
  /** Whether nobody else drives the phone (a task of another process): only then is it read. */
  isFree?(serial: string): Promise<boolean>;
}

const INTERVAL_MS = 2_000;
const SLOWEST_MS = 6_000;
const BACK_OFF = 1.5;
/** Status-bar clocks turn at the minute: the screen is looked at just after, not up to `slowestMs` later. */
const AFTER_MINUTE_MS = 300;

function untilNextMinuteMs(): number {
  return 60_000 - (Date.now() % 60_000) + AFTER_MINUTE_MS;
}

interface Watched {
  reading?: ScreenReading;
  /** Tasks running on the phone (more than one only briefly, as one ends and the next starts). */
  holds: number;
  /** Cuts the read under way short when a task takes the phone. */
  underWay?: { abort: AbortController; done: Promise<void> };
  waitMs: number;
  /** Starts the loop's wait over, `ms` from now (a task let go of the phone). */
  rearm?: (ms: number) => void;
}

/**
 * Reads the phones of a host that waits for tasks (a fleet worker) while they are idle, so that a task's first turn
 * finds the screen's layout already read (ReadingSource) and waits only for a screenshot. An idle phone costs one
 * screencap every 2-6 s, and a layout dump only when its screen changed; a phone a task holds is not touched.
 */
export class IdleReadings implements ReadingSource {
  private readonly phones = new Map<string, Watched>();
  private readonly closing = new AbortController();
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly observer: Pick<Observer, 'screenFingerprint' | 'readAhead'>,
    private readonly options: IdleReadingsOptions = {},
  ) {}

  /** Starts watching `serials`. */
  watch(serials: readonly string[]): void {
    for (const serial of serials) {
      if (this.phones.has(serial)) continue;
      this.phones.set(serial, { holds: 0, waitMs: this.intervalMs });
      this.loops.push(this.loop(serial));
    }
  }

  take(serial: string): ScreenReading | undefined {
    const phone = this.phones.get(serial);
    const reading = phone?.reading;
    if (phone) delete phone.reading;
    return reading;
  }

  /**
   * Stops reading `serial` until the returned release is called: a task is about to drive it. A read under way is cut
   * short and waited for, so the task's first look at the phone does not share it with one of ours.
   */
  async hold(serial: string): Promise<() => void> {
    const phone = this.phones.get(serial);
    if (!phone) return () => undefined;
    phone.holds += 1;
    const under = phone.underWay;
    if (under) {
      under.abort.abort();
      await under.done;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      phone.holds -= 1;
      // The task changed the screen: look again soon, but not at once, when the next job may already be on its way.
      phone.waitMs = this.intervalMs;
      phone.rearm?.(this.intervalMs);
    };
  }

  async close(): Promise<void> {
    this.closing.abort();
    await Promise.all(this.loops);
  }

  private get intervalMs(): number {
    return this.options.intervalMs ?? INTERVAL_MS;
  }

  private async loop(serial: string): Promise<void> {
    const phone = this.phones.get(serial)!;
    while (!this.closing.signal.aborted) {
      await this.pause(phone);
      if (this.closing.signal.aborted) return;
      if (phone.holds > 0) continue;
      const abort = new AbortController();
      const done = this.look(serial, phone, abort.signal);
      phone.underWay = { abort, done };
      const stop = () => abort.abort();
      this.closing.signal.addEventListener('abort', stop, { once: true });
      await done;
      this.closing.signal.removeEventListener('abort', stop);
      delete phone.underWay;
    }
  }

  /** Waits the phone's wait (or as rearmed meanwhile), ending early on close. */
  private pause(phone: Watched): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.closing.signal.removeEventListener('abort', done);
        delete phone.rearm;
        resolve();
      };
      let timer = setTimeout(done, Math.min(phone.waitMs, untilNextMinuteMs()));
      this.closing.signal.addEventListener('abort', done, { once: true });
      phone.rearm = (ms) => {
        clearTimeout(timer);
        timer = setTimeout(done, ms);
      };
    });
  }

  /** One look: a screencap; when the screen is not the one already read, a new reading. Never rejects. */
  private async look(serial: string, phone: Watched, signal: AbortSignal): Promise<void> {
    try {
      if (this.options.isFree && !(await this.options.isFree(serial))) {
        delete phone.reading;
        return;
      }
      const now = await this.observer.screenFingerprint(serial, signal);
      if (phone.reading?.fingerprint === now) {
        phone.waitMs = Math.min(phone.waitMs * BACK_OFF, this.options.slowestMs ?? SLOWEST_MS);
        return;
      }
      const reading = await this.observer.readAhead(serial, signal);
      if (signal.aborted || phone.holds > 0) return;
      if (reading) phone.reading = reading;
      else delete phone.reading;
      phone.waitMs = this.intervalMs;
    } catch (error) {
      // Cut short by a task: it reads the phone itself. A phone gone or busy is looked at again later.
      if (isAbortError(error)) return;
      delete phone.reading;
      phone.waitMs = this.options.slowestMs ?? SLOWEST_MS;
    }
  }
}
