import { screenChangedByAction, type TaskRecord } from '../../../../shared/task';
import { PlannerLabel } from './PlannerLabel';
import { StepCard } from './StepCard';
import { TaskResultCard } from './TaskResultCard';

/** A task's turns in order, newest last, closed by its result: the same view for a live task and for history. */
export function TaskTimeline({ task }: { task: TaskRecord }) {
  const running = task.status === 'running' || task.status === 'pending';
  return (
    <div className="task-timeline" data-testid="task-timeline" data-task-id={task.id}>
      <p className="task-goal">
        <span className="muted">Goal:</span> {task.goal} <span className="muted">· on {task.serial} · </span>
        <PlannerLabel planner={task.planner} />
      </p>
      <ol className="step-list" aria-label="Steps">
        {task.steps.map((step, index) => (
          <li key={step.step}>
            <StepCard
              step={step}
              planner={task.planner}
              running={running}
              changedScreen={screenChangedByAction(task, step.step)}
              endedHere={index === task.steps.length - 1 && (task.status === 'failed' || task.status === 'cancelled') ? task.status : null}
            />
          </li>
        ))}
      </ol>
      {running && task.steps.length === 0 && <p className="muted">Looking at the phone…</p>}
      <TaskResultCard task={task} />
    </div>
  );
}
