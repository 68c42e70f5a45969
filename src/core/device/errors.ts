import type { Said, Saying } from '../../shared/said';

/** Why an adb operation failed, in categories the callers act on (retry, tell the person, give up). */
export type AdbErrorKind =
  /** The `adb` binary is not installed (or not at the configured path). */
  | 'adb-missing'
  /** No adb server answers at the configured address. */
  | 'server-unreachable'
  /** The server does not know the serial (unplugged, disconnected, or a typo). */
  | 'device-not-found'
  | 'device-offline'
  | 'device-unauthorized'
  /** The phone's connection ended while a command was running: it may or may not have taken effect. */
  | 'connection-dropped'
  /** The command ran and reported a failure. */
  | 'command-failed'
  | 'timeout'
  /** This adb binary lacks a feature (e.g. `adb pair` before platform-tools 30). */
  | 'unsupported';

/** Kinds where the command certainly did not reach the phone and a later attempt may succeed. */
const retryableKinds: ReadonlySet<AdbErrorKind> = new Set(['device-not-found', 'device-offline', 'server-unreachable']);

export class AdbError extends Error {
  override name = 'AdbError';
  /** The message's code, when it was worded by code (for a window in another language). */
  readonly said: Said | undefined;
  constructor(
    message: string | Saying,
    readonly kind: AdbErrorKind,
    options?: { cause?: unknown },
  ) {
    super(typeof message === 'string' ? message : message.text, options);
    this.said = typeof message === 'string' ? undefined : message.said;
  }

  /** True when retrying cannot repeat an action (nothing was sent) and the failure may be temporary. */
  get retryable(): boolean {
    return retryableKinds.has(this.kind);
  }
}

/**
 * Failures that say the phone cannot be reached at all (gone, offline, not authorised, no adb server): an observation
 * fails with them instead of reporting an unreadable screen (a task on a vanished phone ends at once rather than
 * planning blind), and what was known of the phone is dropped, as it may come back changed.
 */
const unreachableKinds: ReadonlySet<AdbErrorKind> = new Set(['device-not-found', 'device-offline', 'device-unauthorized', 'server-unreachable', 'adb-missing']);

export function isPhoneUnreachable(error: unknown): boolean {
  return error instanceof AdbError && unreachableKinds.has(error.kind);
}

/** Thrown when the caller's AbortSignal fired: the stream was closed and nothing further is sent. */
export class AbortError extends Error {
  override name = 'AbortError';
  constructor(message = 'The operation was cancelled') {
    super(message);
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** Rejects with AbortError when the signal has already fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError();
}

/** A promise for `ms` milliseconds that rejects with AbortError as soon as the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
