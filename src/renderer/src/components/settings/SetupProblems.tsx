import { describeSetupProblem } from '../../../../shared/setup-problems';
import { useWords } from '../../i18n/use-words';
import { useAppStore } from '../../store/app-store';
import { useSettingsStore } from '../../store/settings-store';
import { incompleteSetup } from './setup-state';

/**
 * The saved AI planner cannot run yet: one item per missing field, each naming it where Settings shows it (and the
 * environment variable only when one overrides it). `withOpenSettings` adds the button outside the Settings drawer.
 */
export function SetupProblems({ withOpenSettings = false }: { withOpenSettings?: boolean }) {
  const screen = useSettingsStore((s) => s.screen);
  const openSettings = useAppStore((s) => s.toggleSettings);
  const problems = incompleteSetup(screen);
  const words = useWords();
  if (problems.length === 0) return null;
  return (
    <div className="banner warning setup-problems" role="status" data-testid="setup-problems">
      <p>{words.t('app:settings.incompleteIntro')}</p>
      <ul>
        {problems.map((problem) => (
          <li key={problem.field} data-field={problem.field}>
            {describeSetupProblem(problem, words)}
          </li>
        ))}
      </ul>
      {withOpenSettings && (
        <button type="button" className="button secondary" onClick={() => openSettings(true)}>
          {words.t('app:common.openSettings')}
        </button>
      )}
    </div>
  );
}
