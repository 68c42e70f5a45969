import { sceneFingerprint } from '../../shared/scene';
import { sleep } from '../device/errors';
import { abortable } from './cancellation';
import type { ObservationLike, ObserverPort, ScreenshotPolicy } from './runner-ports';

/** The least time between two looks of a waiting step: a phone that answers a screencap at once is not asked in a hot loop. */
const LOOK_AGAIN_PACE_MS = 100;

/**
 * The next look at the phone whose screen differs from `last` (by the cheap fingerprint when the observer has one,
 * else by the Scene), or null once `until` passed. Looks are at least LOOK_AGAIN_PACE_MS apart.
 */
export async function nextDifferentLook(
  observer: ObserverPort,
  now: () => number,
  serial: string,
  last: ObservationLike,
  until: number,
  options: { signal: AbortSignal; sceneTokenBudget?: number; settle: boolean; screenshot: ScreenshotPolicy },
): Promise<{ observation: ObservationLike; observeMs: number } | null> {
  let lastPrint = last.fingerprint;
  const lastScene = last.scene ? sceneFingerprint(last.scene) : null;
  while (now() < until) {
    const started = performance.now();
    const print = observer.screenFingerprint
      ? await abortable(observer.screenFingerprint(serial, options.signal), options.signal).catch((error: unknown) => {
          if (options.signal.aborted) throw error;
          return undefined;
        })
      : undefined;
    if (print === undefined || print !== lastPrint) {
      lastPrint = print;
      const observeStart = performance.now();
      const observation = await abortable(observer.observe(serial, options), options.signal);
      lastPrint = observation.fingerprint ?? print;
      const key = observation.scene ? sceneFingerprint(observation.scene) : null;
      if (key !== null && key !== lastScene) return { observation, observeMs: performance.now() - observeStart };
    }
    const rest = LOOK_AGAIN_PACE_MS - (performance.now() - started);
    if (rest > 0) await sleep(rest, options.signal);
  }
  return null;
}
