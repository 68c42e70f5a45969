import { UsageError, type CliCommand } from '../command';
import { parseCommandArgs } from '../args';
import { ADB_OPTIONS_USAGE, adbOptions } from './devices';
import { PLANNER_OPTIONS_USAGE, plannerOptions } from '../planner-options';
import { SUPERVISION_OPTIONS_USAGE, supervisionOptions } from '../supervision-options';
import { runTaskAtTerminal } from '../task-at-terminal';
import { saidWords } from '../../shared/supervision-words';
import { terminalWords } from '../terminal-words';

const USAGE = `amc replay TASK_ID [-s SERIAL] [--let-model-fix] ${PLANNER_OPTIONS_USAGE} ${SUPERVISION_OPTIONS_USAGE} [--json] ${ADB_OPTIONS_USAGE}`;

/**
 * `amc replay TASK_ID`: a task that was done carried out again, step by step on the fresh screen, never calling the
 * model: where the screen differs it stops and says what it sees. `--let-model-fix` hands such a step to the AI
 * planner (its steps are marked "planned by the model"). The same supervision, output and exit codes as `amc run`.
 */
export const replayCommand: CliCommand = {
  name: 'replay',
  usage: USAGE,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { serial: { type: 'string', short: 's' }, 'let-model-fix': { type: 'boolean' }, ...plannerOptions, ...supervisionOptions, json: { type: 'boolean' }, ...adbOptions },
      true,
    );
    if (positionals.length !== 1 || !positionals[0]!.trim()) throw new UsageError(terminalWords().t('cli:usageError.oneTaskId'));
    const id = positionals[0]!.trim();
    const { TaskStoreError } = await import('../../core/storage/task-store');
    const { replayPlannerFor, ReplayRefused } = await import('../../core/flows/replay-task');
    return runTaskAtTerminal('replay', values, io, async ({ configured, history }) => {
      const record = await history.get(id).catch((error: unknown) => {
        throw error instanceof TaskStoreError ? new UsageError(terminalWords().t('cli:usageError.historyUnreadable', { id, reason: saidWords(error.message, error.said, terminalWords()) })) : error;
      });
      if (!record) throw new UsageError(terminalWords().t('cli:usageError.noTask', { id }));
      try {
        return { goal: record.goal, planner: replayPlannerFor(record, configured, { letModelFix: values['let-model-fix'] ?? false }) };
      } catch (error) {
        throw error instanceof ReplayRefused ? new UsageError(error.message) : error;
      }
    });
  },
};
