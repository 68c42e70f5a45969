import { UsageError } from './command';
import { terminalWords } from './terminal-words';

/** How `amc run` answers for the person: in advance (`--yes`, `--answer`) and which apps the task may use. */
export const supervisionOptions = {
  yes: { type: 'boolean', short: 'y' },
  answer: { type: 'string', multiple: true },
  'allow-app': { type: 'string', multiple: true },
} as const;
export const SUPERVISION_OPTIONS_USAGE = '[--yes] [--answer TEXT]... [--allow-app APP[,APP...]]';

type SupervisionValues = { yes?: boolean; answer?: string[]; 'allow-app'?: string[] };

/** The `--answer` texts in order; an empty one is refused rather than silently skipped. */
export function presetAnswers(values: SupervisionValues): string[] {
  const answers = (values.answer ?? []).map((answer) => answer.trim());
  if (answers.some((answer) => !answer)) throw new UsageError(terminalWords().t('cli:usageError.answerNeedsText'));
  if (answers.some((answer) => answer.length > 2000)) throw new UsageError(terminalWords().t('cli:usageError.answerTooLong'));
  return answers;
}

/** `--allow-app` values, comma-separated and repeatable, as one list; undefined when none is given (any app). */
export function allowedAppsOf(values: SupervisionValues): string[] | undefined {
  const apps = (values['allow-app'] ?? []).flatMap((value) => value.split(',')).map((app) => app.trim());
  if (apps.some((app) => !app)) throw new UsageError(terminalWords().t('cli:usageError.allowAppNeedsApps'));
  return apps.length ? [...new Set(apps)] : undefined;
}
