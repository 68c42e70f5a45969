// How a fleet worker carries out a job on one of its phones: a goal as `amc run` would, a flow as `amc flow run` would,
// with this host's settings and keys, the same per-phone lock and the same history, and nobody at a terminal (only the
// job's answers, and its --yes where this host's owner lets jobs approve sensitive actions).
import type { AdbClient } from '../core/device/adb-client';
import type { FleetJob } from '../fleet/job';
import type { RunJob } from '../fleet/worker';
import type { SupervisorPort } from '../core/runtime/supervisor';
import type { TaskEvent } from '../shared/task';
import type { RuntimeConfig } from '../core/runtime/config';
import type { ConfiguredPlanner } from '../core/runtime/planner';
import type { PlanCachePort } from '../core/runtime/plan-cache-port';
import type { PlanCacheStore } from '../core/storage/plan-cache-store';
import type { TaskStore } from '../core/storage/task-store';
import { shownText } from '../shared/shown-text';
import { configuredPlannerFor } from './planner-options';
import { terminalSupervisor } from './terminal-supervisor';
import { terminalWords } from './terminal-words';
import { say, wordCode } from '../shared/said';

/** Why a fleet job's sensitive action was refused: its own `yes` counts only where this host's owner allows it. */
export const NOT_PRE_APPROVED = say('refusal.notPreApproved', { env: 'AMC_FLEET_JOBS_MAY_PRE_APPROVE=true' });

/** A job's person: its preset answers; a sensitive action approved only when the job asks and the host allows it. */
export function jobSupervisor(job: FleetJob, mayPreApprove: boolean, say: (line: string) => void): SupervisorPort {
  const preset = terminalSupervisor({ askLine: null, answers: job.answers, yes: job.yes && mayPreApprove, say });
  return {
    async ask(request, context) {
      if (request.request.kind === 'confirmation' && !(job.yes && mayPreApprove)) return { reply: { kind: 'unanswered', reason: NOT_PRE_APPROVED.text, reasonSaid: NOT_PRE_APPROVED.said }, by: 'no-one-present' };
      return preset.ask(request, context);
    },
  };
}

export interface FleetJobRunner {
  runJob: RunJob;
  /** Stops reading the idle phones. */
  close(): Promise<void>;
}

/**
 * A RunJob on `adb`'s phones; a phone another task holds is refused in plain words, and nothing runs. What the first
 * turn on the `offered` phones needs is loaded now, not while the first job waits; with `readIdlePhones`, the screens
 * of the phones waiting for a job are read meanwhile too (see idle-readings.ts).
 */
export async function fleetJobRunner(
  adb: AdbClient,
  say: (line: string) => void,
  offered: readonly string[],
  { readIdlePhones }: { readIdlePhones: boolean },
): Promise<FleetJobRunner> {
  const { resolveAmcHome } = await import('../core/storage/settings-store');
  const { createTaskStore } = await import('../core/storage/task-store');
  const { createDeviceLocks } = await import('../core/storage/device-lock');
  const { createHeadlessRunner } = await import('../core/headless/headless-runner');
  const { phoneHelpersFor } = await import('../app/phone-typing');
  const { APP_CLOSED_REASON } = await import('../core/runtime/task-runner');
  const { foldFlowRun } = await import('../core/flows/flow-run-fold');
  const { flowRunPlanner } = await import('../core/flows/flow-planner');
  const { warmUpFirstTurn } = await import('../app/first-turn-warm-up');
  const { Observer } = await import('../core/perception/observer');
  const { IdleReadings } = await import('../core/perception/idle-readings');
  const { createPlanCacheStore } = await import('../core/storage/plan-cache-store');
  const home = resolveAmcHome(process.env);
  // Checked once at start: a worker whose settings cannot run a task says so before it takes any job.
  const atStart = await configuredPlannerFor({});
  await warmUpFirstTurn(atStart.config, atStart.configured, offered);
  const history = createTaskStore(home);
  const planCacheStore = createPlanCacheStore(home);
  const deviceLock = createDeviceLocks(home);
  const readings = readIdlePhones ? new IdleReadings(new Observer(adb, { screenshot: false }), { isFree: async (serial) => (await deviceLock.holder(serial)) === null }) : null;
  readings?.watch(offered);

  const runJob: RunJob = async (job, serial, signal) => {
    const { config, configured } = await configuredPlannerFor({});
    // A flow job runs its flow's steps (the model only for its ai and ask_ai steps); its result folds the task's events.
    const flow = job.flow?.content;
    const events: TaskEvent[] = [];
    const cached = await planCacheForJob(job.goal, config, configured, { cache: planCacheStore, history });
    const planner = flow ? flowRunPlanner(flow, config, configured) : cached.planner;
    // What the task says on the worker's terminal may quote the job (its answers) or the screen: each line escaped.
    const sayLines = (text: string) => text.split('\n').forEach((line) => say(`${serial}: ${shownText(line)}`));
    const supervisor = jobSupervisor(job, config.settings.fleet.jobsMayPreApprove, sayLines);
    const { typing } = phoneHelpersFor({ adb: async () => adb, settings: async () => config.settings, home });
    const runner = createHeadlessRunner(adb, {
      deviceLock,
      supervisor,
      typing,
      ...(readings && { readings }),
      ...(cached.planCache && { planCache: cached.planCache }),
    });
    runner.on((event) => void history.append(event).catch(() => undefined));
    if (flow) runner.on((event) => events.push(event));
    const request = { serial, goal: job.goal, ...(job.maxSteps && { maxSteps: job.maxSteps }), ...(job.allowedApps && { allowedApps: job.allowedApps }) };
    const release = (await readings?.hold(serial)) ?? (() => undefined);
    try {
      const handle = await runner.start(request, { planner });
      const stop = () => handle.stop(APP_CLOSED_REASON);
      signal.addEventListener('abort', stop, { once: true });
      try {
        const record = await handle.done;
        return { record, ...(flow && { flowSteps: foldFlowRun(flow, events).steps }) };
      } finally {
        signal.removeEventListener('abort', stop);
      }
    } finally {
      release();
    }
  };
  return { runJob, close: async () => readings?.close() };
}

/**
 * A goal job's planner and what its run may teach: the plan cache only where this machine's owner lets jobs use and
 * teach it (`fleet.jobsUsePlanCache`, off), since a job is whatever someone wrote to the fleet's Redis.
 */
export async function planCacheForJob(
  goal: string,
  config: RuntimeConfig,
  configured: ConfiguredPlanner,
  sources: { cache: PlanCacheStore; history: Pick<TaskStore, 'get'> },
): Promise<{ planner: ConfiguredPlanner; planCache?: PlanCachePort }> {
  if (!config.settings.fleet.jobsUsePlanCache) return { planner: configured };
  const { planCacheLearner, withPlanCache } = await import('../core/flows/plan-cache');
  return { planner: await withPlanCache(configured, goal, sources, config.settings.aiPlanner.reuseRuns), planCache: planCacheLearner(sources.cache) };
}

/** Why this host refuses a job: a flow whose steps its tools cannot carry out (a hand-written payload), in this host's language. */
export async function jobRefusal(): Promise<(job: FleetJob) => string | null> {
  const { flowProblems } = await import('../core/flows/flow-file');
  const { problemsSaid } = await import('../core/flows/flow-problem-said');
  return (job) => {
    const problems = job.flow ? flowProblems(job.flow.content) : [];
    return problems.length ? wordCode('flowFile.jobProblems', { count: problems.length, problemsSaid: problemsSaid(problems) }, terminalWords()) : null;
  };
}
