// How a fleet worker carries out a job's goal on one of its phones: as `amc run` would, with this host's settings and
// keys, the same per-phone lock and the same history, and nobody at a terminal (only the job's answers and --yes).
import type { AdbClient } from '../main/device/adb-client';
import type { RunGoal } from '../fleet/worker';
import { configuredPlannerFor } from './planner-options';
import { terminalSupervisor } from './terminal-supervisor';

/**
 * A RunGoal on `adb`'s phones; a phone another task holds is refused in plain words, and nothing runs. What the first
 * turn on the `offered` phones needs is loaded now, not while the first job waits.
 */
export async function fleetGoalRunner(adb: AdbClient, say: (line: string) => void, offered: readonly string[]): Promise<RunGoal> {
  const { resolveAmcHome } = await import('../main/storage/settings-store');
  const { createTaskStore } = await import('../main/storage/task-store');
  const { createDeviceLocks } = await import('../main/storage/device-lock');
  const { createHeadlessRunner, screenshotPolicyFor } = await import('../main/app/headless-runner');
  const { phoneHelpersFor } = await import('../main/app/phone-typing');
  const { APP_CLOSED_REASON } = await import('../main/runtime/task-runner');
  const { warmUpFirstTurn } = await import('../main/app/first-turn-warm-up');
  const home = resolveAmcHome(process.env);
  // Checked once at start: a worker whose settings cannot run a task says so before it takes any job.
  const atStart = await configuredPlannerFor({});
  await warmUpFirstTurn(atStart.config, atStart.configured, offered);
  const history = createTaskStore(home);
  const deviceLock = createDeviceLocks(home);

  return async (job, serial, signal) => {
    const { config, configured } = await configuredPlannerFor({});
    const supervisor = terminalSupervisor({ askLine: null, answers: job.answers, yes: job.yes, say: (line) => say(`${serial}: ${line}`) });
    const { typing } = phoneHelpersFor({ adb: async () => adb, settings: async () => config.settings, home });
    const runner = createHeadlessRunner(adb, { screenshot: screenshotPolicyFor(config, configured), deviceLock, supervisor, typing });
    runner.on((event) => void history.append(event).catch(() => undefined));
    const request = { serial, goal: job.goal, ...(job.maxSteps && { maxSteps: job.maxSteps }), ...(job.allowedApps && { allowedApps: job.allowedApps }) };
    const handle = await runner.start(request, { planner: configured });
    const stop = () => handle.stop(APP_CLOSED_REASON);
    signal.addEventListener('abort', stop, { once: true });
    try {
      return await handle.done;
    } finally {
      signal.removeEventListener('abort', stop);
    }
  };
}
