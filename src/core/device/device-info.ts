import type { DeviceState, DeviceSummary } from '../../shared/device';
import { say, type Saying } from '../../shared/said';
import type { AdbCallOptions, AdbClient } from './adb-client';
import { isAbortError } from './errors';
import { PhoneFacts } from './android/phone-facts';

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

/** What the person must do for a phone in this state, in plain words with its code (undefined when it is ready). */
export function stateHintSaying(state: DeviceState, serial: string): Saying | undefined {
  switch (state) {
    case 'device':
      return undefined;
    case 'unauthorized':
    case 'authorizing':
    case 'connecting':
      return say(`deviceState.${state}`);
    case 'offline':
      return connectionOf(serial) === 'tcp' ? say('deviceState.offlineWireless', { serial }) : say('deviceState.offlineUsb');
    case 'no-permissions':
      return say('deviceState.noPermissions');
    case 'bootloader':
    case 'recovery':
    case 'sideload':
      return say('deviceState.otherMode', { mode: state });
    default:
      return say('deviceState.unexpected');
  }
}

/** A phone summary's hint fields for this state (none when it is ready). */
export function hintFields(state: DeviceState, serial: string): Pick<DeviceSummary, 'hint' | 'hintSaid'> {
  const hint = stateHintSaying(state, serial);
  return hint ? { hint: hint.text, hintSaid: hint.said } : {};
}

/** Model, Android version and screen of a connected (`device` state) phone, from its kept facts. Missing facts stay undefined. */
export async function readDeviceDetails(
  adb: AdbClient,
  serial: string,
  options: AdbCallOptions = {},
): Promise<Pick<DeviceSummary, 'model' | 'androidVersion' | 'screen'>> {
  const facts = PhoneFacts.of(adb);
  const read = (command: string) => adb.shell(serial, command, options);
  const quiet = <T>(task: Promise<T>, fallback: T) =>
    task.catch((error: unknown) => {
      if (isAbortError(error)) throw error;
      return fallback;
    });
  const [build, size, density] = await Promise.all([
    quiet(facts.build(serial, read), {}),
    quiet(facts.naturalSize(serial, read), undefined),
    quiet(facts.density(serial, read), undefined),
  ]);
  return {
    ...(build.model && { model: build.model }),
    ...(build.release && { androidVersion: build.release }),
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
  const base: DeviceSummary = { serial, state, connection: connectionOf(serial), ...hintFields(state, serial) };
  return state === 'device' ? { ...base, ...(await readDeviceDetails(adb, serial, options)) } : base;
}


