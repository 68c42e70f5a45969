import { ExitCode, UsageError, type CliCommand, type CliIo } from '../command';
import { parseCommandArgs } from '../args';
import { ADB_OPTIONS_USAGE, adbForTask, adbOptions } from './devices';
import { configuredPlannerFor, maxStepsOf, PLANNER_OPTIONS_USAGE, plannerOptions, plannerOverrides } from '../planner-options';
import type { TaskEvent } from '../../shared/task';

const USAGE = `amc run -s SERIAL --goal TEXT ${PLANNER_OPTIONS_USAGE} [--json] ${ADB_OPTIONS_USAGE}`;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const indent = (label: string, text: string) => `    ${label}: ${text.replace(/\s*\n\s*/g, '\n      ')}`;

/** One human-readable block per event (turn by turn), as the task runs. */
function printEvent(event: TaskEvent, io: CliIo): void {
  switch (event.type) {
    case 'task.started': {
      const p = event.planner;
      const planner = p.kind === 'stub' ? 'stub (no model)' : `ai (${[p.provider, p.transport, p.model].filter(Boolean).join(', ')})`;
      io.out(`Task ${event.taskId} on ${event.serial} — planner: ${planner}, at most ${event.maxSteps} steps`);
      io.out(`Goal: ${event.goal}`);
      return;
    }
    case 'step.observed':
      if (event.sceneError) io.out(`[${event.step}] screen could not be read: ${event.sceneError}`);
      return;
    case 'step.planned': {
      io.out(`[${event.step}] ${event.tool} ${JSON.stringify(event.args)}`);
      if (event.rationale) io.out(indent('rationale', event.rationale));
      if (event.thinking) io.out(indent('thinking', event.thinking));
      return;
    }
    case 'step.executed': {
      const o = event.outcome;
      const where = o.target?.label ? ` on ${o.target.label}` : '';
      const attempts = `${o.attempts} attempt${o.attempts === 1 ? '' : 's'}`;
      io.out(o.ok ? `    -> ok${where} (${attempts}, ${Math.round(o.durationMs)} ms)` : `    -> error: ${o.error ?? 'unknown'} (${attempts})`);
      return;
    }
    case 'task.paused':
      io.out('Paused.');
      return;
    case 'task.resumed':
      io.out('Resumed.');
      return;
    case 'task.finished': {
      const totals = `${event.steps} step${event.steps === 1 ? '' : 's'}, ${seconds(event.durationMs)}, ${event.usage.inputTokens} input / ${event.usage.outputTokens} output tokens`;
      if (event.status === 'completed') io.out(`Completed (${totals})${event.result ? `: ${event.result}` : ''}`);
      else if (event.status === 'failed') io.out(`Failed (${totals}): ${event.failureReason ?? 'unknown reason'}`);
      else io.out(`Cancelled (${totals}).`);
    }
  }
}

export const runCommand: CliCommand = {
  name: 'run',
  summary: 'carry out a goal on a device, printing each turn (action, rationale, thinking, outcome) and the result',
  usage: USAGE,
  async run(args, io) {
    const { values } = parseCommandArgs(args, {
      serial: { type: 'string', short: 's' },
      goal: { type: 'string' },
      ...plannerOptions,
      json: { type: 'boolean' },
      ...adbOptions,
    });
    if (!values.serial?.trim()) throw new UsageError('-s SERIAL is required (see `amc devices`)');
    if (!values.goal?.trim()) throw new UsageError('--goal TEXT is required');
    const overrides = plannerOverrides(values);
    const maxSteps = maxStepsOf(values);

    // Loaded lazily so `amc --help` stays fast.
    const { resolveAmcHome } = await import('../../main/storage/settings-store');
    const { createTaskStore } = await import('../../main/storage/task-store');
    const { createDeviceLocks } = await import('../../main/storage/device-lock');
    const { config, configured } = await configuredPlannerFor(overrides);

    const { createHeadlessRunner, screenshotPolicyFor } = await import('../../main/app/headless-runner');
    const { APP_CLOSED_REASON, TaskStartError } = await import('../../main/runtime/task-runner');
    const adb = await adbForTask(values, config.settings);
    const home = resolveAmcHome(process.env);
    // The same per-phone lock as the app's: a phone another task drives (the app, another `amc run`) is refused.
    const { phoneHelpersFor } = await import('../../main/app/phone-typing');
    const { typing } = phoneHelpersFor({ adb: async () => adb, settings: async () => config.settings, home });
    const runner = createHeadlessRunner(adb, { screenshot: screenshotPolicyFor(config, configured), deviceLock: createDeviceLocks(home), typing });
    runner.on(values.json ? (event) => io.out(JSON.stringify(event)) : (event) => printEvent(event, io));
    // The task goes into the same history the app shows; a history that cannot be written never stops the task.
    const history = createTaskStore(home);
    let historyProblem: string | undefined;
    runner.on((event) => {
      history.append(event).catch((error: unknown) => {
        historyProblem ??= error instanceof Error ? error.message : String(error);
      });
    });

    let handle;
    try {
      handle = await runner.start({ serial: values.serial.trim(), goal: values.goal.trim(), ...(maxSteps ? { maxSteps } : {}) }, { planner: configured });
    } catch (error) {
      // Nothing ran: the request itself was refused (a goal over the length limit, a phone another task drives).
      if (!(error instanceof TaskStartError)) throw error;
      io.err(`amc run: ${error.message}`);
      await history.close();
      return ExitCode.usage;
    }
    // Ctrl-C is a person stopping the task; SIGTERM is the machine shutting the CLI down under it.
    const stop = () => handle.stop();
    const shutDown = () => handle.stop(APP_CLOSED_REASON);
    process.once('SIGINT', stop);
    process.once('SIGTERM', shutDown);
    try {
      const record = await handle.done;
      return record.status === 'completed' ? ExitCode.ok : record.status === 'cancelled' ? ExitCode.cancelled : ExitCode.failed;
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', shutDown);
      await history.close();
      if (historyProblem) io.err(`amc run: the task was not saved in history: ${historyProblem}`);
    }
  },
};
