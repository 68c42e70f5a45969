import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ExitCode, type CliCommand, type CliIo } from '../command';
import { parseCommandArgs } from '../args';
import { EXTRA_DOCTOR_CHECKS, type DoctorRow } from '../doctor-checks';
import { ADB_OPTIONS_USAGE, adbForTask, adbOptions } from './devices';
import { plainReason } from '../../shared/plain-words';
import type { RuntimeConfig } from '../../main/runtime/config';
import type { AdbClient } from '../../main/device/adb-client';

const run = promisify(execFile);
const message = (error: unknown) => plainReason(error instanceof Error ? error.message : String(error));

async function adbVersionRow(adbPath: string): Promise<DoctorRow> {
  try {
    const { stdout } = await run(adbPath, ['version'], { timeout: 10_000 });
    const version = /version ([\d.]+)/i.exec(stdout)?.[1];
    return { check: 'adb', status: 'ok', detail: `${adbPath} found${version ? `, version ${version}` : ''}` };
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      check: 'adb',
      status: 'fail',
      detail: missing ? `${adbPath} was not found` : `${adbPath} did not run: ${message(error)}`,
      fix: 'Install Android platform tools (Debian/Ubuntu: apt-get install adb) or give its path with --adb-path.',
    };
  }
}

async function phoneRows(adb: AdbClient): Promise<{ rows: DoctorRow[]; ready: string[] }> {
  const { describeDevice } = await import('../../main/device/device-info');
  const { createDeviceLocks, freeingWords, holderWords } = await import('../../main/storage/device-lock');
  const { resolveAmcHome } = await import('../../main/storage/settings-store');
  const locks = createDeviceLocks(resolveAmcHome(process.env));
  const entries = await adb.listDevices({ timeoutMs: 10_000 });
  if (entries.length === 0) {
    return {
      rows: [{ check: 'phones', status: 'fail', detail: 'no phone is connected', fix: 'Plug a phone in with USB debugging on, `amc connect HOST:PORT`, or start the demo phone (`amc virtual-device`, or "Start demo phone" in the app).' }],
      ready: [],
    };
  }
  const devices = await Promise.all(entries.map((entry) => describeDevice(adb, entry.serial, entry.state, { timeoutMs: 10_000 })));
  const holders = await Promise.all(devices.map((device) => locks.holder(device.serial).catch(() => null)));
  const rows = devices.map((device, index): DoctorRow => {
    const about = [device.model, device.androidVersion && `Android ${device.androidVersion}`].filter(Boolean).join(', ');
    const holder = holders[index];
    if (device.state === 'device' && holder) {
      // Connected, but a task cannot take it until its holder lets go.
      return { check: `phone ${device.serial}`, status: 'warn', detail: `busy: driven by ${holderWords(holder)}`, fix: freeingWords(holder) };
    }
    return device.state === 'device'
      ? { check: `phone ${device.serial}`, status: 'ok', detail: `ready${about ? ` (${about})` : ''}` }
      : { check: `phone ${device.serial}`, status: 'fail', detail: device.state, ...(device.hint && { fix: device.hint }) };
  });
  return { rows, ready: devices.filter((device) => device.state === 'device').map((device) => device.serial) };
}

async function modelRow(config: RuntimeConfig): Promise<DoctorRow> {
  if (!config.settings.aiPlanner.enabled) {
    return { check: 'planner', status: 'warn', detail: 'the AI planner is off: tasks only look at the screen', fix: 'Turn on the AI planner in Settings (`amc serve`) or set AI_PLANNER_ENABLED=true.' };
  }
  const { testConnection } = await import('../../main/app/connection-check');
  const report = await testConnection(config);
  return report.result === 'ok'
    ? { check: 'model', status: 'ok', detail: `${report.target}: ${report.message}` }
    : { check: 'model', status: 'fail', detail: `${report.target}: ${report.message}`, fix: 'Fix it in Settings (`amc serve`), then run `amc doctor` again.' };
}

function print(rows: DoctorRow[], io: CliIo): void {
  const mark = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' } as const;
  const width = Math.max(...rows.map((row) => row.check.length));
  for (const row of rows) {
    io.out(`${mark[row.status]}  ${row.check.padEnd(width)}  ${row.detail}`);
    if (row.fix) io.out(`${' '.repeat(width + 8)}-> ${row.fix}`);
  }
}

export const doctorCommand: CliCommand = {
  name: 'doctor',
  usage: `amc doctor [--json] ${ADB_OPTIONS_USAGE}`,
  async run(args, io) {
    const { values } = parseCommandArgs(args, { json: { type: 'boolean' }, ...adbOptions });
    const { createConfigSource } = await import('../../main/runtime/config');
    const { defaultSettings } = await import('../../shared/settings');
    const rows: DoctorRow[] = [];

    let config: RuntimeConfig | null = null;
    try {
      config = await createConfigSource().load();
      rows.push({ check: 'settings', status: 'ok', detail: 'valid' });
    } catch (error) {
      rows.push({ check: 'settings', status: 'fail', detail: message(error), fix: 'Correct the value named above in Settings (`amc serve`) or in the environment.' });
    }
    const settings = config?.settings ?? defaultSettings();
    rows.unshift(await adbVersionRow(values['adb-path'] ?? 'adb'));

    let adb: AdbClient | null = null;
    let ready: string[] = [];
    try {
      adb = await adbForTask(values, settings);
      rows.push({ check: 'adb server', status: 'ok', detail: `reachable at ${adb.address}` });
      const phones = await phoneRows(adb);
      rows.push(...phones.rows);
      ready = phones.ready;
    } catch (error) {
      rows.push({ check: 'adb server', status: 'fail', detail: message(error), fix: 'Start it with `adb start-server`, or check the adb server host and port in Settings.' });
    }
    if (config) rows.push(await modelRow(config));
    const controller = new AbortController();
    for (const check of EXTRA_DOCTOR_CHECKS) rows.push(...(await check({ adb, readySerials: ready, signal: controller.signal })));

    // A phone that is not ready is fine when another one is: the task can still run there.
    const blocking = rows.filter((row) => row.status === 'fail' && !(row.check.startsWith('phone ') && ready.length > 0));
    const canRun = blocking.length === 0;
    if (values.json) io.out(JSON.stringify({ canRun, checks: rows }, null, 2));
    else {
      print(rows, io);
      io.out(canRun ? 'A task can run.' : `A task cannot run yet: ${blocking.map((row) => row.check).join(', ')}.`);
    }
    return canRun ? ExitCode.ok : ExitCode.failed;
  },
};
