import { ExitCode, UsageError, type CliCommand, type CliIo } from '../command';
import { parseCommandArgs } from '../args';
import { FLOW_VAR_USAGE, flowFileArgument, flowVarOption, flowVarsOf, readFlowFile } from '../flow-files';
import { FLOW_HEAL_USAGE, FLOW_RUN_USAGE, healFlowFile, runFlowFile } from '../flow-run';
import { exportFlow, FLOW_EXPORT_USAGE } from '../flow-export';
import { terminalWords } from '../terminal-words';

const CHECK_USAGE = `amc flow check FILE ${FLOW_VAR_USAGE}`;

/** `amc flow check FILE`: every problem of the file with its line and column (exit 2), or what the flow does (exit 0). */
async function check(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { ...flowVarOption }, true);
  const file = flowFileArgument(positionals, CHECK_USAGE);
  const { FlowFileError } = await import('../../core/flows/flow-file');
  try {
    const flow = await readFlowFile(file, flowVarsOf(values));
    const vars = Object.keys(flow.vars);
    const { t } = terminalWords();
    io.out(`${t('cli:flowCheck.ok', { file, count: flow.steps.length, goal: flow.goal })}${vars.length ? t('cli:flowCheck.variables', { names: vars.join(', ') }) : ''}`);
    return ExitCode.ok;
  } catch (error) {
    if (!(error instanceof FlowFileError)) throw error;
    io.err(`amc flow check: ${error.wordedIn(terminalWords())}`);
    return ExitCode.usage;
  }
}

const SUBCOMMANDS: Record<string, { usage: string; run(args: string[], io: CliIo): Promise<number> }> = {
  run: { usage: FLOW_RUN_USAGE, run: runFlowFile },
  check: { usage: CHECK_USAGE, run: check },
  heal: { usage: FLOW_HEAL_USAGE, run: healFlowFile },
  export: { usage: FLOW_EXPORT_USAGE, run: exportFlow },
};

export const flowCommand: CliCommand = {
  name: 'flow',
  usage: Object.values(SUBCOMMANDS)
    .map((subcommand) => subcommand.usage)
    .join('\n       '),
  moreHelp: async () => terminalWords().t('cli:usageNote.flowExport'),
  async run(args, io) {
    const [name, ...rest] = args;
    const subcommand = name === undefined ? undefined : SUBCOMMANDS[name];
    if (!subcommand) throw new UsageError(terminalWords().t(name === undefined ? 'cli:usageError.flowWhatToDo' : 'cli:usageError.flowUnknown', { name, subcommands: Object.keys(SUBCOMMANDS).join(', ') }));
    return subcommand.run(rest, io);
  },
};
