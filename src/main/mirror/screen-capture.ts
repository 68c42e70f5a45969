import type { AdbClient } from '../device/adb-client';
import { connectionOf } from '../device/device-info';
import { pngFromScreencap, rawFrameFromScreencap } from '../perception/screenshot';

/** One screen grab before encoding: PNG bytes, or raw RGBA pixels with their size. */
export type CapturedScreen = { png: Buffer } | { pixels: Buffer; width: number; height: number };

export type CaptureMode = 'raw' | 'png';

export interface CaptureOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** One screencap in the given mode: raw pixels (`screencap`) or a PNG encoded on the phone (`screencap -p`). */
export async function captureScreen(adb: AdbClient, serial: string, mode: CaptureMode, options: CaptureOptions = {}): Promise<CapturedScreen> {
  const output = await adb.shellBytes(serial, mode === 'raw' ? 'screencap' : 'screencap -p', {
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? 10_000,
  });
  return mode === 'raw' ? rawFrameFromScreencap(output) : { png: pngFromScreencap(output) };
}

/** Captures per mode tried before settling on the faster one. */
const TRIALS_PER_MODE = 2;

/**
 * Picks the fastest screencap per device by trying both: raw usually wins over USB (no PNG encoding on the
 * phone), PNG over Wi-Fi (a tenth of the bytes), but phones and emulators differ, so it is measured. The first
 * captures alternate between the modes (the likelier one first); afterwards the faster one is used.
 */
export class AdaptiveScreenGrabber {
  private readonly chosen = new Map<string, CaptureMode>();
  private readonly trials = new Map<string, Record<CaptureMode, number[]>>();

  constructor(private readonly adb: () => Promise<AdbClient>) {}

  /** The mode in use for this device, once settled. */
  modeOf(serial: string): CaptureMode | undefined {
    return this.chosen.get(serial);
  }

  async grab(serial: string, options: CaptureOptions = {}): Promise<CapturedScreen> {
    const adb = await this.adb();
    const settled = this.chosen.get(serial);
    if (settled) return captureScreen(adb, serial, settled, options);
    const trial = this.trials.get(serial) ?? { raw: [], png: [] };
    this.trials.set(serial, trial);
    const preferred: CaptureMode = connectionOf(serial) === 'usb' ? 'raw' : 'png';
    const other: CaptureMode = preferred === 'raw' ? 'png' : 'raw';
    const mode = trial[preferred].length <= trial[other].length ? preferred : other;
    const started = performance.now();
    let screen: CapturedScreen;
    try {
      screen = await captureScreen(adb, serial, mode, options);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      // This mode does not work here: the other one is the only choice (its own failure is reported as usual).
      this.settle(serial, mode === 'raw' ? 'png' : 'raw');
      throw error;
    }
    trial[mode].push(performance.now() - started);
    if (trial.raw.length >= TRIALS_PER_MODE && trial.png.length >= TRIALS_PER_MODE) {
      this.settle(serial, Math.min(...trial.raw) <= Math.min(...trial.png) ? 'raw' : 'png');
    }
    return screen;
  }

  /** Forgets the choice (e.g. the device reconnected another way). */
  reset(serial: string): void {
    this.chosen.delete(serial);
    this.trials.delete(serial);
  }

  private settle(serial: string, mode: CaptureMode): void {
    this.chosen.set(serial, mode);
    this.trials.delete(serial);
  }
}
