import { supervisionLines } from '../../../../shared/supervision-words';
import type { TaskRecord } from '../../../../shared/task';
import { formatTime } from '../../lib/format';

/**
 * Every question, answer, hand-over, confirmation and guard decision of a task, in order, with who decided and
 * when: the same list live and in History.
 */
export function SupervisionLog({ task }: { task: TaskRecord }) {
  const lines = supervisionLines(task.supervisionLog);
  if (lines.length === 0) return null;
  return (
    <section className="supervision-log" aria-label="Supervision" data-testid="supervision-log">
      <h3>Questions, decisions and guards</h3>
      <ol>
        {lines.map((line, index) => (
          <li key={index} className={`supervision-line ${line.kind}`} data-testid="supervision-line" data-kind={line.kind}>
            <span className="muted">
              Step {line.step} · {formatTime(line.at)}
            </span>{' '}
            <span className="supervision-line-text">{line.text}</span>
            {line.by && <span className="muted"> — decided by {line.by}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
