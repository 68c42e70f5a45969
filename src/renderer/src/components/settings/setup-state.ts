import type { SettingsScreen } from '../../../../shared/contract';
import type { Words } from '../../../../shared/i18n/translate';
import { aiPlannerSetupProblems, setupProblemParts, type SetupProblem } from '../../../../shared/setup-problems';

/** What the saved, enabled AI planner still lacks (empty when it is off or ready), from what main reports. */
export function incompleteSetup(screen: SettingsScreen | null): SetupProblem[] {
  if (!screen) return [];
  return aiPlannerSetupProblems(screen.effective, (name) => screen.secrets[name] === 'set', screen.overriddenFields);
}

/** "incomplete: Control-plane URL, Control-plane token" — the short form next to the goal box. */
export function incompleteLabel(problems: SetupProblem[], words: Words): string | null {
  if (!problems.length) return null;
  const list = problems.map((problem) => words.t('app:settings.problemShort', setupProblemParts(problem, words))).join(', ');
  return words.t('app:settings.incomplete', { list });
}
