import type { SettingsScreen } from '../../../../shared/contract';
import { aiPlannerSetupProblems, type SetupProblem } from '../../../../shared/setup-problems';

/** What the saved, enabled AI planner still lacks (empty when it is off or ready), from what main reports. */
export function incompleteSetup(screen: SettingsScreen | null): SetupProblem[] {
  if (!screen) return [];
  return aiPlannerSetupProblems(screen.effective, (name) => screen.secrets[name] === 'set', screen.overriddenFields);
}

/** "incomplete: Control-plane URL, Control-plane token" — the short form next to the goal box. */
export function incompleteLabel(problems: SetupProblem[]): string | null {
  return problems.length ? `incomplete: ${problems.map((problem) => `${problem.label} ${problem.problem}`).join(', ')}` : null;
}
