import { UsageError, type CliCommand } from '../command';
import { parseCommandArgs } from '../args';
import { ADB_OPTIONS_USAGE, adbOptions } from './devices';
import { PLANNER_OPTIONS_USAGE, plannerOptions } from '../planner-options';
import { SUPERVISION_OPTIONS_USAGE, supervisionOptions } from '../supervision-options';
import { runTaskAtTerminal } from '../task-at-terminal';

const USAGE = `amc run [-s SERIAL] --goal TEXT ${PLANNER_OPTIONS_USAGE} ${SUPERVISION_OPTIONS_USAGE} [--json] ${ADB_OPTIONS_USAGE}`;

export const runCommand: CliCommand = {
  name: 'run',
  usage: USAGE,
  async run(args, io) {
    const { values } = parseCommandArgs(args, {
      serial: { type: 'string', short: 's' },
      goal: { type: 'string' },
      ...plannerOptions,
      ...supervisionOptions,
      json: { type: 'boolean' },
      ...adbOptions,
    });
    const goal = values.goal?.trim();
    if (!goal) throw new UsageError('--goal TEXT is required');
    return runTaskAtTerminal('run', values, io, async ({ config, configured, history }) => {
      const { withPlanCache } = await import('../../main/replay/plan-cache');
      return { goal, planner: await withPlanCache(configured, goal, history, config.settings.aiPlanner.reuseRuns) };
    });
  },
};
