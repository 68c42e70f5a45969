import { supervisionLines } from '../../../../shared/supervision-words';
import type { TaskRecord } from '../../../../shared/task';
import { useWords } from '../../i18n/use-words';
import { formatTime } from '../../lib/format';

/**
 * Every question, answer, hand-over, confirmation and guard decision of a task, in order, with who decided and
 * when: the same list live and in History.
 */
export function SupervisionLog({ task }: { task: TaskRecord }) {
  const words = useWords();
  const { t } = words;
  const lines = supervisionLines(task.supervisionLog, words);
  if (lines.length === 0) return null;
  return (
    <section className="supervision-log" aria-label={t('app:supervision.logLabel')} data-testid="supervision-log">
      <h3>{t('app:supervision.logTitle')}</h3>
      <ol>
        {lines.map((line, index) => (
          <li key={index} className={`supervision-line ${line.kind}`} data-testid="supervision-line" data-kind={line.kind}>
            <span className="muted">
              {t('app:supervision.logStep', { step: line.step, time: formatTime(line.at, words) })}
            </span>{' '}
            <span className="supervision-line-text">{line.text}</span>
            {line.by && <span className="muted">{t('app:supervision.decidedBy', { by: line.by })}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
