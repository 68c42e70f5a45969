// `amc schedule add|list|remove` without a fleet (no --redis, no AMC_FLEET_REDIS): the schedules in the app's data
// folder, which the running app (its window or `amc serve`) fires. Runs due while it is closed are reported as missed
// when it next starts.
import { ExitCode, UsageError, type CliIo } from './command';
import type { LaunchPhones } from '../shared/launch';
import { launchPhonesWords } from '../shared/launch';
import type { LocalSchedule, SchedulesOverview } from '../shared/schedule';
import { workWords } from '../shared/fleet';
import type { Work } from './fleet-work';

export const LOCAL_SCHEDULE_NOTE = 'It runs while the app is open (its window or amc serve); runs due while it is closed are reported as missed when it next starts.';

/** A schedule's goal, or "flow NAME". */
const scheduleWork = (schedule: Pick<LocalSchedule, 'goal' | 'flow'>) => workWords({ goal: schedule.goal, flow: schedule.flow?.name ?? null });

const when = (at: number | null) => (at === null ? 'not planned' : new Date(at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }));

export function printSchedules(io: CliIo, overview: SchedulesOverview): void {
  if (overview.schedules.length === 0) io.out('No schedules.');
  for (const schedule of overview.schedules) {
    io.out(`${schedule.name}: ${schedule.cron} — ${scheduleWork(schedule)} on ${launchPhonesWords(schedule.phones)}; next ${when(schedule.nextRunAt)}`);
    const run = schedule.lastRun;
    if (run) io.out(`  last run ${when(run.firedAt)}${run.problems.length ? `: ${run.problems.join('; ')}` : ''}`);
  }
  for (const missed of overview.missed) {
    const span = missed.count === 1 ? `at ${when(missed.first)}` : `from ${when(missed.first)} to ${when(missed.last)}`;
    io.out(`Missed while the app was closed: ${missed.name} — ${missed.count} ${missed.count === 1 ? 'run' : 'runs'} ${span}`);
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
  if (values.any) throw new UsageError('--any is for fleet schedules (give --redis URL); on this machine name --device SERIAL or --group NAME');
  if ((values.device === undefined) === (values.group === undefined)) throw new UsageError('name where it runs with exactly one of --device SERIAL or --group NAME');
  if (values.device !== undefined) {
    if (!values.device.trim()) throw new UsageError('--device needs a serial, e.g. 127.0.0.1:5601');
    return { kind: 'serials', serials: [values.device.trim()] };
  }
  if (!values.group?.trim()) throw new UsageError('--group needs the name of a device group');
  return { kind: 'group', group: values.group.trim() };
}

export async function runLocalSchedule(
  action: 'add' | 'list' | 'remove',
  values: LocalScheduleValues,
  positionals: string[],
  task: Partial<Work> & { maxSteps?: number; allowedApps?: string[] },
  io: CliIo,
): Promise<number> {
  const { resolveAmcHome } = await import('../main/storage/settings-store');
  const { createScheduleStore } = await import('../main/storage/schedule-store');
  const { addSchedule, removeSchedule, overviewOf } = await import('../main/app/local-scheduler');
  const { ScheduleTimeError } = await import('../main/app/schedule-times');
  const { ScheduleRequestSchema } = await import('../shared/schedule');
  const store = createScheduleStore(resolveAmcHome(process.env));
  const show = async () => overviewOf(await store.load(), Date.now());

  if (action === 'list') {
    const overview = await show();
    if (values.json) io.out(JSON.stringify(overview));
    else printSchedules(io, overview);
    return ExitCode.ok;
  }
  if (action === 'remove') {
    const name = positionals[0];
    if (!name || positionals.length > 1) throw new UsageError('name one schedule to remove: amc schedule remove NAME');
    if (!(await removeSchedule(store, name))) {
      io.err(`amc schedule: there is no schedule named "${name}" (see amc schedule list)`);
      return ExitCode.failed;
    }
    io.out(`Removed the schedule "${name}".`);
    return ExitCode.ok;
  }
  if (values.every !== undefined) throw new UsageError('--every is for fleet schedules (give --redis URL); on this machine say when with --cron, e.g. --cron "0 8 * * *"');
  if (values.yes || values.answer?.length) {
    throw new UsageError('--yes and --answer are for fleet schedules; on this machine the app asks you in its window');
  }
  const parsed = ScheduleRequestSchema.safeParse({ name: values.name, cron: values.cron ?? '', goal: '', phones: phonesOf(values), ...task });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`--${String(issue.path[0] ?? 'name')}: ${issue.message}`);
  }
  try {
    await addSchedule(store, parsed.data, Date.now());
  } catch (error) {
    if (error instanceof ScheduleTimeError) throw new UsageError(`--cron: ${error.message}`);
    throw error;
  }
  const added = (await show()).schedules.find((schedule) => schedule.name === parsed.data.name)!;
  io.out(`Schedule "${added.name}": ${added.cron} — ${scheduleWork(added)} on ${launchPhonesWords(added.phones)}; next ${when(added.nextRunAt)}.`);
  io.out(LOCAL_SCHEDULE_NOTE);
  return ExitCode.ok;
}
