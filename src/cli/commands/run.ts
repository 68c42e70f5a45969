import { ExitCode, TASK_EXIT_CODES, UsageError, type CliCommand } from '../command';
import { finishedOutcome } from '../../shared/task-words';
import { parseCommandArgs } from '../args';
import { ADB_OPTIONS_USAGE, adbForTask, adbOptions, pickSerial } from './devices';
import { configuredPlannerFor, maxStepsOf, PLANNER_OPTIONS_USAGE, plannerOptions, plannerOverrides } from '../planner-options';
import type { TaskHandle } from '../../main/runtime/task-runner';
import { allowedAppsOf, presetAnswers, SUPERVISION_OPTIONS_USAGE, supervisionOptions } from '../supervision-options';
import { supervisionPrinter } from '../run-report';
import { terminalSupervisor } from '../terminal-supervisor';
import { terminalLines } from '../terminal-line';
import { printEvent } from '../task-events';
import { planningSpinner } from '../planning-spinner';
import type { LaunchTargets } from '../../shared/device-groups';

const USAGE = `amc run [-s SERIAL | --all | --group NAME] --goal TEXT ${PLANNER_OPTIONS_USAGE} ${SUPERVISION_OPTIONS_USAGE} [--json] ${ADB_OPTIONS_USAGE}`;

/** Several phones at once (--all or --group NAME), or null for one phone (-s SERIAL or the only one). */
function launchTargetsOf(values: { serial?: string; all?: boolean; group?: string }): LaunchTargets | null {
  const given = [values.serial !== undefined, values.all === true, values.group !== undefined].filter(Boolean).length;
  if (given > 1) throw new UsageError('name the phones with one of -s SERIAL, --all or --group NAME');
  if (values.all) return { all: true };
  if (values.group === undefined) return null;
  if (!values.group.trim()) throw new UsageError('--group needs the name of a device group (Settings → Fleet → Device groups)');
  return { group: values.group.trim() };
}

export const runCommand: CliCommand = {
  name: 'run',
  usage: USAGE,
  async run(args, io) {
    const { values } = parseCommandArgs(args, {
      serial: { type: 'string', short: 's' },
      all: { type: 'boolean' },
      group: { type: 'string' },
      goal: { type: 'string' },
      ...plannerOptions,
      ...supervisionOptions,
      json: { type: 'boolean' },
      ...adbOptions,
    });
    if (!values.goal?.trim()) throw new UsageError('--goal TEXT is required');
    const overrides = plannerOverrides(values);
    const maxSteps = maxStepsOf(values);
    const answers = presetAnswers(values);
    const allowedApps = allowedAppsOf(values);
    const targets = launchTargetsOf(values);

    // Loaded lazily so `amc --help` stays fast.
    const { resolveAmcHome } = await import('../../main/storage/settings-store');
    const { createTaskStore } = await import('../../main/storage/task-store');
    const { createDeviceLocks } = await import('../../main/storage/device-lock');
    const { config, configured } = await configuredPlannerFor(overrides);

    const { createHeadlessRunner, screenshotPolicyFor } = await import('../../main/app/headless-runner');
    const { APP_CLOSED_REASON, TaskStartError } = await import('../../main/runtime/task-runner');
    const adb = await adbForTask(values, config.settings);
    if (targets) {
      const { runLaunch } = await import('../run-launch');
      const launch = { targets, goal: values.goal.trim(), answers, yes: values.yes ?? false, json: values.json ?? false, ...(maxSteps && { maxSteps }), ...(allowedApps && { allowedApps }) };
      return runLaunch(launch, io, adb, config, configured);
    }
    // Before the task exists: an unknown serial never becomes a recorded, failed task.
    const serial = await pickSerial(adb, values.serial);
    const home = resolveAmcHome(process.env);
    // The same per-phone lock as the app's: a phone another task drives (the app, another `amc run`) is refused.
    // A person at a terminal answers the agent; with --json (or without a terminal) only answers given in advance do.
    let handle: TaskHandle | undefined;
    const stopByPerson = () => handle?.stop();
    const terminal = !values.json && process.stdin.isTTY && process.stdout.isTTY ? terminalLines(process.stdin, process.stdout, stopByPerson) : null;
    const supervisor = terminalSupervisor({ askLine: terminal?.askLine ?? null, answers, yes: values.yes ?? false, say: (line) => io.out(line) });
    const { phoneHelpersFor } = await import('../../main/app/phone-typing');
    const { typing } = phoneHelpersFor({ adb: async () => adb, settings: async () => config.settings, home });
    const runner = createHeadlessRunner(adb, { screenshot: screenshotPolicyFor(config, configured), deviceLock: createDeviceLocks(home), supervisor, typing });
    // On a terminal (never with --json or when piped) a spinner shows the model is still planning.
    const spinner = !values.json && io.status && process.stdout.isTTY ? planningSpinner(io.status) : undefined;
    if (spinner) runner.on((event) => spinner.onEvent(event));
    const printSupervision = supervisionPrinter(io);
    runner.on(values.json ? (event) => io.out(JSON.stringify(event)) : (event) => (printEvent(event, io, configured.planner.info), printSupervision(event)));
    // The task goes into the same history the app shows; a history that cannot be written never stops the task.
    const history = createTaskStore(home);
    let historyProblem: string | undefined;
    runner.on((event) => {
      history.append(event).catch((error: unknown) => {
        historyProblem ??= error instanceof Error ? error.message : String(error);
      });
    });

    try {
      const request = { serial, goal: values.goal.trim(), ...(maxSteps ? { maxSteps } : {}), ...(allowedApps ? { allowedApps } : {}) };
      handle = await runner.start(request, { planner: configured });
    } catch (error) {
      // Nothing ran: the request itself was refused (a goal over the length limit, a phone another task drives).
      if (!(error instanceof TaskStartError)) throw error;
      io.err(`amc run: ${error.message}`);
      terminal?.close();
      await history.close();
      return ExitCode.usage;
    }
    // Ctrl-C is a person stopping the task; SIGTERM is the machine shutting the CLI down under it.
    const shutDown = () => handle?.stop(APP_CLOSED_REASON);
    process.once('SIGINT', stopByPerson);
    process.once('SIGTERM', shutDown);
    try {
      return TASK_EXIT_CODES[finishedOutcome(await handle.done)];
    } finally {
      spinner?.stop();
      process.off('SIGINT', stopByPerson);
      process.off('SIGTERM', shutDown);
      terminal?.close();
      await history.close();
      if (historyProblem) io.err(`amc run: the task was not saved in history: ${historyProblem}`);
    }
  },
};
