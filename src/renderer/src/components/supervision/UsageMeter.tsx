import { formatUsd } from '../../../../shared/prices';
import type { TaskRecord } from '../../../../shared/task';
import { formatTokens } from '../../lib/format';
import { formatCount } from '../../../../shared/task-words';

/** Tokens and cost so far (and the task's limits): cost only from the price table, never guessed for an unknown model. */
export function UsageMeter({ task }: { task: TaskRecord }) {
  if (task.planner.kind !== 'ai') return null;
  const limits = task.limits;
  const cost = task.costUsd === null ? 'cost unknown (the model is not in the price table)' : `cost ${formatUsd(task.costUsd)}`;
  const caps = [
    limits?.maxTokens ? `${formatCount(limits.maxTokens)} tokens` : null,
    limits?.maxCostUsd ? formatUsd(limits.maxCostUsd) : null,
  ].filter(Boolean);
  const text = `So far: ${formatTokens(task.usage)} · ${cost}${caps.length > 0 ? ` · limit ${caps.join(', ')}` : ''}`;
  return (
    <p className="usage-meter muted" data-testid="usage-meter" title={text}>
      {text}
    </p>
  );
}
