import { useWords } from '../../i18n/use-words';
import { recentGoalsOf, useGoalStore } from '../../store/goal-store';

/** The goals run on this phone lately (newest first): pick one to put it in the goal box, or remove it. */
export function RecentGoals({ phone }: { phone: string | undefined }) {
  const goals = useGoalStore(recentGoalsOf(phone));
  const setDraft = useGoalStore((s) => s.setDraft);
  const forget = useGoalStore((s) => s.forget);
  const { t } = useWords();
  if (!phone || goals.length === 0) return null;
  return (
    <details className="recent-goals">
      <summary>{t('app:goal.recent', { count: goals.length })}</summary>
      <ul aria-label={t('app:goal.recentLabel')}>
        {goals.map((goal) => (
          <li key={goal}>
            <button
              type="button"
              className="button link recent-goal"
              title={goal}
              onClick={() => {
                setDraft(goal);
                document.getElementById('goal-input')?.focus();
              }}
            >
              {goal}
            </button>
            <button type="button" className="button link danger" aria-label={t('app:goal.forget', { goal })} onClick={() => forget(phone, goal)}>
              ×
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
