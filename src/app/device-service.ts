import type { DeviceList } from '../shared/contract/devices';
import type { Settings } from '../shared/settings';
import type { DeviceSummary } from '../shared/device';
import { say, saidList, type Saying } from '../shared/said';
import { TaskStartError } from '../core/runtime/runner-ports';
import { AdbClient } from '../core/device/adb-client';
import { AdbError } from '../core/device/errors';
import type { AdbServerOptions } from '../core/device/adb-server';
import { DeviceTracker } from '../core/device/device-tracker';
import type { EventHub } from './ipc/event-hub';
import { startVirtualDevice, type LatencyProfileName, type VirtualDevice } from '@amc/demo-phone';

export interface DeviceServiceOptions {
  events: Pick<EventHub, 'publish'>;
  env: NodeJS.ProcessEnv;
  /** The adb server to use until configure() names another (read when adb is first needed). */
  initialAddress: () => Promise<AdbServerOptions>;
  /** Latency profile of the demo phone (default `instant`). */
  demoProfile?: LatencyProfileName;
}

/** Below this the adb server may take a port for an emulator console and list a phantom device. */
const FIRST_SAFE_DEMO_PORT = 5586;

export interface DemoPhone {
  serial: string;
  name: string;
}
const DEMO_READY_TIMEOUT_MS = 15_000;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The list's problem in English, with its code when it was worded by one. */
const problemFields = (problem: Saying | string | null): Pick<DeviceList, 'problem' | 'problemSaid'> =>
  problem === null || typeof problem === 'string' ? { problem } : { problem: problem.text, problemSaid: problem.said };

/** Why a task cannot start on a phone the list does not have, with the list's own problem (adb unreachable) when it has one. */
function notConnected(serial: string, list: DeviceList): Saying {
  if (!list.problem) return say('taskStart.phoneNotConnected', { serial });
  return say('taskStart.phoneNotConnectedBecause', { serial, problemSaid: list.problemSaid ? saidList([list.problemSaid]) : list.problem });
}

/** Why a task cannot start on a listed phone that is not ready (offline, unauthorised), with what the person can do. */
function notReady(device: DeviceSummary): Saying {
  const { serial, state, hint, hintSaid } = device;
  if (!hint) return say('taskStart.phoneNotReady', { serial, state });
  return say('taskStart.phoneNotReadyHint', { serial, state, hintSaid: hintSaid ? saidList([hintSaid]) : hint });
}

/** The adb server address from the effective settings (ANDROID_ADB_SERVER_PORT already applied to the port). */
export function adbServerOptions(settings: Settings, env: NodeJS.ProcessEnv): AdbServerOptions {
  return { host: settings.adb.host, port: settings.adb.port, env };
}

/** Starts a demo phone on free ports that the adb server will not mistake for an emulator's. */
export async function startDemoDevice(profile: LatencyProfileName = 'instant'): Promise<VirtualDevice> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const started = await startVirtualDevice({ port: 0, controlPort: 0, profile });
    if (started.adbPort >= FIRST_SAFE_DEMO_PORT) return started;
    await started.close();
  }
  throw new Error('Could not find a free port for the demo phone.');
}

/**
 * The app's one adb connection and the live device list, opened when a device is first asked for (so an
 * app that never touches a phone never starts an adb server). adb being missing or unreachable is not
 * fatal: the list says so in plain words (`problem`) and the next request tries again. Changing the adb
 * server in Settings reconnects.
 */
export class DeviceService {
  private adbClient: AdbClient | undefined;
  private tracker: DeviceTracker | undefined;
  private problem: Saying | string | null = null;
  private connecting: Promise<void> | undefined;
  private address: AdbServerOptions | undefined;
  /** The demo phones this app started, in order; their names tell them apart ("Demo phone", "Demo phone 2"). */
  private readonly demos: Array<{ device: VirtualDevice; name: Saying }> = [];
  private demoStarting: Promise<DemoPhone> | undefined;
  private readonly demoProfile: LatencyProfileName;
  private closed = false;

  constructor(private readonly options: DeviceServiceOptions) {
    this.demoProfile = options.demoProfile ?? 'instant';
  }

  /** Points at another adb server (after Settings changed); reconnects when a connection was open. */
  async configure(address: AdbServerOptions): Promise<void> {
    const changed = address.host !== this.address?.host || address.port !== this.address?.port;
    if (!changed) return;
    const wasConnected = this.adbClient !== undefined || this.connecting !== undefined;
    this.address = address;
    this.disconnectFromServer();
    if (wasConnected) await this.ensureConnected().catch(() => undefined);
  }

  /** The adb client, connecting first when needed; throws the plain-words problem when adb cannot be used. */
  async adb(): Promise<AdbClient> {
    await this.ensureConnected();
    if (!this.adbClient) throw new Error(problemFields(this.problem).problem ?? 'adb is not available.');
    return this.adbClient;
  }

  async list(): Promise<DeviceList> {
    await this.ensureConnected().catch(() => undefined);
    return this.snapshot();
  }

  async connect(address: string): Promise<string> {
    const adb = await this.adb();
    const serial = await adb.connectDevice(address, { timeoutMs: 20_000 });
    return serial;
  }

