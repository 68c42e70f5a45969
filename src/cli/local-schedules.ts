// `amc schedule add|list|remove` without a fleet (no --redis, no AMC_FLEET_REDIS): the schedules in the app's data
// folder, which the running app (its window or `amc serve`) fires. Runs due while it is closed are reported as missed
// when it next starts.
import { ExitCode, UsageError, type CliIo } from './command';
import type { LaunchPhones } from '../shared/launch';
import { launchPhonesWords } from '../shared/launch';
import type { LocalSchedule, SchedulesOverview } from '../shared/schedule';
import { workWords } from '../shared/fleet';
import type { Work } from './fleet-work';
import { terminalWords } from './terminal-words';
import { NAME_PROBLEM_CODES, nameProblem } from '../shared/names';
import { wordSaid } from '../shared/said';
import type { Words } from '../shared/i18n/translate';
import type { TaskSummary } from '../shared/contract';
import { taskVerdict, TASK_VERDICTS } from '../shared/verdict';
import { issueSaid } from '../shared/issue-said';

/** A schedule's goal, or "flow NAME". */
const scheduleWork = (schedule: Pick<LocalSchedule, 'goal' | 'flow'>, words: Words) => workWords({ goal: schedule.goal, flow: schedule.flow?.name ?? null }, words);

const when = (at: number | null, words: Words) =>
  at === null ? words.t('cli:schedule.notPlanned') : new Date(at).toLocaleString(words.locale ?? 'en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** How the tasks of one launch ended, by verdict ("1 done, 1 not verified"), from History's summaries; null before any ended. */
function launchVerdicts(launchId: string | null, history: readonly TaskSummary[], words: Words): string | null {
  const verdicts = history.filter((task) => launchId !== null && task.launchId === launchId).flatMap((task) => taskVerdict(task) ?? []);
  if (verdicts.length === 0) return null;
  return TASK_VERDICTS.filter((verdict) => verdicts.includes(verdict))
    .map((verdict) => words.t(`common:jobCount.${verdict}`, { value: verdicts.filter((seen) => seen === verdict).length }))
    .join(words.t('common:listSeparator'));
}

/** The schedules, each with its next run and how its last run ended (the verdicts of its tasks in `history`). */
export function printSchedules(io: CliIo, overview: SchedulesOverview, history: readonly TaskSummary[] = [], words: Words = terminalWords()): void {
  const { t } = words;
  if (overview.schedules.length === 0) io.out(t('cli:schedule.none'));
  for (const schedule of overview.schedules) {
    io.out(t('cli:schedule.line', { name: schedule.name, when: schedule.cron, work: scheduleWork(schedule, words), target: launchPhonesWords(schedule.phones, words), next: when(schedule.nextRunAt, words) }));
    const run = schedule.lastRun;
    if (!run) continue;
    const ended = launchVerdicts(run.launchId, history, words);
    const what = [ended, run.problems.length ? run.problems.join('; ') : null].filter(Boolean).join('; ');
    io.out(what ? t('cli:schedule.lastRunProblems', { at: when(run.firedAt, words), problems: what }) : t('cli:schedule.lastRun', { at: when(run.firedAt, words) }));
  }
  for (const missed of overview.missed) {
    io.out(t('cli:schedule.missed', { name: missed.name, count: missed.count, first: when(missed.first, words), last: when(missed.last, words) }));
  }
}

export interface LocalScheduleValues {
  name?: string;
  cron?: string;
  every?: string;
  device?: string;
  group?: string;
  any?: boolean;
  yes?: boolean;
  answer?: string[];
  json?: boolean;
}

/** Where a local schedule runs: one phone or a device group (a fleet's --any has no meaning on one machine). */
function phonesOf(values: LocalScheduleValues): LaunchPhones {
  if (values.any) throw new UsageError(terminalWords().t('cli:usageError.anyIsFleet'));
  if ((values.device === undefined) === (values.group === undefined)) throw new UsageError(terminalWords().t('cli:usageError.whereLocalRuns'));
  if (values.device !== undefined) {
    if (!values.device.trim()) throw new UsageError(terminalWords().t('cli:usageError.deviceNeedsSerial'));
    return { kind: 'serials', serials: [values.device.trim()] };
  }
  if (!values.group?.trim()) throw new UsageError(terminalWords().t('cli:usageError.groupNeedsName'));
  return { kind: 'group', group: values.group.trim() };
}

export async function runLocalSchedule(
  action: 'add' | 'list' | 'remove',
  values: LocalScheduleValues,
  positionals: string[],
  task: Partial<Work> & { maxSteps?: number; allowedApps?: string[] },
  io: CliIo,
): Promise<number> {
  const { resolveAmcHome } = await import('../core/storage/settings-store');
  const { createScheduleStore } = await import('../core/storage/schedule-store');
  const { addSchedule, removeSchedule, overviewOf } = await import('../app/local-scheduler');
  const { ScheduleTimeError } = await import('../app/schedule-times');
  const { ScheduleRequestSchema } = await import('../shared/schedule');
  const store = createScheduleStore(resolveAmcHome(process.env));
  const show = async () => overviewOf(await store.load(), Date.now());

  if (action === 'list') {
    const overview = await show();
    if (values.json) io.out(JSON.stringify(overview));
    else {
      const { createTaskStore } = await import('../core/storage/task-store');
      const history = createTaskStore(resolveAmcHome(process.env));
      const { tasks } = await history.list().finally(() => history.close());
      printSchedules(io, overview, tasks);
    }
    return ExitCode.ok;
  }
  if (action === 'remove') {
    const name = positionals[0];
    if (!name || positionals.length > 1) throw new UsageError(terminalWords().t('cli:usageError.oneScheduleToRemove'));
    if (!(await removeSchedule(store, name))) {
      io.err(`amc schedule: ${terminalWords().t('cli:schedule.noSuch', { name })}`);
      return ExitCode.failed;
    }
    io.out(terminalWords().t('cli:schedule.removed', { name }));
    return ExitCode.ok;
  }
  if (values.every !== undefined) throw new UsageError(terminalWords().t('cli:usageError.everyIsFleet'));
  if (values.yes || values.answer?.length) {
    throw new UsageError(terminalWords().t('cli:usageError.answersAreFleet'));
  }
  const problem = nameProblem(values.name ?? '');
  if (problem) throw new UsageError(`--name: ${terminalWords().t(`said:${NAME_PROBLEM_CODES[problem]}`)}`);
  const parsed = ScheduleRequestSchema.safeParse({ name: values.name, cron: values.cron ?? '', goal: '', phones: phonesOf(values), ...task });
  if (!parsed.success) {
    // The first issue, by code: the option it came from and why, in the terminal's language.
    const issue = parsed.error.issues[0]!;
    const why = issueSaid(issue);
    throw new UsageError(terminalWords().t('cli:usageError.option', { option: String(issue.path[0] ?? 'name'), problem: wordSaid(issue.message, why, terminalWords()) }));
  }
  try {
    await addSchedule(store, parsed.data, Date.now());
  } catch (error) {
    if (error instanceof ScheduleTimeError) throw new UsageError(`--cron: ${wordSaid(error.message, error.said, terminalWords())}`);
    throw error;
  }
  const added = (await show()).schedules.find((schedule) => schedule.name === parsed.data.name)!;
  const words = terminalWords();
  io.out(words.t('cli:schedule.added', { name: added.name, when: added.cron, work: scheduleWork(added, words), target: launchPhonesWords(added.phones, words), next: when(added.nextRunAt, words) }));
  io.out(words.t('cli:schedule.localNote'));
  return ExitCode.ok;
}
