import type { TaskRecord } from '../../../../shared/task';
import { SupervisionLog } from './SupervisionLog';
import { VerificationBadge } from './VerificationBadge';

/** Below a task's timeline, live and in History: whether its success was verified, and its supervision log. */
export function TaskSupervision({ task }: { task: TaskRecord }) {
  return (
    <>
      {task.status === 'completed' && <VerificationBadge verification={task.verification} />}
      <SupervisionLog task={task} />
    </>
  );
}
