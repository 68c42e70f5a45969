import type { AdbClient } from '../adb-client';
import { HELPER_NAMES, HELPERS, type HelperName } from './catalog';
import type { HelperProvider } from './helper-provider';
import { PhoneFacts } from '../android/phone-facts';
import { ADB_KEYBOARD_IME, ime, parseImeList } from '../android/ime';

/** scrcpy-server 3.x runs on Android 5.0 (API 21) and later. */
const SCRCPY_MIN_SDK = 21;

export interface HelperUse {
  usable: boolean;
  /** Where the file comes from when usable; why not otherwise (one clause). */
  detail: string;
}

/** Which helpers a phone can use: the pushed ones (by file and Android version) and ADBKeyBoard (installed and enabled). */
export type PhoneHelperReport = Record<HelperName | 'adb-keyboard', HelperUse>;

/**
 * What `amc devices --json` (and `amc doctor`) say about a ready phone's helpers. Only reads: nothing is pushed.
 */
export async function phoneHelperReport(
  adb: Pick<AdbClient, 'shell'>,
  serial: string,
  provider: Pick<HelperProvider, 'get'>,
  options: { timeoutMs?: number } = {},
): Promise<PhoneHelperReport> {
  const call = { timeoutMs: options.timeoutMs ?? 10_000 };
  // The API level is a kept fact of the phone (the device list read it already); the enabled keyboards may change.
  const [build, imes] = await Promise.all([PhoneFacts.of(adb).build(serial, (command) => adb.shell(serial, command, call)), adb.shell(serial, ime.listEnabled(), call)]);
  const sdk = build.sdk ?? Number.NaN;
  const report = {} as PhoneHelperReport;
  for (const name of HELPER_NAMES) {
    const file = await provider.get(name);
    const label = `${name} ${HELPERS[name].version}`;
    if (!file.available) report[name] = { usable: false, detail: file.reason };
    else if (name === 'scrcpy-server' && Number.isFinite(sdk) && sdk > 0 && sdk < SCRCPY_MIN_SDK) {
      report[name] = { usable: false, detail: `the phone runs Android API ${sdk}; ${label} needs ${SCRCPY_MIN_SDK} or later` };
    } else report[name] = { usable: true, detail: `${label} from ${file.origin === 'settings' ? 'the Settings path' : `the ${file.origin} copy`} (${file.file})` };
  }
  const keyboard = parseImeList(imes).includes(ADB_KEYBOARD_IME);
  report['adb-keyboard'] = keyboard
    ? { usable: true, detail: 'ADBKeyBoard is installed and enabled' }
    : { usable: false, detail: 'ADBKeyBoard is not enabled on the phone' };
  return report;
}
