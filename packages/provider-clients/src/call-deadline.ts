/**
 * One decision call's budget: a single AbortSignal that fires when the caller cancels or when the per-call
 * timeout elapses, remembering which of the two happened so the failure can say so.
 */
export interface CallDeadline {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  timedOut(): boolean;
  cancelled(): boolean;
  dispose(): void;
}

export function startCallDeadline(timeoutMs: number, outer?: AbortSignal): CallDeadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  return {
    signal: controller.signal,
    timeoutMs,
    timedOut: () => timedOut,
    cancelled: () => !timedOut && (outer?.aborted ?? false),
    dispose() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    },
  };
}
