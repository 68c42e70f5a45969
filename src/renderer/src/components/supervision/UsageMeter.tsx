import { formatUsd } from '../../../../shared/prices';
import { FINAL_STATUSES, type TaskRecord } from '../../../../shared/task';
import { useWords } from '../../i18n/use-words';
import { formatTokens } from '../../lib/format';
import { costWords, formatCount, usesModel } from '../../../../shared/task-words';

/**
 * Tokens and cost ("so far" while it runs) and the task's limits: cost only from the price table, never guessed for
 * an unknown model, and not mentioned before the first model call.
 */
export function UsageMeter({ task }: { task: TaskRecord }) {
  const words = useWords();
  const { t, locale } = words;
  if (!usesModel(task.planner)) return null;
  const limits = task.limits;
  const cost = costWords(task, undefined, words);
  const caps = [
    limits?.maxTokens ? t('app:supervision.tokens', { value: formatCount(limits.maxTokens, locale) }) : null,
    limits?.maxCostUsd ? formatUsd(limits.maxCostUsd, locale) : null,
  ].filter(Boolean);
  const used = [formatTokens(task.usage, words), cost && t('app:supervision.cost', { cost })].filter(Boolean).join(' · ');
  const totals = `${used}${caps.length > 0 ? t('app:supervision.limit', { caps: caps.join(', ') }) : ''}`;
  const text = FINAL_STATUSES.includes(task.status) ? totals : t('app:supervision.soFar', { used: totals });
  return (
    <p className="usage-meter muted" data-testid="usage-meter" title={text}>
      {text}
    </p>
  );
}
