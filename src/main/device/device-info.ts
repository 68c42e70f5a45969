import type { DeviceState, DeviceSummary } from '../../shared/device';
import type { AdbCallOptions, AdbClient } from './adb-client';
import { isAbortError } from './errors';

/** `HOST:PORT`, mDNS wireless serials and emulators reach adb over TCP; everything else is USB. */
export function connectionOf(serial: string): DeviceSummary['connection'] {
  return /:\d+$/.test(serial) || serial.includes('._adb-tls-') || /^emulator-\d+$/.test(serial) ? 'tcp' : 'usb';
}

export function normaliseState(raw: string): DeviceState {
  if (raw.startsWith('no permissions')) return 'no-permissions';
  if (raw === 'emulator') return 'device';
  const known: DeviceState[] = ['device', 'offline', 'unauthorized', 'authorizing', 'connecting', 'bootloader', 'recovery', 'sideload'];
  return known.includes(raw as DeviceState) ? (raw as DeviceState) : 'unknown';
}

/** What the person must do for a phone in this state, in plain words (undefined when it is ready). */
export function stateHint(state: DeviceState, serial: string): string | undefined {
  const wireless = connectionOf(serial) === 'tcp';
  switch (state) {
    case 'device':
      return undefined;
    case 'unauthorized':
      return "Unlock the phone and accept the 'Allow USB debugging?' prompt (tick 'Always allow from this computer').";
    case 'authorizing':
      return 'The phone is still authorising this computer: unlock it and accept the prompt if one is shown.';
    case 'offline':
      return wireless
        ? `The phone is not answering. Check it is on the same network with wireless debugging on, then disconnect and connect ${serial} again (in the app, or \`amc disconnect\` and \`amc connect ${serial}\`).`
        : 'The phone is not answering. Unplug and reconnect the USB cable (or run `adb reconnect`), and unlock the phone.';
    case 'connecting':
      return 'adb is still connecting to the phone; wait a moment.';
    case 'no-permissions':
      return 'This computer user may not open the USB device. On Linux install udev rules for Android (e.g. the android-sdk-platform-tools-common package), add yourself to the plugdev group and replug the phone.';
    case 'bootloader':
    case 'recovery':
    case 'sideload':
      return `The phone is in ${state} mode. Reboot it into Android to control it.`;
    default:
      return 'adb reports an unexpected state for this phone. Reconnect it; if that does not help, restart the adb server (`adb kill-server`).';
  }
}

/** Model, Android version and screen of a connected (`device` state) phone. Missing facts stay undefined. */
export async function readDeviceDetails(
  adb: AdbClient,
  serial: string,
  options: AdbCallOptions = {},
): Promise<Pick<DeviceSummary, 'model' | 'androidVersion' | 'screen'>> {
  const quiet = <T>(task: Promise<T>, fallback: T) =>
    task.catch((error: unknown) => {
      if (isAbortError(error)) throw error;
      return fallback;
    });
  const [properties, sizeOutput, densityOutput] = await Promise.all([
    quiet(adb.properties(serial, options), {} as Record<string, string>),
    quiet(adb.shell(serial, 'wm size', options), ''),
    quiet(adb.shell(serial, 'wm density', options), ''),
  ]);
  const size = parseWmSize(sizeOutput);
  const density = parseWmDensity(densityOutput);
  const model = properties['ro.product.model'];
  const androidVersion = properties['ro.build.version.release'];
  return {
    ...(model && { model }),
    ...(androidVersion && { androidVersion }),
    ...(size && { screen: { ...size, ...(density !== undefined && { density }) } }),
  };
}

/** A full summary for one serial in the given raw adb state. */
export async function describeDevice(
  adb: AdbClient,
  serial: string,
  rawState: string,
  options: AdbCallOptions = {},
): Promise<DeviceSummary> {
  const state = normaliseState(rawState);
  const hint = stateHint(state, serial);
  const base: DeviceSummary = { serial, state, connection: connectionOf(serial), ...(hint && { hint }) };
  return state === 'device' ? { ...base, ...(await readDeviceDetails(adb, serial, options)) } : base;
}

/** `wm size`: the override size wins over the physical size. */
export function parseWmSize(output: string): { width: number; height: number } | undefined {
  const match = /Override size:\s*(\d+)x(\d+)/.exec(output) ?? /Physical size:\s*(\d+)x(\d+)/.exec(output);
  return match ? { width: Number(match[1]), height: Number(match[2]) } : undefined;
}

/** `wm density`: the override density wins over the physical density. */
export function parseWmDensity(output: string): number | undefined {
  const match = /Override density:\s*(\d+)/.exec(output) ?? /Physical density:\s*(\d+)/.exec(output);
  return match ? Number(match[1]) : undefined;
}
