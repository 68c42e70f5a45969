import * as adbkitNamespace from '@devicefarmer/adbkit';

type AdbkitModule = typeof adbkitNamespace;

/**
 * adbkit is CommonJS with TypeScript-style re-exports that Node's ESM loader cannot see as named exports:
 * under Node (tsx, vitest) they sit on `default`, under bundlers on the namespace itself.
 */
export const adbkit: AdbkitModule =
  'Adb' in adbkitNamespace && adbkitNamespace.Adb
    ? adbkitNamespace
    : (adbkitNamespace as unknown as { default: AdbkitModule }).default;

export type AdbkitClient = adbkitNamespace.Client;
export type AdbkitDeviceClient = adbkitNamespace.DeviceClient;
export type AdbkitDevice = adbkitNamespace.Device;
