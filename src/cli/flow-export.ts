import { ExitCode, UsageError, type CliIo } from './command';
import { parseCommandArgs } from './args';

export const FLOW_EXPORT_USAGE = 'amc flow export TASK_ID [--format yaml|maestro]  (the flow\'s YAML on standard output: amc flow export TASK_ID > flow.yaml)';

/** `amc flow export TASK_ID`: a finished task from history as a flow file a person can read, edit and run again. */
export async function exportFlow(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { format: { type: 'string' } }, true);
  const format = values.format ?? 'yaml';
  if (format !== 'yaml' && format !== 'maestro') throw new UsageError(`--format is yaml (ours) or maestro, not "${format}"`);
  if (positionals.length !== 1) throw new UsageError(positionals.length ? `one task at a time, got ${positionals.join(', ')}` : 'the task id is missing (amc flow export TASK_ID; the app\'s History and `amc run` show task ids)');
  const id = positionals[0]!;
  const { resolveAmcHome } = await import('../main/storage/settings-store');
  const { createTaskStore } = await import('../main/storage/task-store');
  const { flowFromRecord, NothingToReplay } = await import('../main/replay/flow-from-record');
  const { flowToYaml } = await import('../main/flows/flow-to-yaml');
  const history = createTaskStore(resolveAmcHome(process.env));
  try {
    const record = await history.get(id);
    if (!record) throw new UsageError(`there is no task "${id}" in history (the app's History and \`amc run\` show task ids)`);
    const { flowToMaestro, NotExpressibleInMaestro } = await import('../main/flows/maestro-export');
    try {
      const flow = flowFromRecord(record);
      io.out((format === 'maestro' ? flowToMaestro(flow) : flowToYaml(flow)).trimEnd());
    } catch (error) {
      if (!(error instanceof NothingToReplay || error instanceof NotExpressibleInMaestro)) throw error;
      io.err(`amc flow export: ${error.message}`);
      return ExitCode.failed;
    }
    return ExitCode.ok;
  } finally {
    await history.close();
  }
}
