/** Latency profiles: `instant` adds nothing; `realistic` waits roughly as long as a real phone does. */

export type LatencyProfileName = 'instant' | 'realistic';
export type LatencyKind = 'screencap' | 'dump' | 'input' | 'command';

const REALISTIC_MS: Record<LatencyKind, number> = { screencap: 400, dump: 1500, input: 150, command: 15 };
const JITTER = 0.25;

/** Milliseconds to wait for one operation; `random` is injectable so tests can pin the jitter. */
export function latencyMs(profile: LatencyProfileName, kind: LatencyKind, random: () => number = Math.random): number {
  if (profile === 'instant') return 0;
  const base = REALISTIC_MS[kind];
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** How the screen's video is paced: how often the screen is looked at, and whether an unchanged screen still sends a frame. */
export interface FramePacing {
  intervalMs: number;
  everyInterval: boolean;
}

/**
 * `realistic`: 60 frames a second, changed or not, as a phone's display pipeline feeds its encoder. `instant`:
 * the screen is looked at 120 times a second and a frame goes out only when it changed.
 */
export function framePacing(profile: LatencyProfileName): FramePacing {
  return profile === 'realistic' ? { intervalMs: 1000 / 60, everyInterval: true } : { intervalMs: 1000 / 120, everyInterval: false };
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it is aborted. */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Never resolves; rejects with the signal's reason when aborted (the `hang` fault). */
export function waitForAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
