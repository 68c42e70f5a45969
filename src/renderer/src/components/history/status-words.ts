import type { TaskStatus } from '../../../../shared/task';

export const STATUS_WORDS: Record<TaskStatus, string> = { pending: 'pending', running: 'running', completed: 'done', failed: 'failed', cancelled: 'stopped' };
