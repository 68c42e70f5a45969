import { plainWords } from './plain-words';
import type { TaskFailure } from './task';

/** What a task record, a history summary or a `task.finished` event says of how a task failed. */
export interface FailureFacts {
  failureReason: string | null;
  failure?: TaskFailure;
}

/**
 * Why a task failed or stopped, in plain English words (a window words it in its own language from `failureSaid`):
 * the message of the error it failed on, else the reason as recorded (a model's, a person's, a stop's).
 */
export function failureWordsOf(task: FailureFacts): string | null {
  if (task.failure) return plainWords(task.failure.message);
  return task.failureReason === null ? null : plainWords(task.failureReason);
}

