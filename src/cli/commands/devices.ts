import type { CliCommand } from '../command';
import { UsageError } from '../command';
import { parseCommandArgs, parsePort } from '../args';
import type { AdbClient } from '../../core/device/adb-client';
import type { DeviceSummary } from '../../shared/device';
import type { Settings } from '../../shared/settings';
import { terminalWords } from '../terminal-words';
import type { Words } from '../../shared/i18n/translate';
import { wordSaid } from '../../shared/said';

/** adb server options shared by the device commands (devices, connect, disconnect, pair, observe, act). */
export const adbOptions = {
  'adb-host': { type: 'string' },
  'adb-port': { type: 'string' },
  'adb-path': { type: 'string' },
} as const;
export const ADB_OPTIONS_USAGE = '[--adb-host H] [--adb-port P] [--adb-path PATH]';

/** The adb client for the command's options (ANDROID_ADB_SERVER_PORT applies when --adb-port is absent). */
export async function adbFromOptions(values: { 'adb-host'?: string; 'adb-port'?: string; 'adb-path'?: string }): Promise<AdbClient> {
  const { AdbClient } = await import('../../core/device/adb-client');
  return AdbClient.create({
    host: values['adb-host'],
    port: parsePort(values['adb-port'], '--adb-port'),
    adbPath: values['adb-path'],
  });
}

/** The adb client for a task: the adb server in Settings (ANDROID_ADB_SERVER_PORT applied), each given flag winning. */
export async function adbForTask(values: { 'adb-host'?: string; 'adb-port'?: string; 'adb-path'?: string }, settings: Settings): Promise<AdbClient> {
  const { AdbClient } = await import('../../core/device/adb-client');
  const { adbServerOptions } = await import('../../app/device-service');
  return AdbClient.create({
    ...adbServerOptions(settings, process.env),
    ...(values['adb-host'] ? { host: values['adb-host'] } : {}),
    ...(values['adb-port'] ? { port: parsePort(values['adb-port'], '--adb-port') } : {}),
    ...(values['adb-path'] ? { adbPath: values['adb-path'] } : {}),
  });
}

/** A HOST:PORT argument, checked before any adb work: a malformed one is a usage error (exit code 2). */
export async function addressArgument(target: string): Promise<string> {
  const { parseHostPort } = await import('../../core/device/adb-client');
  try {
    parseHostPort(target);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  return target;
}

/**
 * `-s SERIAL`, else ANDROID_SERIAL, else the only phone ready for commands. A serial the adb server does not know,
 * or no choice to make, is a usage error (exit code 2) before anything runs or is recorded.
 */
export async function pickSerial(adb: AdbClient, requested: string | undefined): Promise<string> {
  const { t } = terminalWords();
  const explicit = requested?.trim() || process.env.ANDROID_SERIAL?.trim();
  const listed = await adb.listDevices();
  const usable = listed.filter((device) => device.state === 'device');
  if (explicit) {
    if (listed.some((device) => device.serial === explicit)) return explicit;
    const known = listed.length ? t('cli:devices.knows', { serials: listed.map((d) => d.serial).join(', ') }) : '';
    throw new UsageError(t('cli:devices.unknownSerial', { serial: explicit, address: adb.address, known }));
  }
  if (usable.length === 1) return usable[0]!.serial;
  if (usable.length === 0) throw new UsageError(t('cli:devices.noneReady'));
  throw new UsageError(t('cli:devices.severalReady', { serials: usable.map((d) => d.serial).join(', ') }));
}

/** An AbortSignal that fires on Ctrl-C while `work` runs. */
export async function withInterrupt<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', interrupt);
  }
}

function describeLine(device: DeviceSummary, words: Words): string {
  const { t } = words;
  const state = device.state === 'device' || device.state === 'offline' || device.state === 'unauthorized' ? t(`cli:devices.state.${device.state}`) : device.state;
  const facts = [
    state,
    device.model,
    device.androidVersion && `Android ${device.androidVersion}`,
    device.screen && `${device.screen.width}x${device.screen.height}${device.screen.density ? ` @${device.screen.density}dpi` : ''}`,
    device.connection.toUpperCase(),
  ].filter(Boolean);
  const hint = device.hint ? wordSaid(device.hint, device.hintSaid, words) : null;
  return `${device.serial}  ${facts.join(', ')}${hint ? `\n    -> ${hint}` : ''}`;
}

export const devicesCommand: CliCommand = {
  name: 'devices',
  usage: `amc devices [--json] ${ADB_OPTIONS_USAGE}`,
  async run(args, io) {
    const { values } = parseCommandArgs(args, { json: { type: 'boolean' }, ...adbOptions });
    const adb = await adbFromOptions(values);
    const { describeDevice } = await import('../../core/device/device-info');
    const entries = await adb.listDevices({ timeoutMs: 10_000 });
    const devices = await Promise.all(entries.map((entry) => describeDevice(adb, entry.serial, entry.state, { timeoutMs: 10_000 })));
    if (values.json) {
      const { helpersOfReadyPhones } = await import('../../app/phone-typing');
      const helpers = await helpersOfReadyPhones(adb, devices);
      io.out(JSON.stringify(devices.map((device) => ({ ...device, ...(helpers.has(device.serial) && { helpers: helpers.get(device.serial) }) })), null, 2));
    } else if (devices.length === 0) {
      io.out(terminalWords().t('cli:devices.none', { address: adb.address }));
    } else {
      for (const device of devices) io.out(describeLine(device, terminalWords()));
    }
    return 0;
  },
};
