import { SETTINGS_CATALOG, type SettingUse } from './settings-catalog';
import type { SecretName, Settings } from './settings';
import { ENGLISH, type Words } from './i18n/translate';

/** Something the enabled AI planner still needs, naming the Settings field (and the variable only when one overrides it). */
export interface SetupProblem {
  /** Settings path, e.g. `controlPlane.url` or `secrets.CONTROL_PLANE_TOKEN`. */
  field: string;
  label: string;
  section: string;
  /** The environment variable that overrides this field, when one does. */
  overriddenBy?: string;
  /** What is wrong, e.g. "is empty". */
  problem: string;
}

const entryOf = (path: string) => SETTINGS_CATALOG.find((entry) => entry.path === path)!;

/** Which uses apply to the chosen planner, provider and transport: the rule both the form and the checks follow. */
export function activeUses(ai: Pick<Settings['aiPlanner'], 'enabled' | 'provider' | 'transport'>): Set<SettingUse> {
  const uses = new Set<SettingUse>(['app']);
  if (!ai.enabled) return uses;
  uses.add('ai-planner');
  uses.add(ai.transport === 'cloud-proxy' ? 'cloud-proxy' : ai.provider);
  return uses;
}

/**
 * What the enabled AI planner is missing, from the settings in effect and which secrets are set (empty when it is
 * off or ready). The same list marks Settings and the goal box "incomplete" and explains a refused Run.
 */
export function aiPlannerSetupProblems(
  settings: Settings,
  secretIsSet: (name: SecretName) => boolean,
  overriddenFields: Readonly<Record<string, string>> = {},
): SetupProblem[] {
  const ai = settings.aiPlanner;
  if (!ai.enabled) return [];
  const needed: Array<{ path: string; missing: boolean }> =
    ai.transport === 'direct'
      ? [{ path: `secrets.${ai.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY'}`, missing: !secretIsSet(ai.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY') }]
      : [
          { path: 'controlPlane.url', missing: !settings.controlPlane.url },
          { path: 'secrets.CONTROL_PLANE_TOKEN', missing: !secretIsSet('CONTROL_PLANE_TOKEN') },
        ];
  return needed
    .filter((item) => item.missing)
    .map(({ path }) => {
      const entry = entryOf(path);
      const overriddenBy = overriddenFields[path];
      return { field: path, label: entry.label, section: entry.section, ...(overriddenBy && { overriddenBy }), problem: entry.secret ? 'is not set' : 'is empty' };
    });
}

/** A problem's words in a language: the field's label, what is wrong ("is empty"), and its section. */
export function setupProblemParts(problem: SetupProblem, words: Words = ENGLISH): { label: string; problem: string; section: string } {
  const { t } = words;
  return {
    label: t(`settings:field.${problem.field}.label`),
    problem: t(problem.problem === 'is not set' ? 'common:setupProblem.unset' : 'common:setupProblem.empty'),
    section: t(`settings:section.${problem.section}`),
  };
}

/** "Control-plane token is not set (Settings → Cloud control plane)". */
export function describeSetupProblem(problem: SetupProblem, words: Words = ENGLISH): string {
  const parts = setupProblemParts(problem, words);
  return problem.overriddenBy
    ? words.t('common:setupProblem.lineOverridden', { ...parts, variable: problem.overriddenBy })
    : words.t('common:setupProblem.line', parts);
}
