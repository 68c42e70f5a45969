import { ExitCode, UsageError, type CliIo } from './command';
import { parseCommandArgs } from './args';
import { terminalWords } from './terminal-words';
import { textForReader } from '../shared/said';

/** Where the YAML goes and what --why keeps are said in the help, in the terminal's language (cli:usageNote.flowExport). */
export const FLOW_EXPORT_USAGE = 'amc flow export TASK_ID [--format yaml|maestro] [--why]';

/**
 * `amc flow export TASK_ID`: a finished task from history as a flow file a person can read, edit and run again in CI
 * (recorded-flow-file.ts: it opens its app, one-off dialogs optional, typed values as vars, an assert of the outcome).
 */
export async function exportFlow(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { format: { type: 'string' }, why: { type: 'boolean' } }, true);
  const format = values.format ?? 'yaml';
  const { t } = terminalWords();
  if (format !== 'yaml' && format !== 'maestro') throw new UsageError(t('cli:usageError.exportFormat', { format }));
  if (positionals.length !== 1) throw new UsageError(positionals.length ? t('cli:usageError.exportOneTask', { ids: positionals.join(', ') }) : t('cli:usageError.exportNoTaskId'));
  const id = positionals[0]!;
  const { resolveAmcHome } = await import('../core/storage/settings-store');
  const { createTaskStore } = await import('../core/storage/task-store');
  const { NothingToReplay } = await import('../core/flows/flow-from-record');
  const { recordedFlowFile } = await import('../core/flows/recorded-flow-file');
  const { flowToYaml } = await import('../core/flows/flow-to-yaml');
  const history = createTaskStore(resolveAmcHome(process.env));
  try {
    const record = await history.get(id);
    if (!record) throw new UsageError(terminalWords().t('cli:usageError.noTaskToExport', { id }));
    const { flowToMaestro, NotExpressibleInMaestro } = await import('../core/flows/maestro-export');
    try {
      const maestro = format === 'maestro';
      const flow = recordedFlowFile(record, { why: values.why ?? false, outcomeAsText: maestro });
      io.out((maestro ? flowToMaestro(flow) : flowToYaml(flow, terminalWords())).trimEnd());
    } catch (error) {
      if (!(error instanceof NothingToReplay || error instanceof NotExpressibleInMaestro)) throw error;
      io.err(`amc flow export: ${textForReader(error.message, error.said, terminalWords())}`);
      return ExitCode.failed;
    }
    return ExitCode.ok;
  } finally {
    await history.close();
  }
}
