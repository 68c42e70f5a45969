import type { Words } from '../../../../shared/i18n/translate';
import type { TaskStatus } from '../../../../shared/task';
import { outcomeWord, type TaskOutcomeKind } from '../../../../shared/task-words';

const OUTCOME_OF_STATUS: Record<TaskStatus, TaskOutcomeKind> = { pending: 'pending', running: 'running', completed: 'done', failed: 'failed', cancelled: 'stopped' };

/** The History filter's words for a stored status, taken from the one vocabulary the app, report and CLI share. */
export const statusWord = (status: TaskStatus, words: Words): string => outcomeWord(OUTCOME_OF_STATUS[status], words);
