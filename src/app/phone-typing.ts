import type { Settings } from '../shared/settings';
import type { AdbClient } from '../core/device/adb-client';
import type { HelperName } from '../core/device/helpers/catalog';
import { HelperProvider } from '../core/device/helpers/helper-provider';
import { PhoneHelpers } from '../core/device/helpers/phone-helpers';
import { phoneHelperReport, type PhoneHelperReport } from '../core/device/helpers/helper-report';
import { createConfigSource } from '../core/runtime/config';
import { shippedHelpersDir } from './paths';
import { resolveAmcHome } from '../core/storage/settings-store';
import type { ExecutorOptions } from '../core/tools/executor';

/** The phone helpers of one process (helper files found once, pushed once per phone) and the Executor's typing built on them. */
export function phoneHelpersFor(options: {
  adb: () => Promise<Pick<AdbClient, 'push'>>;
  settings: () => Promise<Settings>;
  home: string;
  downloadUrls?: Partial<Record<HelperName, string>> | undefined;
  /** The environment naming the shipped copies' folder (AMC_PHONE_HELPERS_DIR); default process.env. */
  env?: NodeJS.ProcessEnv | undefined;
}): { provider: HelperProvider; onPhone: PhoneHelpers; typing: NonNullable<ExecutorOptions['typing']> } {
  const provider = new HelperProvider({
    settings: async () => (await options.settings()).helpers,
    dataDir: options.home,
    shippedDir: shippedHelpersDir(options.env),
    downloadUrls: options.downloadUrls,
  });
  const onPhone = new PhoneHelpers(options.adb, provider);
  return { provider, onPhone, typing: { method: async () => (await options.settings()).typing.method, helpers: onPhone } };
}

/** The helpers of a one-off CLI command, with the Settings of this machine (Settings paths, downloads, typing method). */
function helpersOfThisMachine(adb: AdbClient, env: NodeJS.ProcessEnv): ReturnType<typeof phoneHelpersFor> {
  const home = resolveAmcHome(env);
  const settings = async () => (await createConfigSource({ env, home }).load()).settings;
  return phoneHelpersFor({ adb: async () => adb, settings, home, env });
}

/** The Executor's typing for `amc act`: yadb, then ADBKeyBoard, as this machine's Settings say, like the app's. */
export function typingOfThisMachine(adb: AdbClient, env: NodeJS.ProcessEnv = process.env): NonNullable<ExecutorOptions['typing']> {
  return helpersOfThisMachine(adb, env).typing;
}

/**
 * For `amc devices --json` and `amc doctor`: which helpers each ready phone can use, with the Settings of this
 * machine (Settings paths, downloads). A phone whose report fails is left out rather than failing the list.
 */
export async function helpersOfReadyPhones(
  adb: AdbClient,
  devices: readonly { serial: string; state: string }[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<Map<string, PhoneHelperReport>> {
  const { provider } = helpersOfThisMachine(adb, env);
  const reports = new Map<string, PhoneHelperReport>();
  for (const device of devices.filter((entry) => entry.state === 'device')) {
    const report = await phoneHelperReport(adb, device.serial, provider).catch(() => null);
    if (report) reports.set(device.serial, report);
  }
  return reports;
}
