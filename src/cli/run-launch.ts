// `amc run --all` / `--group NAME`: one goal on several local phones at once. Each phone gets its own task (own
// lock, timeline and outcome, all under one launch id in history); the end is a results table, or one JSON line.
import { wordSaid } from '../shared/said';
import { randomUUID } from 'node:crypto';
import { TASK_EXIT_CODES, UsageError, type CliIo } from './command';
import type { AdbClient } from '../core/device/adb-client';
import type { ConfiguredPlanner, TaskHandle } from '../core/runtime/task-runner';
import type { RuntimeConfig } from '../core/runtime/config';
import { deviceGroupsOf, LaunchTargetError, phonesOfLaunch, type LaunchTargets } from '../shared/device-groups';
import { finishedOutcomeWords, launchOutcome, launchRowOf, refusedRow, type LaunchRow } from '../shared/launch';
import { formatCount, formatDuration } from '../shared/task-words';
import { formatUsd } from '../shared/prices';
import { terminalSupervisor } from './terminal-supervisor';
import { supervisionPrinter } from './run-report';
import { printEvent } from './task-events';
import { terminalWords } from './terminal-words';
import type { TaskEvent } from '../shared/task';

export interface LaunchRequest {
  /** The command, as its messages name it (`run`, `flow run`). */
  command: string;
  targets: LaunchTargets;
  goal: string;
  maxSteps?: number;
  allowedApps?: string[];
  answers: string[];
  yes: boolean;
  json: boolean;
  /** The planner of each phone's task (a flow run watches each phone's run on its own); the configured one when absent. */
  plannerFor?(serial: string): ConfiguredPlanner;
  /** Hears each event of every phone's task (a flow run folds each phone's report from its task's). */
  heard?(event: TaskEvent): void;
}

export interface LaunchEnded {
  launchId: string;
  rows: LaunchRow[];
}

/** The phones of `targets` as this host's settings and adb server see them; a launch with no phone is a usage error. */
async function launchPhones(adb: AdbClient, targets: LaunchTargets, config: RuntimeConfig): Promise<{ serials: string[]; ready: Set<string> }> {
  const ready = new Set((await adb.listDevices()).filter((device) => device.state === 'device').map((device) => device.serial));
  try {
    return { serials: phonesOfLaunch(targets, [...ready], deviceGroupsOf(config.settings.fleet.deviceGroups), terminalWords()), ready };
  } catch (error) {
    if (error instanceof LaunchTargetError) throw new UsageError(error.message);
    throw error;
  }
}

/** The results table: one row per phone, then the reason of each phone that did not succeed. */
export function launchTable(rows: readonly LaunchRow[]): string[] {
  const header = ['Phone', 'Outcome', 'Steps', 'Tokens', 'Cost', 'Time'];
  const cells = rows.map((row) => [
    row.serial,
    row.outcome ? finishedOutcomeWords(row.outcome) : 'running',
    formatCount(row.steps, 'en-US'),
    formatCount(row.tokens, 'en-US'),
    row.costUsd === null ? '—' : formatUsd(row.costUsd, 'en-US'),
    formatDuration(row.durationMs, 'en-US'),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => line[column]!.length)));
  const line = (values: string[]) => values.map((value, column) => value.padEnd(widths[column]!)).join('  ').trimEnd();
  const reasons = rows.filter((row) => row.outcome !== 'done' && row.reason).map((row) => `${row.serial}: ${row.reason}`);
  return [line(header), ...cells.map(line), ...reasons];
}

/**
 * Runs the launch and returns the exit code: 0 only when every phone's task was done; the phones' shared outcome's
 * code when they all ended alike; otherwise 1.
 */
export async function runLaunch(request: LaunchRequest, io: CliIo, adb: AdbClient, config: RuntimeConfig, configured: ConfiguredPlanner): Promise<number> {
  const { launchId, rows } = await launchTasks(request, io, adb, config, configured);
  if (request.json) io.out(JSON.stringify({ type: 'launch.finished', launchId, results: rows }));
  else for (const line of launchTable(rows)) io.out(line);
  return TASK_EXIT_CODES[launchOutcome(rows)];
}

