/** Identity and system properties of the virtual phone (Android 14, SDK 34, 1080x2400 at 420 dpi). */

export const SCREEN_WIDTH = 1080;
export const SCREEN_HEIGHT = 2400;
export const SCREEN_DENSITY = 420;

/** Banner values: they must not contain ':' ';' or '='. */
export const DEVICE_IDENTITY = {
  name: 'amc_virtual_phone',
  model: 'AMC_Virtual_Phone',
  device: 'amc_virtual',
} as const;

export const SERIAL_NUMBER = 'AMCVIRTUAL0001';

export const SYSTEM_PROPERTIES: Readonly<Record<string, string>> = {
  'dalvik.vm.heapsize': '512m',
  'gsm.sim.state': 'READY',
  'persist.sys.locale': 'en-US',
  'persist.sys.timezone': 'UTC',
  'ro.board.platform': 'amc',
  'ro.boot.serialno': SERIAL_NUMBER,
  'ro.build.characteristics': 'default',
  'ro.build.date.utc': '1696464000',
  'ro.build.description': 'amc_virtual_phone-user 14 UP1A.231005.007 10754064 release-keys',
  'ro.build.display.id': 'UP1A.231005.007',
  'ro.build.fingerprint': 'amc/amc_virtual_phone/amc_virtual:14/UP1A.231005.007/10754064:user/release-keys',
  'ro.build.id': 'UP1A.231005.007',
  'ro.build.tags': 'release-keys',
  'ro.build.type': 'user',
  'ro.build.version.codename': 'REL',
  'ro.build.version.incremental': '10754064',
  'ro.build.version.release': '14',
  'ro.build.version.release_or_codename': '14',
  'ro.build.version.sdk': '34',
  'ro.build.version.security_patch': '2023-10-05',
  'ro.hardware': 'amc',
  'ro.product.board': 'amc',
  'ro.product.brand': 'amc',
  'ro.product.cpu.abi': 'arm64-v8a',
  'ro.product.cpu.abilist': 'arm64-v8a,armeabi-v7a,armeabi',
  'ro.product.device': DEVICE_IDENTITY.device,
  'ro.product.locale': 'en-US',
  'ro.product.manufacturer': 'AMC',
  'ro.product.model': DEVICE_IDENTITY.model,
  'ro.product.name': DEVICE_IDENTITY.name,
  'ro.serialno': SERIAL_NUMBER,
  'ro.sf.lcd_density': String(SCREEN_DENSITY),
  'sys.boot_completed': '1',
};

/** `getprop` output: every property as `[key]: [value]`, sorted by key. */
export function formatAllProperties(): string {
  return Object.keys(SYSTEM_PROPERTIES)
    .sort()
    .map((key) => `[${key}]: [${SYSTEM_PROPERTIES[key]}]\n`)
    .join('');
}
