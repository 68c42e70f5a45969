import { shellLine } from './shell-line';

/** The three tables of Android's settings provider. */
export type SettingsNamespace = 'system' | 'secure' | 'global';

/** `settings`, the settings provider's command line. */
export const settings = {
  get: (namespace: SettingsNamespace, key: string) => shellLine(['settings', 'get', namespace, key]),
  put: (namespace: SettingsNamespace, key: string, value: string | number) => shellLine(['settings', 'put', namespace, key, value]),
};

/** `settings get` output -> the value; undefined when the setting is not set (Android prints `null`). */
export function parseSettingValue(output: string): string | undefined {
  const value = output.trim();
  return value === '' || value === 'null' ? undefined : value;
}
