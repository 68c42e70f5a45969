import type { Words } from '../../../../shared/i18n/translate';
import type { PlannerInfo } from '../../../../shared/task';
import { plannerWords } from '../../../../shared/task-words';
import { useWords } from '../../i18n/use-words';

export function plannerText(planner: PlannerInfo, words: Words): string {
  const { t } = words;
  if (planner.kind === 'stub') return t('app:timeline.plannerBuiltIn');
  if (planner.kind === 'replay') return t('app:timeline.plannerReplay', { planner: plannerWords(planner, words) });
  return [t('app:timeline.plannerAi'), planner.provider, planner.model, planner.transport && t(`common:transport.${planner.transport}`)].filter(Boolean).join(' · ');
}

export function PlannerLabel({ planner }: { planner: PlannerInfo }) {
  const words = useWords();
  return (
    <span className="planner-label" data-testid="planner-label">
      {plannerText(planner, words)}
    </span>
  );
}
