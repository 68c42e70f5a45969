import type { DeviceSummary } from '../../shared/device';
import type { AdbClient, AdbDeviceTracker } from './adb-client';
import type { AdbkitDevice } from './adbkit';
import { connectionOf, hintFields, normaliseState, readDeviceDetails } from './device-info';
import { isAbortError } from './errors';
import { PhoneFacts } from './android/phone-facts';

export type DeviceChange =
  | { kind: 'added' | 'removed' | 'state'; serial: string }
  /** Model, Android version and screen arrived for a device in `device` state. */
  | { kind: 'details'; serial: string }
  /** The adb server went away (its phones are no longer listed: none can be used); tracking resumes by itself when it is back. */
  | { kind: 'server-lost'; error: string }
  /** Tracking resumed after the adb server was lost: the list is the server's again. */
  | { kind: 'server-back' };

export type DeviceListener = (devices: DeviceSummary[], change: DeviceChange) => void;

export interface DeviceTrackerOptions {
  /** Delay before re-opening tracking after the adb server went away (doubles up to 10 s). */
  reconnectDelayMs?: number;
}

/**
 * The live list of phones the adb server knows (adb `track-devices`): additions, removals and state changes
 * as they happen, each entry with a plain-words hint when the person must act, and details once usable.
 */
export class DeviceTracker {
  private readonly devices = new Map<string, DeviceSummary>();
  private readonly listeners = new Set<DeviceListener>();
  private tracker: AdbDeviceTracker | undefined;
  private stopped = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelay: number;
  private details = new AbortController();

  constructor(
    private readonly adb: AdbClient,
    private readonly options: DeviceTrackerOptions = {},
  ) {
    this.reconnectDelay = options.reconnectDelayMs ?? 500;
  }

  /** Starts tracking; resolves once the current list is known (details may follow as `details` changes). */
  async start(): Promise<void> {
    this.stopped = false;
    this.details = new AbortController();
    await this.open();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.details.abort();
    this.tracker?.end();
    this.tracker = undefined;
  }

  list(): DeviceSummary[] {
    return [...this.devices.values()].sort((a, b) => a.serial.localeCompare(b.serial));
  }

  get(serial: string): DeviceSummary | undefined {
    return this.devices.get(serial);
  }

  /** Calls the listener on every change; returns the unsubscribe function. */
  onChange(listener: DeviceListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async open(): Promise<void> {
    const tracker = await this.adb.trackDevices();
    if (this.stopped) {
      tracker.end();
      return;
    }
    this.tracker = tracker;
    tracker.on('add', (device: AdbkitDevice) => this.upsert(device.id, device.type));
    tracker.on('change', (device: AdbkitDevice) => this.upsert(device.id, device.type));
    tracker.on('remove', (device: AdbkitDevice) => this.remove(device.id));
    const lost = (error?: Error) => {
      if (this.tracker !== tracker) return;
      this.tracker = undefined;
      if (this.stopped) return;
      // Nothing can be done on a phone while its server is away (a restarted one forgets TCP phones): none is listed as ready.
      for (const serial of this.devices.keys()) PhoneFacts.of(this.adb).forget(serial);
      this.devices.clear();
      this.emit({ kind: 'server-lost', error: error?.message ?? 'the adb server closed the device list' });
      this.scheduleReopen();
    };
    tracker.on('error', lost);
    tracker.on('end', () => lost());
    // adbkit may deliver the stream's first list before listeners can be attached: seed from a snapshot,
    // which also forgets devices that vanished while we were not tracking.
    const present = await this.adb.listDevices();
    const serials = new Set(present.map((device) => device.serial));
    for (const serial of [...this.devices.keys()]) if (!serials.has(serial)) this.remove(serial);
    for (const device of present) this.upsert(device.serial, device.state);
    this.reconnectDelay = this.options.reconnectDelayMs ?? 500;
  }

  private scheduleReopen(): void {
    this.reconnectTimer = setTimeout(() => {
      this.open().then(
        () => {
          if (!this.stopped) this.emit({ kind: 'server-back' });
        },
        () => {
          if (!this.stopped) this.scheduleReopen();
        },
      );
    }, this.reconnectDelay);
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, 10_000);
  }

  private upsert(serial: string, rawState: string): void {
    const state = normaliseState(rawState);
    const previous = this.devices.get(serial);
    if (previous?.state === state) return;
    // A phone that came, came back or changed state may not be what it was: its facts are read again.
    PhoneFacts.of(this.adb).forget(serial);
    const keep = previous && state === 'device' ? { model: previous.model, androidVersion: previous.androidVersion, screen: previous.screen } : {};
    const summary: DeviceSummary = { ...dropUndefined(keep), serial, state, connection: connectionOf(serial), ...hintFields(state, serial) };
    this.devices.set(serial, summary);
    this.emit({ kind: previous ? 'state' : 'added', serial });
    if (state === 'device') void this.loadDetails(serial);
  }

  private remove(serial: string): void {
    PhoneFacts.of(this.adb).forget(serial);
    if (this.devices.delete(serial)) this.emit({ kind: 'removed', serial });
  }

  private async loadDetails(serial: string): Promise<void> {
    try {
      const details = await readDeviceDetails(this.adb, serial, { signal: this.details.signal, timeoutMs: 10_000 });
      const current = this.devices.get(serial);
      if (!current || current.state !== 'device') return;
      this.devices.set(serial, { ...current, ...details });
      this.emit({ kind: 'details', serial });
    } catch (error) {
      if (!isAbortError(error)) return; // details are optional; the entry stays usable without them
    }
  }

  private emit(change: DeviceChange): void {
    const devices = this.list();
    for (const listener of this.listeners) listener(devices, change);
  }
}

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
