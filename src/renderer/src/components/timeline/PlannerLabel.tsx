import type { Words } from '../../../../shared/i18n/translate';
import type { PlannerInfo } from '../../../../shared/task';
import { useWords } from '../../i18n/use-words';

export function plannerText(planner: PlannerInfo, { t }: Words): string {
  if (planner.kind === 'stub') return t('app:timeline.plannerBuiltIn');
  return [t('app:timeline.plannerAi'), planner.provider, planner.model, planner.transport].filter(Boolean).join(' · ');
}

export function PlannerLabel({ planner }: { planner: PlannerInfo }) {
  const words = useWords();
  return (
    <span className="planner-label" data-testid="planner-label">
      {plannerText(planner, words)}
    </span>
  );
}
