import type { CliCommand } from '../command';
import { UsageError } from '../command';
import { parseCommandArgs } from '../args';
import { ADB_OPTIONS_USAGE, adbFromOptions, adbOptions, addressArgument } from './devices';
import { terminalWords } from '../terminal-words';

export const pairCommand: CliCommand = {
  name: 'pair',
  usage: `amc pair HOST:PORT CODE ${ADB_OPTIONS_USAGE}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, adbOptions, true);
    if (positionals.length !== 2) throw new UsageError(terminalWords().t('cli:usageError.pairArguments'));
    const target = await addressArgument(positionals[0]!);
    const code = positionals[1]!;
    if (!/^\d{6}$/.test(code)) throw new UsageError(terminalWords().t('cli:usageError.pairingCode', { code }));
    const adb = await adbFromOptions(values);
    const { t } = terminalWords();
    io.out(t('cli:address.paired', { adbText: await adb.pair(target, code) }));
    io.out(t('cli:address.connectNext'));
    return 0;
  },
};
