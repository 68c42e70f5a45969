import { ExitCode, UsageError, type CliCommand } from '../command';
import { parseCommandArgs, wholeNumber } from '../args';
import { fleetRedis, REDIS_ENV, REDIS_USAGE, redisOption } from '../fleet-options';
import { maxStepsOf } from '../planner-options';
import { allowedAppsOf, presetAnswers, supervisionOptions } from '../supervision-options';
import { BrokenFlowFile, WORK_USAGE, workOf, workOptions, type Work } from '../fleet-work';
import { workWords } from '../../shared/fleet';

/** Said in the help and when a flow is scheduled: what is kept is the flow as it is now, not the file. */
const FLOW_KEPT_NOTE = "A schedule keeps the flow's content as it is when added: editing or deleting the file later changes nothing scheduled (add it again to take the new version).";

const USAGE = [
  `amc schedule add --name NAME --cron "MIN HOUR DAY MONTH WEEKDAY" ${WORK_USAGE} (--device SERIAL | --group NAME) [--max-steps N] [--allow-app APP]   (this machine's app fires it)`,
  `amc schedule add ${REDIS_USAGE} --name NAME (--cron "MIN HOUR DAY MONTH WEEKDAY" | --every SECONDS) ${WORK_USAGE} (--device SERIAL | --any) [--max-steps N] [--yes] [--answer TEXT]... [--allow-app APP]`,
  `amc schedule list [${REDIS_USAGE}] [--json]`,
  `amc schedule remove [${REDIS_USAGE}] NAME`,
  FLOW_KEPT_NOTE,
].join('\n       ');

export const scheduleCommand: CliCommand = {
  name: 'schedule',
  usage: USAGE,
  async run(args, io) {
    const [action, ...rest] = args;
    if (action !== 'add' && action !== 'list' && action !== 'remove') throw new UsageError('say what to do: amc schedule add, list or remove');
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
      if (work?.flow) io.out(FLOW_KEPT_NOTE);
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
    if (values.group !== undefined) throw new UsageError('--group is for schedules on this machine; a fleet schedule runs on --device SERIAL or --any');
    const redis = await fleetRedis(values);
    const { FleetClient, FleetRequestError } = await import('../../fleet/client');
    const client = await FleetClient.open(redis);
    try {
      if (action === 'list') {
        const schedules = await client.schedules();
        if (values.json) io.out(JSON.stringify(schedules));
        else if (schedules.length === 0) io.out('No schedules.');
        else for (const s of schedules) io.out(`${s.name}: ${s.when} — ${workWords(s)} on ${s.target}; next ${s.nextRunAt ?? 'not planned'}`);
        return ExitCode.ok;
      }
      if (action === 'remove') {
        const name = positionals[0];
        if (!name || positionals.length > 1) throw new UsageError('name one schedule to remove: amc schedule remove NAME');
        if (!(await client.removeSchedule(name))) {
          io.err(`amc schedule: there is no schedule named "${name}" (see amc schedule list)`);
          return ExitCode.failed;
        }
        io.out(`Removed the schedule "${name}".`);
        return ExitCode.ok;
      }
      const name = values.name?.trim();
      if (!name || !/^[\w.-]{1,100}$/.test(name)) throw new UsageError('--name must be 1 to 100 letters, digits, dots, dashes or underscores');
      if ((values.cron === undefined) === (values.every === undefined)) throw new UsageError('give when with exactly one of --cron "MIN HOUR DAY MONTH WEEKDAY" or --every SECONDS');
      if ((values.device === undefined) === (values.any !== true)) throw new UsageError('name where it runs with exactly one of --device SERIAL or --any');
      const everySeconds = wholeNumber(values.every, '--every', 1, 366 * 24 * 3600);
      const when = values.cron !== undefined ? { cron: values.cron.trim() } : { everySeconds: everySeconds! };
      const maxSteps = maxStepsOf(values);
      const allowedApps = allowedAppsOf(values);
      const job = { ...work!, yes: values.yes ?? false, answers: presetAnswers(values), ...(maxSteps && { maxSteps }), ...(allowedApps && { allowedApps }) };
      try {
        const schedule = await client.addSchedule(name, when, job, values.device !== undefined ? { device: values.device.trim() } : { any: true });
        io.out(`Schedule "${schedule.name}": ${schedule.when} — ${workWords(schedule)} on ${schedule.target}; next ${schedule.nextRunAt ?? 'not planned'}.`);
        flowNote();
        return ExitCode.ok;
      } catch (error) {
        if (error instanceof FleetRequestError) throw new UsageError(error.message);
        throw error;
      }
    } finally {
      await client.close();
    }
  },
};
