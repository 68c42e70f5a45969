import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdbClient } from '../../../src/core/device/adb-client';
import { encodeMirrorFrame } from '../../../src/app/mirror/frame-encoder';
import { AdaptiveScreenGrabber, captureScreen } from '../../../src/app/mirror/screen-capture';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';

let harness: AdbHarness;
let adb: AdbClient;

beforeAll(async () => {
  harness = await startAdbHarness();
  adb = await AdbClient.create({ env: harness.env });
}, 60_000);

afterAll(async () => {
  await harness?.stop();
});

describe('screen capture', () => {
  it('captures raw pixels and PNG, and both encode to the same window-sized JPEG', async () => {
    const raw = await captureScreen(adb, harness.serial, 'raw');
    const png = await captureScreen(adb, harness.serial, 'png');
    expect('pixels' in raw && raw.width === 1080 && raw.height === 2400).toBe(true);
    expect('png' in png).toBe(true);
    for (const screen of [raw, png]) {
      const frame = await encodeMirrorFrame(screen, { longEdge: 960, quality: 70 });
      expect(frame).toMatchObject({ mediaType: 'image/jpeg', width: 432, height: 960, deviceWidth: 1080, deviceHeight: 2400 });
      expect(frame.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    }
  });

  it('tries both screencap modes on the first captures, then keeps one', async () => {
    const grabber = new AdaptiveScreenGrabber(async () => adb);
    const kinds: string[] = [];
    for (let i = 0; i < 4; i++) {
      expect(grabber.modeOf(harness.serial)).toBeUndefined();
      const screen = await grabber.grab(harness.serial);
      kinds.push('png' in screen ? 'png' : 'raw');
    }
    expect([...kinds].sort()).toEqual(['png', 'png', 'raw', 'raw']);
    const mode = grabber.modeOf(harness.serial);
    expect(['raw', 'png']).toContain(mode);
    const next = await grabber.grab(harness.serial);
    expect('png' in next ? 'png' : 'raw').toBe(mode);
  });

  it('a failed capture decides nothing: an unknown phone does not pin a mode', async () => {
    const grabber = new AdaptiveScreenGrabber(async () => adb);
    for (let i = 0; i < 4; i++) await expect(grabber.grab('127.0.0.1:1')).rejects.toThrow(/127\.0\.0\.1:1/);
    expect(grabber.modeOf('127.0.0.1:1')).toBeUndefined();
  });
});
