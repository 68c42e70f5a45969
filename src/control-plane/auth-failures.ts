const WINDOW_MS = 60_000;
const MAX_ADDRESSES = 100_000;
/** Failures per address and window that are logged in full; after them only the blocking is. */
const LOGGED_PER_WINDOW = 5;

interface Window {
  startedAt: number;
  failures: number;
}

export type FailureLog = { log: false } | { log: true; failuresInWindow: number; blocked: boolean };

/**
 * Failed authentications per client address in one-minute windows. Past the limit the address is refused
 * without a token check until its window ends; and only the first few failures and the moment of blocking
 * are logged per window, so a flood of bad tokens cannot flood the log.
 */
export class AuthFailureGuard {
  private readonly windows = new Map<string, Window>();
  private lastSweep = 0;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Seconds until the address may try again, or 0 when it may now. */
  blockedForSeconds(address: string): number {
    const window = this.current(address, this.now());
    if (!window || window.failures < this.perMinute) return 0;
    return Math.max(1, Math.ceil((window.startedAt + WINDOW_MS - this.now()) / 1000));
  }

  recordFailure(address: string): FailureLog {
    const now = this.now();
    this.sweep(now);
    const window = this.current(address, now) ?? { startedAt: now, failures: 0 };
    window.failures += 1;
    this.windows.set(address, window);
    const blocked = window.failures === this.perMinute;
    return window.failures <= LOGGED_PER_WINDOW || blocked ? { log: true, failuresInWindow: window.failures, blocked } : { log: false };
  }

  private current(address: string, now: number): Window | undefined {
    const window = this.windows.get(address);
    return window && now - window.startedAt < WINDOW_MS ? window : undefined;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < WINDOW_MS && this.windows.size < MAX_ADDRESSES) return;
    this.lastSweep = now;
    for (const [address, window] of this.windows) if (now - window.startedAt >= WINDOW_MS) this.windows.delete(address);
    // Still full of live windows (a spread-out attack): forget the oldest rather than grow without bound.
    for (const address of this.windows.keys()) {
      if (this.windows.size < MAX_ADDRESSES) break;
      this.windows.delete(address);
    }
  }
}
