import type { AdbClient } from '../../core/device/adb-client';
import { connectionOf } from '../../core/device/device-info';
import { pngFromScreencap, rawFrameFromScreencap } from '../../core/perception/screenshot';
import { screencap } from '../../core/device/android/screencap';

/** One screen grab before encoding: PNG bytes, or raw RGBA pixels with their size. */
export type CapturedScreen = { png: Buffer } | { pixels: Buffer; width: number; height: number };

export type CaptureMode = 'raw' | 'png';

export interface CaptureOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** One screencap in the given mode: raw pixels (`screencap`) or a PNG encoded on the phone (`screencap -p`). */
export async function captureScreen(adb: AdbClient, serial: string, mode: CaptureMode, options: CaptureOptions = {}): Promise<CapturedScreen> {
  const output = await adb.shellBytes(serial, mode === 'raw' ? screencap.raw() : screencap.png(), {
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? 10_000,
  });
  return mode === 'raw' ? rawFrameFromScreencap(output) : { png: pngFromScreencap(output) };
}

/** Captures per mode tried before settling on the faster one. */
const TRIALS_PER_MODE = 2;

interface Trial {
  ms: Record<CaptureMode, number[]>;
  failures: Record<CaptureMode, number>;
}

/**
 * Picks the fastest screencap per device by trying both: raw usually wins over USB (no PNG encoding on the
 * phone), PNG over Wi-Fi (a tenth of the bytes), but phones and emulators differ, so it is measured. The first
 * captures alternate between the modes (the likelier one first); afterwards the faster one is used. A mode that
 * keeps failing while the other works is dropped; a failure of both (an unplugged phone) decides nothing.
 */
export class AdaptiveScreenGrabber {
  private readonly chosen = new Map<string, CaptureMode>();
  private readonly trials = new Map<string, Trial>();

  constructor(private readonly adb: () => Promise<AdbClient>) {}

  /** The mode in use for this device, once settled. */
  modeOf(serial: string): CaptureMode | undefined {
    return this.chosen.get(serial);
  }

  async grab(serial: string, options: CaptureOptions = {}): Promise<CapturedScreen> {
    const adb = await this.adb();
    const settled = this.chosen.get(serial);
    if (settled) return captureScreen(adb, serial, settled, options);
    const trial = this.trials.get(serial) ?? { ms: { raw: [], png: [] }, failures: { raw: 0, png: 0 } };
    this.trials.set(serial, trial);
    const preferred: CaptureMode = connectionOf(serial) === 'usb' ? 'raw' : 'png';
    const other = opposite(preferred);
    const attempts = (mode: CaptureMode) => trial.ms[mode].length + trial.failures[mode];
    const mode = attempts(preferred) <= attempts(other) ? preferred : other;
    const started = performance.now();
    try {
      const screen = await captureScreen(adb, serial, mode, options);
      trial.ms[mode].push(performance.now() - started);
      return screen;
    } catch (error) {
      if (!options.signal?.aborted) trial.failures[mode] += 1;
      throw error;
    } finally {
      this.decide(serial, trial);
    }
  }

  private decide(serial: string, trial: Trial): void {
    const { ms, failures } = trial;
    let mode: CaptureMode | undefined;
    if (ms.raw.length >= TRIALS_PER_MODE && ms.png.length >= TRIALS_PER_MODE) mode = Math.min(...ms.raw) <= Math.min(...ms.png) ? 'raw' : 'png';
    else if (failures.raw >= TRIALS_PER_MODE && ms.png.length > 0) mode = 'png';
    else if (failures.png >= TRIALS_PER_MODE && ms.raw.length > 0) mode = 'raw';
    if (!mode) return;
    this.chosen.set(serial, mode);
    this.trials.delete(serial);
  }
}

const opposite = (mode: CaptureMode): CaptureMode => (mode === 'raw' ? 'png' : 'raw');
