import type { ScreenshotFile } from '../shared/contract/devices';
import type { AdbClient } from '../core/device/adb-client';
import { pngFromScreencap } from '../core/perception/screenshot';
import { screencap } from '../core/device/android/screencap';
import { parseSettingValue, settings } from '../core/device/android/settings';
import { whileSucceeding } from '../core/device/android/shell-line';

/** Android's four screen rotations (Surface.ROTATION_0 .. ROTATION_270). */
const ROTATIONS = 4;

/**
 * The person's "rotate" button: turns auto-rotate off and sets the next fixed rotation, as the quick-settings
 * tile does. Answers with the rotation now asked for.
 */
export async function rotateScreen(adb: AdbClient, serial: string): Promise<number> {
  const current = Number.parseInt(parseSettingValue(await adb.shell(serial, settings.get('system', 'user_rotation'))) ?? '', 10);
  const next = ((Number.isInteger(current) ? current : 0) + 1) % ROTATIONS;
  const { succeeded, output } = await adb.exec(serial, whileSucceeding(settings.put('system', 'accelerometer_rotation', 0), settings.put('system', 'user_rotation', next)));
  if (!succeeded) throw new Error(`The phone did not accept the rotation: ${output.trim() || 'no reason given'}.`);
  return next;
}

/** PNG width and height from its IHDR chunk (bytes 16-23). */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** A name that sorts by time and is safe on every file system (serials hold ':' and '.'). */
export function screenshotFileName(serial: string, at: Date): string {
  const stamp = at.toISOString().replace(/\.\d+Z$/, '').replace(/[-:]/g, '').replace('T', '-');
  return `screenshot-${serial.replace(/[^A-Za-z0-9_-]+/g, '_')}-${stamp}.png`;
}

/** The screen at full resolution, as the person asked to keep it: the phone's own PNG, not re-encoded. */
export async function takeScreenshot(adb: AdbClient, serial: string, now = new Date()): Promise<ScreenshotFile> {
  const png = pngFromScreencap(await adb.shellBytes(serial, screencap.png(), { timeoutMs: 20_000 }));
  return { fileName: screenshotFileName(serial, now), mediaType: 'image/png', base64: png.toString('base64'), ...pngSize(png) };
}
