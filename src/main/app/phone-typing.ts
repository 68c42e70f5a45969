import type { Settings } from '../../shared/settings';
import type { AdbClient } from '../device/adb-client';
import type { HelperName } from '../device/helpers/catalog';
import { HelperProvider } from '../device/helpers/helper-provider';
import { PhoneHelpers } from '../device/helpers/phone-helpers';
import type { ExecutorOptions } from '../tools/executor';

/** The phone helpers of one process (helper files found once, pushed once per phone) and the Executor's typing built on them. */
export function phoneHelpersFor(options: {
  adb: () => Promise<Pick<AdbClient, 'push'>>;
  settings: () => Promise<Settings>;
  home: string;
  downloadUrls?: Partial<Record<HelperName, string>> | undefined;
}): { provider: HelperProvider; onPhone: PhoneHelpers; typing: NonNullable<ExecutorOptions['typing']> } {
  const provider = new HelperProvider({
    settings: async () => (await options.settings()).helpers,
    dataDir: options.home,
    downloadUrls: options.downloadUrls,
  });
  const onPhone = new PhoneHelpers(options.adb, provider);
  return { provider, onPhone, typing: { method: async () => (await options.settings()).typing.method, helpers: onPhone } };
}
