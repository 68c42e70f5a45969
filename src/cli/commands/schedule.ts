import { ExitCode, UsageError, type CliCommand } from '../command';
import { parseCommandArgs, wholeNumber } from '../args';
import { fleetRedis, REDIS_ENV, REDIS_USAGE, redisOption } from '../fleet-options';
import { maxStepsOf } from '../planner-options';
import { allowedAppsOf, presetAnswers, supervisionOptions } from '../supervision-options';
import { BrokenFlowFile, WORK_USAGE, workOf, workOptions, type Work } from '../fleet-work';
import { targetWords, workWords } from '../../shared/fleet';
import type { ScheduleView } from '../../fleet/client';
import type { Words } from '../../shared/i18n/words';
import { terminalWords } from '../terminal-words';
import { saidWords } from '../../shared/supervision-words';
import { NAME_PROBLEM_CODES, nameProblem } from '../../shared/names';

const USAGE = [
  `amc schedule add --name NAME --cron "MIN HOUR DAY MONTH WEEKDAY" ${WORK_USAGE} (--device SERIAL | --group NAME) [--max-steps N] [--allow-app APP]`,
  `amc schedule add ${REDIS_USAGE} --name NAME (--cron "MIN HOUR DAY MONTH WEEKDAY" | --every SECONDS) ${WORK_USAGE} (--device SERIAL | --any) [--max-steps N] [--yes] [--answer TEXT]... [--allow-app APP]`,
  `amc schedule list [${REDIS_USAGE}] [--json]`,
  `amc schedule remove [${REDIS_USAGE}] NAME`,
].join('\n       ');

/** When a fleet schedule runs, in words: its cron pattern, or every N seconds. */
const fleetWhen = (schedule: ScheduleView, words: Words): string =>
  schedule.everySeconds === null ? schedule.when : words.t('cli:schedule.every', { seconds: schedule.everySeconds });

export const scheduleCommand: CliCommand = {
  name: 'schedule',
  usage: USAGE,
  /** Who fires a schedule of this computer, and that a scheduled flow is its content as added, not the file. */
  moreHelp: async () => {
    const { t } = terminalWords();
    return [t('cli:usageNote.scheduleLocal'), t('cli:schedule.flowKept')].join('\n');
  },
  async run(args, io) {
    const words = terminalWords();
    const [action, ...rest] = args;
    if (action !== 'add' && action !== 'list' && action !== 'remove') throw new UsageError(words.t('cli:usageError.scheduleWhatToDo'));
    const { values, positionals } = parseCommandArgs(
      rest,
      {
        ...redisOption,
        name: { type: 'string' },
        cron: { type: 'string' },
        every: { type: 'string' },
        ...workOptions,
        device: { type: 'string', short: 's' },
        group: { type: 'string' },
        any: { type: 'boolean' },
        'max-steps': { type: 'string' },
        ...supervisionOptions,
        json: { type: 'boolean' },
      },
      action === 'remove',
    );
    // What an added schedule runs, read (and a flow file checked) before anything is kept: a broken file keeps nothing.
    let work: Work | null = null;
    if (action === 'add') {
      try {
        work = await workOf(values);
      } catch (error) {
        if (!(error instanceof BrokenFlowFile)) throw error;
        io.err(`amc schedule: ${error.message}`);
        return ExitCode.usage;
      }
    }
    const flowNote = () => {
      if (work?.flow) io.out(words.t('cli:schedule.flowKept'));
    };
    // Without a fleet address the schedules are this machine's, kept in the app's data folder.
    if (values.redis === undefined && !process.env[REDIS_ENV]) {
      const maxSteps = maxStepsOf(values);
      const allowedApps = allowedAppsOf(values);
      const { runLocalSchedule } = await import('../local-schedules');
      const code = await runLocalSchedule(action, values, positionals, { ...work, ...(maxSteps && { maxSteps }), ...(allowedApps && { allowedApps }) }, io);
      if (code === ExitCode.ok) flowNote();
      return code;
    }
    if (values.group !== undefined) throw new UsageError(words.t('cli:usageError.groupIsLocal'));
    const redis = await fleetRedis(values);
    const { FleetClient, FleetRequestError } = await import('../../fleet/client');
    const client = await FleetClient.open(redis);
    try {
      if (action === 'list') {
        const schedules = await client.schedules();
        if (values.json) io.out(JSON.stringify(schedules));
        else if (schedules.length === 0) io.out(words.t('cli:schedule.none'));
        else for (const s of schedules) io.out(words.t('cli:schedule.line', { name: s.name, when: fleetWhen(s, words), work: workWords(s, words), target: targetWords(s.target, words), next: s.nextRunAt ?? words.t('cli:schedule.notPlanned') }));
        return ExitCode.ok;
      }
      if (action === 'remove') {
        const name = positionals[0];
        if (!name || positionals.length > 1) throw new UsageError(words.t('cli:usageError.oneScheduleToRemove'));
        if (!(await client.removeSchedule(name))) {
          io.err(`amc schedule: ${words.t('cli:schedule.noSuch', { name })}`);
          return ExitCode.failed;
        }
        io.out(words.t('cli:schedule.removed', { name }));
        return ExitCode.ok;
      }
      const name = values.name?.trim();
      const problem = nameProblem(values.name ?? '');
      if (!name || problem) throw new UsageError(`--name: ${words.t(`said:${NAME_PROBLEM_CODES[problem ?? 'empty']}`)}`);
      if ((values.cron === undefined) === (values.every === undefined)) throw new UsageError(words.t('cli:usageError.whenFleetRuns'));
      if ((values.device === undefined) === (values.any !== true)) throw new UsageError(words.t('cli:usageError.whereFleetRuns'));
      const everySeconds = wholeNumber(values.every, '--every', 1, 366 * 24 * 3600);
      const when = values.cron !== undefined ? { cron: values.cron.trim() } : { everySeconds: everySeconds! };
      const maxSteps = maxStepsOf(values);
      const allowedApps = allowedAppsOf(values);
      const job = { ...work!, yes: values.yes ?? false, answers: presetAnswers(values), ...(maxSteps && { maxSteps }), ...(allowedApps && { allowedApps }) };
      try {
        const schedule = await client.addSchedule(name, when, job, values.device !== undefined ? { device: values.device.trim() } : { any: true });
        io.out(words.t('cli:schedule.added', { name: schedule.name, when: fleetWhen(schedule, words), work: workWords(schedule, words), target: targetWords(schedule.target, words), next: schedule.nextRunAt ?? words.t('cli:schedule.notPlanned') }));
        flowNote();
        return ExitCode.ok;
      } catch (error) {
        if (error instanceof FleetRequestError) throw new UsageError(saidWords(error.message, error.said, terminalWords()));
        throw error;
      }
    } finally {
      await client.close();
    }
  },
};
