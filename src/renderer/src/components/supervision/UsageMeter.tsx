import { formatUsd } from '../../../../shared/prices';
import { FINAL_STATUSES, type TaskRecord } from '../../../../shared/task';
import { formatTokens } from '../../lib/format';
import { costWords, formatCount, usesModel } from '../../../../shared/task-words';

/**
 * Tokens and cost ("so far" while it runs) and the task's limits: cost only from the price table, never guessed for
 * an unknown model, and not mentioned before the first model call.
 */
export function UsageMeter({ task }: { task: TaskRecord }) {
  if (!usesModel(task.planner)) return null;
  const limits = task.limits;
  const cost = costWords(task);
  const caps = [
    limits?.maxTokens ? `${formatCount(limits.maxTokens)} tokens` : null,
    limits?.maxCostUsd ? formatUsd(limits.maxCostUsd) : null,
  ].filter(Boolean);
  const used = [formatTokens(task.usage), cost && `cost ${cost}`].filter(Boolean).join(' · ');
  const text = `${FINAL_STATUSES.includes(task.status) ? '' : 'So far: '}${used}${caps.length > 0 ? ` · limit ${caps.join(', ')}` : ''}`;
  return (
    <p className="usage-meter muted" data-testid="usage-meter" title={text}>
      {text}
    </p>
  );
}
