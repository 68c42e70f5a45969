// The live mirror on the real adb server and virtual device, driven through the router like a window.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';
import { collectFrames, isolatedEnv, removeHome, startTestApp, until, type TestApp } from '../app-fixture';

let harness: AdbHarness;
let app: TestApp;

beforeAll(async () => {
  harness = await startAdbHarness();
  app = await startTestApp({ env: isolatedEnv(harness.env) });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await harness?.stop();
  if (app) await removeHome(app.home);
});

/** The phone's own pace as the clock: `count` full screencaps, each as long as one mirror capture. */
async function screencapsByTheTest(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const shot = await harness.adbRaw(['-s', harness.serial, 'exec-out', 'screencap', '-p']);
    expect(shot.stdout.subarray(1, 4).toString('latin1')).toBe('PNG');
  }
}

describe('live mirror', () => {
  it('Scenario: Mirror frames arrive as binary images and pause while the window is hidden', async () => {
    const window = collectFrames(app.app);
    try {
      const started = await app.call('mirror.start', { serial: harness.serial });
      expect(started).toMatchObject({ serial: harness.serial, visible: true });
      await until(() => window.frames.length >= 3, 20_000, 'three frames');
      const [first] = window.frames;
      expect(first).toMatchObject({ serial: harness.serial, mediaType: 'image/jpeg', deviceWidth: 1080, deviceHeight: 2400 });
      expect(Math.max(first!.width, first!.height)).toBeLessThanOrEqual(960);
      // Sequence numbers only grow: no frame is replayed or reordered.
      const seqs = window.frames.map((f) => f.seq);
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);

      const hidden = await app.call('mirror.setVisible', { visible: false });
      expect(hidden).toMatchObject({ state: 'paused', pausedBecause: 'hidden' });
      // Not one frame after the window said it is hidden (a capture already under way is dropped), while the
      // phone serves screencaps of its own: time enough for several mirror captures.
      const countWhileHidden = window.frames.length;
      await screencapsByTheTest(3);
      expect(window.frames.length).toBe(countWhileHidden);

      await app.call('mirror.setVisible', { visible: true });
      await until(() => window.frames.length > countWhileHidden, 20_000, 'frames after showing the window again');
      const status = await app.waitForEvent('mirror.status', (s) => s.state === 'running' && s.fps > 0 && s.lastFrame !== null);
      expect(status.captureMs).toBeGreaterThan(0);
    } finally {
      window.stop();
      await app.call('mirror.stop', {});
    }
  });

  it('Scenario: The mirror shows what an action did on the phone', async () => {
    const window = collectFrames(app.app);
    const frames: Buffer[] = [];
    const keep = app.app.events.subscribeFrames((_meta, bytes) => frames.push(Buffer.from(bytes)));
    try {
      await harness.shell('input keyevent 3');
      await app.call('mirror.start', { serial: harness.serial });
      await until(() => frames.length >= 1, 20_000, 'a frame of the home screen');
      const home = await sharp(frames.at(-1)!).raw().toBuffer();
      await harness.shell('am start -n com.android.settings/.Settings');
      const actedAt = Date.now();
      // A frame captured after the action differs from the home screen's.
      await until(() => window.frames.some((f) => f.capturedAt > actedAt), 20_000, 'a frame captured after the action');
      const index = window.frames.findIndex((f) => f.capturedAt > actedAt);
      const after = await sharp(frames[index]!).raw().toBuffer();
      expect(after.equals(home)).toBe(false);
    } finally {
      keep();
      window.stop();
      await app.call('mirror.stop', {});
      await harness.shell('input keyevent 3');
    }
  });

  it('Scenario: A busy window makes the mirror skip captures instead of queueing frames', async () => {
    let busy = false;
    const received: Array<{ seq: number; capturedAt: number }> = [];
    const stop = app.app.events.subscribeFrames((meta) => received.push(meta), { busy: () => busy });
    try {
      await app.call('mirror.start', { serial: harness.serial });
      await until(() => received.length >= 2, 20_000, 'frames');
      busy = true;
      const busySince = Date.now();
      // Frames captured before the window turned busy may still arrive; none captured after it does, while the
      // phone serves screencaps of its own (time enough for several mirror captures).
      await screencapsByTheTest(4);
      expect(received.filter((frame) => frame.capturedAt > busySince + 5)).toEqual([]);
      const settled = received.length;
      busy = false;
      const freedAt = Date.now();
      await until(() => received.some((frame) => frame.capturedAt >= freedAt), 20_000, 'a fresh frame once the window caught up');
      // No backlog: before the first fresh capture come at most the captures already in flight when the window
      // turned busy (one encoding, one waiting), all taken before it did.
      const caughtUp = received.slice(settled);
      const firstFresh = caughtUp.findIndex((frame) => frame.capturedAt >= freedAt);
      expect(firstFresh).toBeLessThanOrEqual(2);
      expect(caughtUp.slice(0, firstFresh).filter((frame) => frame.capturedAt > busySince + 5)).toEqual([]);
    } finally {
      stop();
      await app.call('mirror.stop', {});
    }
  });

  it('Scenario: A corrupt frame is reported and the mirror carries on', async () => {
    const window = collectFrames(app.app);
    try {
      await app.call('mirror.start', { serial: harness.serial });
      await until(() => window.frames.length >= 1, 20_000, 'a first frame');
      expect((await harness.control('/faults', { body: { kind: 'corrupt-screencap' } })).status).toBe(200);
      const broken = await app.waitForEvent('mirror.status', (s) => s.state === 'error');
      expect(broken.error).toMatch(/could not be decoded/);
      const seen = window.frames.length;
      await until(() => window.frames.length > seen, 20_000, 'frames after the corrupt one');
      expect((await app.call('mirror.getStatus', {})).error).toBeNull();
    } finally {
      window.stop();
      await app.call('mirror.stop', {});
    }
  });

  it('pauses without viewers, reports capture errors in plain words, and stops', async () => {
    const started = await app.call('mirror.start', { serial: harness.serial });
    expect(started).toMatchObject({ state: 'paused', pausedBecause: 'no-viewers' });
    const window = collectFrames(app.app);
    await app.call('mirror.start', { serial: '127.0.0.1:1' });
    const failed = await app.waitForEvent('mirror.status', (s) => s.serial === '127.0.0.1:1' && s.error !== null);
    expect(failed.state).toBe('error');
    expect(failed.error).toMatch(/Could not capture the screen of 127\.0\.0\.1:1/);
    expect(window.frames).toHaveLength(0);
    window.stop();
    expect(await app.call('mirror.stop', {})).toMatchObject({ state: 'stopped', serial: null, fps: 0 });
  });
});