/**
 * Runs one task per phone of the launch, each turn printed with its phone's name (or as JSON lines), and resolves
 * with a row per phone once all have ended. Nobody is asked at the terminal (several phones would ask at once): only
 * --answer and --yes answer the agents, as for a fleet job.
 */
export async function launchTasks(request: LaunchRequest, io: CliIo, adb: AdbClient, config: RuntimeConfig, configured: ConfiguredPlanner): Promise<LaunchEnded> {
  const { resolveAmcHome } = await import('../core/storage/settings-store');
  const { createTaskStore } = await import('../core/storage/task-store');
  const { createDeviceLocks } = await import('../core/storage/device-lock');
  const { createHeadlessRunner } = await import('../core/headless/headless-runner');
  const { phoneHelpersFor } = await import('../app/phone-typing');
  const { APP_CLOSED_REASON, TaskStartError } = await import('../core/runtime/task-runner');

  const { serials, ready } = await launchPhones(adb, request.targets, config);
  const home = resolveAmcHome(process.env);
  const { typing } = phoneHelpersFor({ adb: async () => adb, settings: async () => config.settings, home });
  const runner = createHeadlessRunner(adb, { deviceLock: createDeviceLocks(home), typing });
  const launchId = randomUUID();
  const serialOf = new Map<string, string>();
  const words = terminalWords();
  const printSupervision = supervisionPrinter(io, words);
  if (request.heard) runner.on(request.heard);
  runner.on((event) => {
    if (request.json) return io.out(JSON.stringify(event));
    const serial = serialOf.get(event.taskId) ?? (event.type === 'task.started' ? event.serial : '?');
    const prefixed: CliIo = { out: (line) => io.out(`${serial}: ${line}`), err: (line) => io.err(`${serial}: ${line}`) };
    printEvent(event, prefixed, configured.planner.info, words);
    printSupervision(event);
  });
  const history = createTaskStore(home);
  let historyProblem: string | undefined;
  runner.on((event) => {
    history.append(event).catch((error: unknown) => (historyProblem ??= error instanceof Error ? error.message : String(error)));
  });
  if (!request.json) io.out(words.t('cli:run.launch', { launchId, goal: request.goal, serials: serials.join(', ') }));

  const handles: TaskHandle[] = [];
  const stopAll = (reason?: string) => handles.forEach((handle) => handle.stop(reason));
  const stopByPerson = () => stopAll();
  const shutDown = () => stopAll(APP_CLOSED_REASON);
  process.once('SIGINT', stopByPerson);
  process.once('SIGTERM', shutDown);
  try {
    const rows = await Promise.all(
      serials.map(async (serial): Promise<LaunchRow> => {
        // A group's phone that is not connected fails alone, before a task exists, with the reason.
        if (!ready.has(serial)) return refusedRow(serial, words.t('cli:run.notConnected', { serial }));
        const supervisor = terminalSupervisor({ askLine: null, answers: request.answers, yes: request.yes, say: (line) => io.out(`${serial}: ${line}`), words });
        const task = { serial, goal: request.goal, launchId, ...(request.maxSteps && { maxSteps: request.maxSteps }), ...(request.allowedApps && { allowedApps: request.allowedApps }) };
        let handle: TaskHandle;
        try {
          handle = await runner.start(task, { planner: request.plannerFor?.(serial) ?? configured, supervisor });
        } catch (error) {
          if (!(error instanceof TaskStartError)) throw error;
          return refusedRow(serial, wordSaid(error.message, error.said, words));
        }
        serialOf.set(handle.id, serial);
        handles.push(handle);
        return launchRowOf(await handle.done);
      }),
    );
    return { launchId, rows };
  } finally {
    process.off('SIGINT', stopByPerson);
    process.off('SIGTERM', shutDown);
    await history.close();
    if (historyProblem) io.err(`amc ${request.command}: the tasks were not all saved in history: ${historyProblem}`);
  }
}
