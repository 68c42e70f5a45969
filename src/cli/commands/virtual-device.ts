import type { CliCommand } from '../command';
import { ExitCode, UsageError } from '../command';
import { parseCommandArgs, parsePort } from '../args';
import { untilStopped } from '../until-stopped';
import { terminalWords } from '../terminal-words';

const DEFAULT_ADB_PORT = 5601;
const DEFAULT_CONTROL_PORT = 5602;
/** The adb server probes these loopback ports as emulators; a device there shows up twice. */
const EMULATOR_PROBE_PORTS = { first: 5555, last: 5585 };

export const virtualDeviceCommand: CliCommand = {
  name: 'virtual-device',
  usage: 'amc virtual-device [--port 5601] [--control-port 5602] [--profile instant|realistic]',
  async run(args, io) {
    const { t } = terminalWords();
    const { values } = parseCommandArgs(args, {
      port: { type: 'string' },
      'control-port': { type: 'string' },
      profile: { type: 'string' },
    });
    const port = parsePort(values.port, '--port') ?? DEFAULT_ADB_PORT;
    const controlPort = parsePort(values['control-port'], '--control-port') ?? DEFAULT_CONTROL_PORT;
    const profile = values.profile ?? 'instant';
    if (profile !== 'instant' && profile !== 'realistic') {
      throw new UsageError(t('cli:usageError.oneOf', { option: '--profile', accepted: 'instant, realistic', value: profile }));
    }
    if (port !== 0 && port === controlPort) throw new UsageError(t('cli:usageError.portsDiffer'));
    if (port >= EMULATOR_PROBE_PORTS.first && port <= EMULATOR_PROBE_PORTS.last) {
      io.err(t('cli:virtualDevice.emulatorPort', { port }));
    }

    const { startVirtualDevice } = await import('@amc/demo-phone');
    let device;
    try {
      device = await startVirtualDevice({
        port,
        controlPort,
        profile,
        onError: (error) => io.err(t('cli:virtualDevice.problem', { problem: error instanceof Error ? error.message : String(error) })),
      });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'EADDRINUSE' || code === 'EACCES') {
        const where = (error as { port?: number }).port ?? '';
        io.err(t('cli:virtualDevice.cannotListen', { port: where, code }));
        return ExitCode.failed;
      }
      throw error;
    }
    io.out(t('cli:virtualDevice.ready', { address: device.adbAddress, controlUrl: device.controlUrl, profile }));

    await untilStopped();
    await device.close();
    return ExitCode.ok;
  },
};
