import { UsageError, type CliCommand, type CliIo } from '../command';
import { parseCommandArgs } from '../args';
import { ADB_OPTIONS_USAGE, adbForTask, adbOptions } from './devices';
import { configuredPlannerFor, maxStepsOf, PLANNER_OPTIONS_USAGE, plannerOptions, plannerOverrides } from '../planner-options';
import { allowedAppsOf, presetAnswers, SUPERVISION_OPTIONS_USAGE, supervisionOptions } from '../supervision-options';
import { runTaskAtTerminal } from '../task-at-terminal';
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

type RunValues = Parameters<typeof plannerOverrides>[0] & Parameters<typeof allowedAppsOf>[0] & Parameters<typeof adbForTask>[0] & { yes?: boolean; json?: boolean };

/** One goal on several phones at once, each its own task under one launch id (see run-launch.ts). */
async function launchAtTerminal(targets: LaunchTargets, goal: string, values: RunValues, io: CliIo): Promise<number> {
  const maxSteps = maxStepsOf(values);
  const allowedApps = allowedAppsOf(values);
  const { config, configured } = await configuredPlannerFor(plannerOverrides(values));
  const adb = await adbForTask(values, config.settings);
  const { runLaunch } = await import('../run-launch');
  const launch = { targets, goal, answers: presetAnswers(values), yes: values.yes ?? false, json: values.json ?? false, ...(maxSteps && { maxSteps }), ...(allowedApps && { allowedApps }) };
  return runLaunch(launch, io, adb, config, configured);
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
    const goal = values.goal?.trim();
    if (!goal) throw new UsageError('--goal TEXT is required');
    const targets = launchTargetsOf(values);
    if (targets) return launchAtTerminal(targets, goal, values, io);
    return runTaskAtTerminal('run', values, io, async ({ config, configured, history }) => {
      const { withPlanCache } = await import('../../main/replay/plan-cache');
      return { goal, planner: await withPlanCache(configured, goal, history, config.settings.aiPlanner.reuseRuns) };
    });
  },
};
