import type { AdbClient } from '../device/adb-client';
import { isLoopbackSerial } from '../device/device-info';
import { pngFromScreencap, rawFrameFromScreencap } from '../perception/screenshot';

/** One screen grab before encoding: PNG bytes, or raw RGBA pixels with their size. */
export type CapturedScreen = { png: Buffer } | { pixels: Buffer; width: number; height: number };

/**
 * The fastest screencap for the connection: raw pixels over USB and loopback (no PNG encoding on the
 * phone, which dominates `screencap -p`), PNG over the network where the ~10 MB raw frame would be slower.
 */
export async function captureScreen(adb: AdbClient, serial: string, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<CapturedScreen> {
  const raw = isLoopbackSerial(serial);
  const output = await adb.shellBytes(serial, raw ? 'screencap' : 'screencap -p', {
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? 10_000,
  });
  return raw ? rawFrameFromScreencap(output) : { png: pngFromScreencap(output) };
}
