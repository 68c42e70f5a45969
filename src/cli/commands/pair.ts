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
    if (positionals.length !== 2) throw new UsageError('give the pairing HOST:PORT and the 6-digit CODE shown on the phone');
    const target = await addressArgument(positionals[0]!);
    const code = positionals[1]!;
    if (!/^\d{6}$/.test(code)) throw new UsageError(terminalWords().t('cli:usageError.pairingCode', { code }));
    const adb = await adbFromOptions(values);
    io.out(await adb.pair(target, code));
    io.out('Now connect with `amc connect HOST:PORT`, using the address shown under "Wireless debugging" (not the pairing port).');
    return 0;
  },
};
