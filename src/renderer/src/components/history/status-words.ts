import type { TaskStatus } from '../../../../shared/task';
import { OUTCOME_WORDS } from '../../../../shared/task-words';

/** The History filter's words for each stored status, taken from the one vocabulary the app, report and CLI share. */
export const STATUS_WORDS: Record<TaskStatus, string> = {
  pending: OUTCOME_WORDS.pending,
  running: OUTCOME_WORDS.running,
  completed: OUTCOME_WORDS.done,
  failed: OUTCOME_WORDS.failed,
  cancelled: OUTCOME_WORDS.stopped,
};