  async disconnect(serial: string): Promise<void> {
    const adb = await this.adb();
    await adb.disconnectDevice(serial, { timeoutMs: 10_000 });
  }

  async pair(address: string, code: string): Promise<string> {
    const adb = await this.adb();
    return adb.pair(address, code);
  }

  /** Throws a TaskStartError with a worded reason (its code beside the English) when the phone is not listed or not usable. */
  async checkReady(serial: string): Promise<void> {
    const list = await this.list();
    const device = list.devices.find((d) => d.serial === serial);
    if (!device) throw new TaskStartError(notConnected(serial, list));
    if (device.state !== 'device') throw new TaskStartError(notReady(device));
  }

  /** True when the device is listed and usable (`device` state). */
  isReady(serial: string): boolean {
    return this.tracker?.get(serial)?.state === 'device';
  }

  /**
   * Starts the built-in virtual phone once per app run, connects it, and waits until adb lists it as usable; a
   * second call answers with the same phone (`alreadyRunning`). `another` starts one more, named apart.
   */
  /** The serial of demo phone number `number` (1 is "Demo phone"), starting demo phones until it runs. */
  async demoSerial(number: number): Promise<string> {
    while (this.demos.length < number) await this.startDemo({ another: this.demos.length > 0 });
    return this.demos[number - 1]!.device.adbAddress;
  }

  async startDemo(options: { another?: boolean } = {}): Promise<DemoPhone & { alreadyRunning: boolean }> {
    if (options.another && this.demos.length > 0) return { ...(await this.launchDemo()), alreadyRunning: false };
    const first = this.demoStarting;
    this.demoStarting ??= this.launchDemo().catch((error: unknown) => {
      this.demoStarting = undefined;
      throw error;
    });
    const demo = await this.demoStarting;
    const wasReady = this.isReady(demo.serial);
    // Someone may have disconnected it since: connect again.
    if (!wasReady) await this.connectDemo(demo.serial);
    return { ...demo, alreadyRunning: first !== undefined && wasReady };
  }

  async close(): Promise<void> {
    this.closed = true;
    const adb = this.adbClient;
    if (adb) await Promise.all(this.demos.map(({ device }) => adb.disconnectDevice(device.adbAddress, { timeoutMs: 3000 }).catch(() => undefined)));
    this.disconnectFromServer();
    await Promise.all(this.demos.map(({ device }) => device.close()));
  }

  private snapshot(): DeviceList {
    const names = new Map(this.demos.map(({ device, name }) => [device.adbAddress, name]));
    const named = (device: DeviceSummary): DeviceSummary => {
      const name = names.get(device.serial);
      return name ? { ...device, name: name.text, nameSaid: name.said } : device;
    };
    return {
      devices: (this.tracker?.list() ?? []).map(named),
      adbServer: this.adbClient?.address ?? `${this.address?.host ?? '127.0.0.1'}:${this.address?.port ?? this.options.env.ANDROID_ADB_SERVER_PORT ?? 5037}`,
      ...problemFields(this.problem),
    };
  }

  private publish(): void {
    this.options.events.publish('devices.changed', this.snapshot());
  }

  private disconnectFromServer(): void {
    this.tracker?.stop();
    this.tracker = undefined;
    this.adbClient = undefined;
    this.connecting = undefined;
  }

  private ensureConnected(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The app is shutting down.'));
    if (this.adbClient && this.tracker) return Promise.resolve();
    this.connecting ??= (async () => {
      const address = (this.address ??= await this.options.initialAddress());
      try {
        const adb = await AdbClient.create(address);
        const tracker = new DeviceTracker(adb);
        tracker.onChange((_devices, change) => {
          if (this.tracker !== tracker) return;
          this.problem = change.kind === 'server-lost' ? say('adb.serverLost', { error: change.error }) : null;
          this.publish();
        });
        await tracker.start();
        if (this.address !== address || this.closed) {
          tracker.stop();
          return;
        }
        this.adbClient = adb;
        this.tracker = tracker;
        this.problem = null;
      } catch (error) {
        this.problem = error instanceof AdbError && error.said ? { text: error.message, said: error.said } : message(error);
        throw error;
      } finally {
        this.connecting = undefined;
        this.publish();
      }
    })();
    return this.connecting;
  }

  private async launchDemo(): Promise<DemoPhone> {
    const device = await startDemoDevice(this.demoProfile);
    const name = this.demos.length === 0 ? say('phoneName.demo') : say('phoneName.demoNumbered', { number: this.demos.length + 1 });
    this.demos.push({ device, name });
    await this.connectDemo(device.adbAddress);
    return { serial: device.adbAddress, name: name.text };
  }

  private async connectDemo(serial: string): Promise<void> {
    const adb = await this.adb();
    await adb.connectDevice(serial, { timeoutMs: 10_000 });
    await this.waitUntilReady(serial);
  }

  private async waitUntilReady(serial: string): Promise<void> {
    const deadline = Date.now() + DEMO_READY_TIMEOUT_MS;
    while (!this.isReady(serial)) {
      if (Date.now() > deadline) throw new Error(`The demo phone (${serial}) did not become ready within ${DEMO_READY_TIMEOUT_MS / 1000} s.`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
