import { say, type Said, type Saying } from '../../shared/said';
import type { TaskFailure } from '../../shared/task';
import { providerFailureSaid } from './provider-failure-said';

/** How a task's work stops: a person's Stop or the app closing aborts one signal, and everything waiting on it ends. */

/** The reason given to stop(), carried by the aborted signal. */
export class Cancelled extends Error {
  override name = 'Cancelled';
}

/** The reason of a person's Stop, with its code for a window in another language. */
export const STOPPED_SAYING = say('stop.byPerson');
export const STOPPED = STOPPED_SAYING.text;
/** The reason of a task the app (or the CLI, or a fleet worker) closed under: interrupted, not stopped by anyone. */
export const APP_CLOSED = say('stop.appClosed');

/** The reason given to stop(), as the aborted signal carries it. */
export function stopReasonOf(signal: AbortSignal): string {
  return signal.reason instanceof Cancelled ? signal.reason.message : STOPPED;
}

/** Rejects as soon as `signal` aborts, even if `work` ignores the signal (Stop must be prompt). */
export function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The error a task failed on, its name and its own message apart. */
export function caughtFailureOf(error: unknown): TaskFailure {
  if (error instanceof Error) return { error: error.name, message: error.message };
  return { error: 'Error', message: String(error) };
}

/** `<ErrorName>: <message>` (seed D7). */
export function failureReasonOf(error: unknown): string {
  const { error: name, message } = caughtFailureOf(error);
  return `${name}: ${message}`;
}

/** A task's failure on an exception: its D7 reason, the failure kept apart, and a message code when it has one. */
export interface CaughtFailure {
  text: string;
  failure: TaskFailure;
  said?: Said;
}

/**
 * A task's failure from an error: its D7 reason and its parts, with a message code when the error was worded by one
 * (AdbError) or is a failed model call.
 */
export function failureOf(error: unknown): CaughtFailure {
  const failure = caughtFailureOf(error);
  const said = (error instanceof Error ? (error as { said?: Said }).said : undefined) ?? providerFailureSaid(error);
  return { text: `${failure.error}: ${failure.message}`, failure, ...(said && { said }) };
}

/** How a task's failure reaches its record: the English reason, its code when the runtime worded it, the error apart. */
export type TaskEnding = string | Saying | CaughtFailure | null;

/** A task's failure reason in English for the record, with its code when the runtime worded it (a Stop included). */
export function failureFields(failure: TaskEnding): { failureReason: string | null; failureSaid?: Said; failure?: TaskFailure } {
  if (failure === null || typeof failure === 'string') {
    const known = [STOPPED_SAYING, APP_CLOSED].find((saying) => saying.text === failure);
    return { failureReason: failure, ...(known && { failureSaid: known.said }) };
  }
  const kept = 'failure' in failure ? { failure: failure.failure } : {};
  return { failureReason: failure.text, ...(failure.said && { failureSaid: failure.said }), ...kept };
}
