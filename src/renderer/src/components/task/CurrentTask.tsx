import { isRunning } from '../../store/task-store';
import { PendingRequestPanel } from '../supervision/PendingRequestPanel';
import { ResumeNote } from '../supervision/ResumeNote';
import { TaskSupervision } from '../supervision/TaskSupervision';
import { UsageMeter } from '../supervision/UsageMeter';
import { TaskTimeline } from '../timeline/TaskTimeline';
import { useShownTask } from './use-shown-task';

/** The selected phone's running (or last) task, growing one card per turn; kept on screen if its phone vanishes. */
export function CurrentTask() {
  const { entry, phoneGone } = useShownTask();
  if (!entry) {
    return (
      <p className="empty" data-testid="timeline-empty">
        Each turn of a task appears here: what the agent saw, why it acted, and what happened.
      </p>
    );
  }
  return (
    <>
      {phoneGone && (
        <p className="banner warning" role="status" data-testid="phone-gone">
          The phone {entry.task.serial} is no longer connected. Connect it again to go on using it.
        </p>
      )}
      <UsageMeter task={entry.task} />
      <TaskTimeline task={entry.task} />
      <PendingRequestPanel task={entry.task} />
      {entry.paused && isRunning(entry.task) && <ResumeNote taskId={entry.task.id} />}
      <TaskSupervision task={entry.task} />
    </>
  );
}
