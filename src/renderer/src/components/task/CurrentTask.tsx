import { useDevicesStore } from '../../store/devices-store';
import { entryFor, useTaskStore } from '../../store/task-store';
import { TaskTimeline } from '../timeline/TaskTimeline';

/** The selected phone's running (or last) task, growing one card per turn. */
export function CurrentTask() {
  const serial = useDevicesStore((s) => s.selectedSerial);
  const task = useTaskStore(entryFor(serial))?.task;
  if (!task) {
    return (
      <p className="empty" data-testid="timeline-empty">
        Each turn of a task appears here: what the agent saw, why it acted, and what happened.
      </p>
    );
  }
  return <TaskTimeline task={task} />;
}
