import type { TaskRecord } from '../../../../shared/task';
import { withoutErrorName } from '../../lib/errors';
import { formatDuration, formatTokens } from '../../lib/format';

const HEADINGS = {
  completed: 'Done',
  failed: 'Failed',
  cancelled: 'Stopped',
} as const;

/** The built-in planner only looks at the screen: "done" must not read as "the goal was carried out". */
const STUB_DONE =
  'The built-in planner looked at the screen and stopped: it does not carry out goals. Turn on the AI planner in Settings to let a model act.';

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** The closing card of a finished task: its result or why it did not get there, in plain words. */
export function TaskResultCard({ task }: { task: TaskRecord }) {
  if (task.status !== 'completed' && task.status !== 'failed' && task.status !== 'cancelled') return null;
  const actions = task.steps.filter((step) => step.outcome !== null).length;
  const text =
    task.status === 'completed'
      ? (task.result ?? (task.planner.kind === 'stub' ? STUB_DONE : 'The goal was reached.'))
      : task.failureReason
        ? withoutErrorName(task.failureReason)
        : task.status === 'cancelled'
          ? 'The task was stopped.'
          : 'The task failed for an unknown reason.';
  return (
    <article className={`result-card status-${task.status}`} data-testid="task-result" aria-labelledby="task-result-title">
      <h3 id="task-result-title">{HEADINGS[task.status]}</h3>
      <p data-testid="task-result-text">{text}</p>
      <p className="muted" data-testid="task-result-summary">
        {plural(actions, 'action')} in {plural(task.steps.length, 'turn')} · {formatDuration(task.timings.totalMs)} · {formatTokens(task.usage)}
      </p>
    </article>
  );
}
