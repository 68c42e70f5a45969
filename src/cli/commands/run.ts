import { UsageError, type CliCommand, type CliIo } from '../command';
import { parseCommandArgs } from '../args';
import { ADB_OPTIONS_USAGE, adbForTask, adbOptions } from './devices';
import { configuredPlannerFor, maxStepsOf, PLANNER_OPTIONS_USAGE, plannerOptions, plannerOverrides } from '../planner-options';
import { allowedAppsOf, presetAnswers, SUPERVISION_OPTIONS_USAGE, supervisionOptions } from '../supervision-options';
import { runTaskAtTerminal } from '../task-at-terminal';
import { LAUNCH_TARGETS_USAGE, launchTargetOptions, launchTargetsOf } from '../launch-targets';
import type { LaunchTargets } from '../../shared/device-groups';
import { terminalWords } from '../terminal-words';

const USAGE = `amc run ${LAUNCH_TARGETS_USAGE} --goal TEXT ${PLANNER_OPTIONS_USAGE} ${SUPERVISION_OPTIONS_USAGE} [--json] ${ADB_OPTIONS_USAGE}`;

type RunValues = Parameters<typeof plannerOverrides>[0] & Parameters<typeof allowedAppsOf>[0] & Parameters<typeof adbForTask>[0] & { yes?: boolean; json?: boolean };

/** One goal on several phones at once, each its own task under one launch id (see run-launch.ts). */
async function launchAtTerminal(targets: LaunchTargets, goal: string, values: RunValues, io: CliIo): Promise<number> {
  const maxSteps = maxStepsOf(values);
  const allowedApps = allowedAppsOf(values);
  const { config, configured } = await configuredPlannerFor(plannerOverrides(values));
  const adb = await adbForTask(values, config.settings);
  const { runLaunch } = await import('../run-launch');
  const launch = { command: 'run', targets, goal, answers: presetAnswers(values), yes: values.yes ?? false, json: values.json ?? false, ...(maxSteps && { maxSteps }), ...(allowedApps && { allowedApps }) };
  return runLaunch(launch, io, adb, config, configured);
}

export const runCommand: CliCommand = {
  name: 'run',
  usage: USAGE,
  async run(args, io) {
    const { values } = parseCommandArgs(args, {
      ...launchTargetOptions,
      goal: { type: 'string' },
      ...plannerOptions,
      ...supervisionOptions,
      json: { type: 'boolean' },
      ...adbOptions,
    });
    const goal = values.goal?.trim();
    if (!goal) throw new UsageError(terminalWords().t('cli:usageError.goalRequired'));
    const targets = launchTargetsOf(values);
    if (targets) return launchAtTerminal(targets, goal, values, io);
    return runTaskAtTerminal('run', values, io, async ({ config, configured, history }) => {
      const { withPlanCache } = await import('../../core/flows/plan-cache');
      const { createPlanCacheStore } = await import('../../core/storage/plan-cache-store');
      const { resolveAmcHome } = await import('../../core/storage/settings-store');
      const cache = createPlanCacheStore(resolveAmcHome(process.env));
      return { goal, planner: await withPlanCache(configured, goal, { cache, history }, config.settings.aiPlanner.reuseRuns) };
    });
  },
};
