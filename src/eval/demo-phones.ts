import type { AdbClient } from '../core/device/adb-client';
import { startDemoDevice } from '../app/device-service';
import type { LatencyProfileName, PhoneFault, PhoneSeed, PhoneStateView, VirtualDevice } from '@amc/demo-phone';

const READY_TIMEOUT_MS = 15_000;

/** One demo phone the suite drives: its adb serial and its control API (seed, faults, state). */
export interface EvalPhone {
  readonly serial: string;
  /** Puts the phone in a task's starting state: the seed, then each fault (e.g. a pop-up in the way). */
  prepare(seed: PhoneSeed | undefined, faults: readonly PhoneFault[] | undefined): Promise<void>;
  state(): Promise<PhoneStateView>;
}

async function waitUntilListed(adb: AdbClient, serial: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await adb.listDevices()).some((device) => device.serial === serial && device.state === 'device')) {
    if (Date.now() > deadline) throw new Error(`The demo phone ${serial} did not become ready within ${READY_TIMEOUT_MS / 1000} s.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts `count` demo phones of their own for the suite and connects them to the adb server; close() undoes both. */
export async function startEvalPhones(adb: AdbClient, count: number, profile: LatencyProfileName = 'instant') {
  const devices: VirtualDevice[] = [];
  const close = async () => {
    await Promise.all(devices.map((device) => adb.disconnectDevice(device.adbAddress, { timeoutMs: 3000 }).catch(() => undefined)));
    await Promise.all(devices.map((device) => device.close()));
  };
  // All at once: a phone's start is mostly waiting on the adb server, and the suite waits for the last one.
  const started = await Promise.allSettled(
    Array.from({ length: count }, async () => {
      const device = await startDemoDevice(profile);
      devices.push(device);
      await adb.connectDevice(device.adbAddress, { timeoutMs: 10_000 });
      await waitUntilListed(adb, device.adbAddress);
      return device;
    }),
  );
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await close();
    throw failed.reason;
  }
  // The control API's routes called directly, not over HTTP: a request per seed, fault and verdict is work for the
  // host's one thread (a connection, a request, a JSON body) that the suite's phones in this process do not need.
  const phones: EvalPhone[] = devices.map((device) => ({
    serial: device.adbAddress,
    async prepare(seed, faults) {
      device.control('POST /reset', seed ?? {});
      for (const fault of faults ?? []) device.control('POST /faults', fault);
    },
    state: async () => device.control('GET /state'),
  }));
  return { phones, close };
}
