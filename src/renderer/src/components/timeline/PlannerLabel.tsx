import type { PlannerInfo } from '../../../../shared/task';
import { plannerWords } from '../../../../shared/task-words';

export function plannerText(planner: PlannerInfo): string {
  if (planner.kind === 'stub') return 'Planner: built-in (no AI)';
  if (planner.kind === 'replay') return `Planner: ${plannerWords(planner)}`;
  return ['Planner: AI', planner.provider, planner.model, planner.transport].filter(Boolean).join(' · ');
}

export function PlannerLabel({ planner }: { planner: PlannerInfo }) {
  return (
    <span className="planner-label" data-testid="planner-label">
      {plannerText(planner)}
    </span>
  );
}
