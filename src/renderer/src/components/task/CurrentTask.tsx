import { useTaskStore } from '../../store/task-store';
import { TaskTimeline } from '../timeline/TaskTimeline';

/** The running (or last) task's timeline, growing one card per turn. */
export function CurrentTask() {
  const task = useTaskStore((s) => s.task);
  if (!task) {
    return (
      <p className="empty" data-testid="timeline-empty">
        Each turn of a task appears here: what the agent saw, why it acted, and what happened.
      </p>
    );
  }
  return <TaskTimeline task={task} />;
}
