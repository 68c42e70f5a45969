import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ExitCode, type CliCommand, type CliIo } from '../command';
import { parseCommandArgs } from '../args';
import { EXTRA_DOCTOR_CHECKS, type DoctorRow } from '../doctor-checks';
import { ADB_OPTIONS_USAGE, adbForTask, adbOptions } from './devices';
import { plainReason } from '../../shared/plain-words';
import { ENGLISH, type Words } from '../../shared/i18n/translate';
import { textForReader } from '../../shared/said';
import { terminalWords } from '../terminal-words';
import type { RuntimeConfig } from '../../core/runtime/config';
import type { AdbClient } from '../../core/device/adb-client';
import { padColumns, terminalColumns } from '../../shared/terminal-columns';

const run = promisify(execFile);
const message = (error: unknown) => plainReason(error instanceof Error ? error.message : String(error));

async function adbVersionRow(adbPath: string, { t }: Words): Promise<DoctorRow> {
  try {
    const { stdout } = await run(adbPath, ['version'], { timeout: 10_000 });
    const version = /version ([\d.]+)/i.exec(stdout)?.[1];
    return { check: 'adb', status: 'ok', detail: version ? t('doctor:adbFoundVersion', { path: adbPath, version }) : t('doctor:adbFound', { path: adbPath }) };
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      check: 'adb',
      status: 'fail',
      detail: missing ? t('doctor:adbMissing', { path: adbPath }) : t('doctor:adbFailed', { path: adbPath, reason: message(error) }),
      fix: t('doctor:adbFix'),
    };
  }
}

async function phoneRows(adb: AdbClient, { t }: Words): Promise<{ rows: DoctorRow[]; ready: string[] }> {
  const { describeDevice } = await import('../../core/device/device-info');
  const { createDeviceLocks, freeingWords, holderWords } = await import('../../core/storage/device-lock');
  const { resolveAmcHome } = await import('../../core/storage/settings-store');
  const locks = createDeviceLocks(resolveAmcHome(process.env));
  const entries = await adb.listDevices({ timeoutMs: 10_000 });
  if (entries.length === 0) {
    return {
      rows: [{ check: 'phones', status: 'fail', detail: t('doctor:noPhone'), fix: t('doctor:noPhoneFix') }],
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
      return { check: `phone ${device.serial}`, status: 'warn', detail: t('doctor:phoneBusy', { holder: holderWords(holder) }), fix: freeingWords(holder) };
    }
    return device.state === 'device'
      ? { check: `phone ${device.serial}`, status: 'ok', detail: about ? t('doctor:phoneReadyAbout', { about }) : t('doctor:phoneReady') }
      : { check: `phone ${device.serial}`, status: 'fail', detail: device.state, ...(device.hint && { fix: device.hint }) };
  });
  return { rows, ready: devices.filter((device) => device.state === 'device').map((device) => device.serial) };
}

async function modelRow(config: RuntimeConfig, words: Words): Promise<DoctorRow> {
  const { t } = words;
  if (!config.settings.aiPlanner.enabled) {
    return { check: 'planner', status: 'warn', detail: t('doctor:plannerOff'), fix: t('doctor:plannerOffFix') };
  }
  const { testConnection } = await import('../../app/connection-check');
  const report = await testConnection(config);
  // A setting left empty is named in the terminal's language; the rest is main's words by their codes.
  const { missingForAiPlanner } = await import('../../core/runtime/config');
  const found = report.result === 'not-configured' ? missingForAiPlanner(config, words).join(t('common:clauseSeparator')) : textForReader(report.message, report.said, words);
  const detail = t('doctor:modelDetail', { target: textForReader(report.target, report.targetSaid, words), found });
  return report.result === 'ok' ? { check: 'model', status: 'ok', detail } : { check: 'model', status: 'fail', detail, fix: t('doctor:modelFix') };
}

/** A check's name as printed; the rows keep the English one (`--json`, and which checks block). */
function checkLabel(check: string, { t }: Words): string {
  if (check.startsWith('phone ')) return t('doctor:check.phone', { serial: check.slice('phone '.length) });
  return t(`doctor:check.${check}`, { defaultValue: check });
}

function print(rows: DoctorRow[], io: CliIo, words: Words): void {
  const labels = rows.map((row) => checkLabel(row.check, words));
  const width = Math.max(...labels.map(terminalColumns));
  rows.forEach((row, index) => {
    const label = labels[index]!;
    io.out(`${words.t(`doctor:mark.${row.status}`)}  ${padColumns(label, width)}  ${row.detail}`);
    if (row.fix) io.out(`${' '.repeat(width + 8)}-> ${row.fix}`);
  });
}

export const doctorCommand: CliCommand = {
  name: 'doctor',
  usage: `amc doctor [--json] ${ADB_OPTIONS_USAGE}`,
  async run(args, io) {
    const { values } = parseCommandArgs(args, { json: { type: 'boolean' }, ...adbOptions });
    // `--json` is for scripts: English whatever the terminal's language.
    const words = values.json ? ENGLISH : terminalWords();
    const { t } = words;
    const { createConfigSource } = await import('../../core/runtime/config');
    const { defaultSettings } = await import('../../shared/settings');
    const rows: DoctorRow[] = [];

    let config: RuntimeConfig | null = null;
    try {
      config = await createConfigSource().load();
      rows.push({ check: 'settings', status: 'ok', detail: t('doctor:settingsValid') });
    } catch (error) {
      rows.push({ check: 'settings', status: 'fail', detail: message(error), fix: t('doctor:settingsFix') });
    }
    const settings = config?.settings ?? defaultSettings();
    rows.unshift(await adbVersionRow(values['adb-path'] ?? 'adb', words));

    let adb: AdbClient | null = null;
    let ready: string[] = [];
    try {
      adb = await adbForTask(values, settings);
      rows.push({ check: 'adb server', status: 'ok', detail: t('doctor:adbReachable', { address: adb.address }) });
      const phones = await phoneRows(adb, words);
      rows.push(...phones.rows);
      ready = phones.ready;
    } catch (error) {
      rows.push({ check: 'adb server', status: 'fail', detail: message(error), fix: t('doctor:adbServerFix') });
    }
    if (config) rows.push(await modelRow(config, words));
    const controller = new AbortController();
    for (const check of EXTRA_DOCTOR_CHECKS) rows.push(...(await check({ adb, readySerials: ready, signal: controller.signal })));

    // A phone that is not ready is fine when another one is: the task can still run there.
    const blocking = rows.filter((row) => row.status === 'fail' && !(row.check.startsWith('phone ') && ready.length > 0));
    const canRun = blocking.length === 0;
    if (values.json) io.out(JSON.stringify({ canRun, checks: rows }, null, 2));
    else {
      print(rows, io, words);
      io.out(canRun ? t('doctor:canRun') : t('doctor:cannotRun', { checks: blocking.map((row) => checkLabel(row.check, words)).join(', ') }));
    }
    return canRun ? ExitCode.ok : ExitCode.failed;
  },
};
