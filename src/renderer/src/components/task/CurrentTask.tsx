import type { KeyboardEvent } from 'react';
import { useWords } from '../../i18n/use-words';
import { nameOfSerial, useDevicesStore } from '../../store/devices-store';
import { isRunning } from '../../store/task-store';
import { PendingRequestPanel } from '../supervision/PendingRequestPanel';
import { ResumeNote } from '../supervision/ResumeNote';
import { TaskSupervision } from '../supervision/TaskSupervision';
import { UsageMeter } from '../supervision/UsageMeter';
import { TaskTimeline } from '../timeline/TaskTimeline';
import { isTypingTarget } from './ShortcutsHelp';
import { useShownTask } from './use-shown-task';
import { useTaskControls } from './use-task-controls';

/** Space pauses or resumes while the timeline has the focus (not on a button or field, where Space is theirs). */
function useSpaceToPause() {
  const { togglePause, running } = useTaskControls();
  return (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== ' ' || !running || isTypingTarget(event.target)) return;
    const target = event.target as HTMLElement;
    if (target.closest('button, a, summary')) return;
    event.preventDefault();
    togglePause();
  };
}

/** The selected phone's running (or last) task, growing one card per turn; kept on screen if its phone vanishes. */
export function CurrentTask() {
  const { entry, phoneGone } = useShownTask();
  const phone = useDevicesStore((s) => (entry ? nameOfSerial(s, entry.task.serial) : ''));
  const onKeyDown = useSpaceToPause();
  const { t } = useWords();
  if (!entry) {
    return (
      <p className="empty" data-testid="timeline-empty">
        {t('app:task.empty')}
      </p>
    );
  }
  return (
    <div className="current-task" onKeyDown={onKeyDown}>
      {phoneGone && (
        <p className="banner warning" role="status" data-testid="phone-gone">
          {t('app:task.phoneGone', { phone })}
        </p>
      )}
      <UsageMeter task={entry.task} />
      <TaskTimeline task={entry.task} after={<TaskSupervision task={entry.task} />} />
      <PendingRequestPanel task={entry.task} />
      {entry.paused && isRunning(entry.task) && <ResumeNote taskId={entry.task.id} />}
    </div>
  );
}
