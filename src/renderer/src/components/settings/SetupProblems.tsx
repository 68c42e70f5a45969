import { describeSetupProblem } from '../../../../shared/setup-problems';
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
  if (problems.length === 0) return null;
  return (
    <div className="banner warning setup-problems" role="status" data-testid="setup-problems">
      <p>The AI planner is on but incomplete; a task cannot start until these are set:</p>
      <ul>
        {problems.map((problem) => (
          <li key={problem.field} data-field={problem.field}>
            {describeSetupProblem(problem)}
          </li>
        ))}
      </ul>
      {withOpenSettings && (
        <button type="button" className="button secondary" onClick={() => openSettings(true)}>
          Open Settings
        </button>
      )}
    </div>
  );
}
