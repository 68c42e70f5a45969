import { wordSaid } from '../shared/said';
import { ExitCode, TASK_EXIT_CODES, type CliIo } from './command';
import { finishedVerdict } from '../shared/verdict';
import { adbForTask, pickSerial } from './commands/devices';
import { configuredPlannerFor, maxStepsOf, plannerOverrides } from './planner-options';
import type { ConfiguredPlanner, TaskHandle } from '../core/runtime/task-runner';
import type { RuntimeConfig } from '../core/runtime/config';
import type { TaskStore } from '../core/storage/task-store';
import type { AdbClient } from '../core/device/adb-client';
import type { TaskEvent, TaskRecord } from '../shared/task';
import { allowedAppsOf, presetAnswers } from './supervision-options';
import { supervisionPrinter } from './run-report';
import { terminalSupervisor } from './terminal-supervisor';
import { terminalLines } from './terminal-line';
import { printEvent } from './task-events';
import { planningSpinner } from './planning-spinner';
import { terminalWords } from './terminal-words';

/**
 * One task on a phone from the terminal, as `amc run` and `amc replay` carry it out: the planner from the
 * configuration (and the command), the person at the terminal (or answers given in advance), each turn printed (or
 * JSON lines), the task kept in history, and the exit code of its outcome.
 */

/** The options every such command takes (planner, supervision, output, adb). */
export interface TaskAtTerminalValues {
  serial?: string;
  json?: boolean;
  planner?: string;
  provider?: string;
  transport?: string;
  model?: string;
  'max-steps'?: string;
  yes?: boolean;
  answer?: string[];
  'allow-app'?: string[];
  'adb-host'?: string;
  'adb-port'?: string;
  'adb-path'?: string;
}

/** What the command carries out: its goal and planner, given the planner the configuration builds and the history. */
export type PrepareTask = (base: {
  config: RuntimeConfig;
  configured: ConfiguredPlanner;
  history: TaskStore;
  /** The phone the task will drive, once it is picked (after `prepare`): for a step that reads it itself. */
  phone: () => Promise<{ adb: AdbClient; serial: string }>;
}) => Promise<{
  goal: string;
  planner: ConfiguredPlanner;
  /** Hears the finished task's record (a flow run reads its reason and the model's turns from it). */
  finished?: (record: TaskRecord) => void;
  /** Hears each of the task's events as it happens (a flow run folds its report from them). */
  heard?: (event: TaskEvent) => void;
}>;

export async function runTaskAtTerminal(command: string, values: TaskAtTerminalValues, io: CliIo, prepare: PrepareTask): Promise<number> {
  const overrides = plannerOverrides(values);
  const maxSteps = maxStepsOf(values);
  const answers = presetAnswers(values);
  const allowedApps = allowedAppsOf(values);

  // Loaded lazily so `amc --help` stays fast.
  const { resolveAmcHome } = await import('../core/storage/settings-store');
  const { createTaskStore } = await import('../core/storage/task-store');
  const { createDeviceLocks } = await import('../core/storage/device-lock');
  const { config, configured: base } = await configuredPlannerFor(overrides);
  const home = resolveAmcHome(process.env);
  // The task goes into the same history the app shows; a history that cannot be written never stops the task.
  const history = createTaskStore(home);
  let task: Awaited<ReturnType<PrepareTask>>;
  let picked: ((phone: { adb: AdbClient; serial: string }) => void) | undefined;
  const phone = new Promise<{ adb: AdbClient; serial: string }>((resolve) => (picked = resolve));
  try {
    task = await prepare({ config, configured: base, history, phone: () => phone });
  } catch (error) {
    await history.close();
    throw error;
  }
  const configured = task.planner;

  const { createHeadlessRunner } = await import('../core/headless/headless-runner');
  const { APP_CLOSED_REASON, TaskStartError } = await import('../core/runtime/task-runner');
  const adb = await adbForTask(values, config.settings);
  // Before the task exists: an unknown serial never becomes a recorded, failed task.
  const serial = await pickSerial(adb, values.serial);
  picked?.({ adb, serial });
  // The same per-phone lock as the app's: a phone another task drives (the app, another `amc run`) is refused.
  // A person at a terminal answers the agent; with --json (or without a terminal) only answers given in advance do.
  let handle: TaskHandle | undefined;
  const stopByPerson = () => handle?.stop();
  const terminal = !values.json && process.stdin.isTTY && process.stdout.isTTY ? terminalLines(process.stdin, process.stdout, stopByPerson) : null;
  const words = terminalWords();
  const supervisor = terminalSupervisor({ askLine: terminal?.askLine ?? null, answers, yes: values.yes ?? false, say: (line) => io.out(line), words });
  const { phoneHelpersFor } = await import('../app/phone-typing');
  const { typing } = phoneHelpersFor({ adb: async () => adb, settings: async () => config.settings, home });
  const { createNotesStore } = await import('../core/storage/notes-store');
  const { createPlanCacheStore } = await import('../core/storage/plan-cache-store');
  const { planCacheLearner } = await import('../core/flows/plan-cache');
  // The same notes per app and plan cache as the app's: what this run teaches, the app's next task knows, and the other way round.
  const planCache = planCacheLearner(createPlanCacheStore(home));
  const runner = createHeadlessRunner(adb, { deviceLock: createDeviceLocks(home), supervisor, typing, appNotes: createNotesStore(home), planCache });
  // On a terminal (never with --json or when piped) a spinner shows the model is still planning.
  const spinner = !values.json && io.status && process.stdout.isTTY ? planningSpinner(io.status, Date.now, words) : undefined;
  if (spinner) runner.on((event) => spinner.onEvent(event));
  const printSupervision = supervisionPrinter(io, words);
  if (task.heard) runner.on(task.heard);
  runner.on(values.json ? (event) => io.out(JSON.stringify(event)) : (event) => (printEvent(event, io, configured.planner.info, words), printSupervision(event)));
  let historyProblem: string | undefined;
  runner.on((event) => {
    history.append(event).catch((error: unknown) => {
      historyProblem ??= error instanceof Error ? error.message : String(error);
    });
  });

  try {
    const request = { serial, goal: task.goal, ...(maxSteps ? { maxSteps } : {}), ...(allowedApps ? { allowedApps } : {}) };
    handle = await runner.start(request, { planner: configured });
  } catch (error) {
    // Nothing ran: the request itself was refused (a goal over the length limit, a phone another task drives).
    if (!(error instanceof TaskStartError)) throw error;
    io.err(`amc ${command}: ${wordSaid(error.message, error.said, words)}`);
    terminal?.close();
    await history.close();
    return ExitCode.usage;
  }
  // Ctrl-C is a person stopping the task; SIGTERM is the machine shutting the CLI down under it.
  const shutDown = () => handle?.stop(APP_CLOSED_REASON);
  process.once('SIGINT', stopByPerson);
  process.once('SIGTERM', shutDown);
  try {
    const record = await handle.done;
    task.finished?.(record);
    return TASK_EXIT_CODES[finishedVerdict(record)];
  } finally {
    spinner?.stop();
    process.off('SIGINT', stopByPerson);
    process.off('SIGTERM', shutDown);
    terminal?.close();
    await history.close();
    if (historyProblem) io.err(`amc ${command}: ${words.t('cli:run.notSaved', { problem: historyProblem })}`);
  }
}
