import type { CliCommand } from '../command';
import { UsageError } from '../command';
import { parseCommandArgs } from '../args';
import { ADB_OPTIONS_USAGE, adbFromOptions, adbOptions, addressArgument } from './devices';
import { terminalWords } from '../terminal-words';

export const connectCommand: CliCommand = {
  name: 'connect',
  usage: `amc connect HOST:PORT ${ADB_OPTIONS_USAGE}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, adbOptions, true);
    if (positionals.length !== 1) throw new UsageError(terminalWords().t('cli:usageError.oneAddress'));
    const target = await addressArgument(positionals[0]!);
    const adb = await adbFromOptions(values);
    const serial = await adb.connectDevice(target, { timeoutMs: 20_000 });
    io.out(terminalWords().t('cli:address.connected', { serial }));
    return 0;
  },
};
