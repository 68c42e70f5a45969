const WINDOW_MS = 60_000;
const MAX_KEYS = 100_000;
/** Failures per address and window that are logged in full; after them only the blocking is. */
const LOGGED_PER_WINDOW = 5;

interface Window {
  startedAt: number;
  failures: number;
}

export type FailureLog = { log: false } | { log: true; failuresInWindow: number; blocked: boolean };

/**
 * Failed authentications in one-minute windows, counted per key: a client address and, separately, a token id
 * that was tried with a wrong secret. Past the limit a key's further failures are answered 429 until its window
 * ends (a valid token is checked first and never refused here); and only the first few failures and the moment
 * of blocking are logged per window, so a flood of bad tokens cannot flood the log.
 */
export class AuthFailureGuard {
  private readonly windows = new Map<string, Window>();
  private lastSweep = 0;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Seconds until the key's failures are answered 401 again, or 0 when they are now. */
  blockedForSeconds(key: string): number {
    const window = this.current(key, this.now());
    if (!window || window.failures < this.perMinute) return 0;
    return Math.max(1, Math.ceil((window.startedAt + WINDOW_MS - this.now()) / 1000));
  }

  recordFailure(key: string): FailureLog {
    const now = this.now();
    this.sweep(now);
    const window = this.current(key, now) ?? { startedAt: now, failures: 0 };
    window.failures += 1;
    this.windows.set(key, window);
    const blocked = window.failures === this.perMinute;
    return window.failures <= LOGGED_PER_WINDOW || blocked ? { log: true, failuresInWindow: window.failures, blocked } : { log: false };
  }

  private current(key: string, now: number): Window | undefined {
    const window = this.windows.get(key);
    return window && now - window.startedAt < WINDOW_MS ? window : undefined;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < WINDOW_MS && this.windows.size < MAX_KEYS) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (now - window.startedAt >= WINDOW_MS) this.windows.delete(key);
    // Still full of live windows (a spread-out attack): forget the oldest rather than grow without bound.
    for (const key of this.windows.keys()) {
      if (this.windows.size < MAX_KEYS) break;
      this.windows.delete(key);
    }
  }
}

/** The guard's key for a client address. */
export const addressKey = (address: string): string => `address ${address}`;
/** The guard's key for a token id tried with a wrong secret (or revoked). */
export const tokenIdKey = (tokenId: string): string => `token ${tokenId}`;
