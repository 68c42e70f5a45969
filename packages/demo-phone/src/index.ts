import { AdbDeviceServer } from './adb/device-server';
import { startControlApi, type ControlApi } from './control-api';
import type { LatencyProfileName } from './phone/latency';
import { VirtualPhone } from './phone/phone';

// The package's public entry: what the app, eval, the benchmarks and the app's tests may use of the demo phone.
export { CONNECTION_DROP, FAULT_KINDS, type FaultKind } from './control-api';
export { callControlApi } from './control-client';
export type { LatencyProfileName } from './phone/latency';
export { VirtualPhone } from './phone/phone';
export { USER_APP_PACKAGES, type PhoneSeed, type PhoneState, type PhoneStateView } from './phone/model';
export type { PhoneFault } from './phone/faults';
export { SCREEN_HEIGHT, SCREEN_WIDTH } from './phone/properties';
export { LOADING_BAR } from './phone/loading-bar';
export { H264ScreenEncoder } from './h264/encoder';

export interface VirtualDeviceOptions {
  /** adb TCP port; 0 (the default) picks a free one. Keep it >= 5586 so the adb server does not take it for an emulator. */
  port?: number;
  /** Control API port; 0 (the default) picks a free one. */
  controlPort?: number;
  profile?: LatencyProfileName;
  /** Both servers listen only here; loopback by default. */
  host?: string;
  /** Initial phone state (the same shape `POST /reset` accepts). */
  seed?: unknown;
  /** Errors the adb endpoint contained (a malformed packet, a service that threw); the device keeps running. */
  onError?: (error: unknown) => void;
}

export interface VirtualDevice {
  /** `HOST:PORT` for `adb connect`; also the serial the adb server lists it under. */
  readonly adbAddress: string;
  readonly adbPort: number;
  /** Base URL of the control API, e.g. `http://127.0.0.1:5602`. */
  readonly controlUrl: string;
  readonly controlPort: number;
  /** The control API's routes called in this process, without HTTP. */
  readonly control: ControlApi['call'];
  readonly phone: VirtualPhone;
  /** The adb endpoint (connection stats, fault arming). */
  readonly adb: AdbDeviceServer;
  /** Drops every adb connection and stops both servers. Safe to call twice. */
  close(): Promise<void>;
}

/** Starts a simulated phone that a real adb server reaches with `adb connect`, plus its control API. */
export async function startVirtualDevice(options: VirtualDeviceOptions = {}): Promise<VirtualDevice> {
  const host = options.host ?? '127.0.0.1';
  const profile = options.profile ?? 'instant';
  const phone = new VirtualPhone({ profile, seed: options.seed });
  const adb = new AdbDeviceServer(phone, { onError: options.onError });
  const adbPort = await adb.listen(options.port ?? 0, host);
  let control;
  try {
    control = await startControlApi({ phone, connection: adb, profile }, options.controlPort ?? 0, host);
  } catch (error) {
    await adb.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    adbAddress: `${host}:${adbPort}`,
    adbPort,
    controlUrl: control.url,
    controlPort: control.port,
    control: control.call,
    phone,
    adb,
    close: () => (closing ??= Promise.all([adb.close(), control.close()]).then(() => undefined)),
  };
}
