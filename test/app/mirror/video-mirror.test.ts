// The video mirror on the real adb server and the demo phone, driven through the router like a window: scrcpy-server
// from a local file (the Settings path), H.264 packets a standard decoder accepts, gestures over the control socket,
// the fallbacks to screenshots and no server left behind.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrameMeta } from '../../../src/shared/contract';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';
import { isolatedEnv, removeHome, startTestApp, until, type TestApp } from '../app-fixture';
import { writeHelperStandIn } from '../../support/helper-stand-in';

let harness: AdbHarness;
let app: TestApp;
let dir: string;

beforeAll(async () => {
  harness = await startAdbHarness();
  dir = await mkdtemp(path.join(tmpdir(), 'amc-video-'));
  const server = path.join(dir, 'scrcpy-server');
  await writeHelperStandIn('scrcpy-server', server);
  app = await startTestApp({ env: isolatedEnv(harness.env, { SCRCPY_SERVER_PATH: server }) });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await harness?.stop();
  if (app) await removeHome(app.home);
  await rm(dir, { recursive: true, force: true });
});

/** Frames with their bytes, as a window receives them. */
function receive() {
  const frames: { meta: FrameMeta; bytes: Uint8Array }[] = [];
  const stop = app.app.events.subscribeFrames((meta, bytes) => frames.push({ meta, bytes: bytes.slice() }));
  return { frames, stop };
}

async function serversOnPhone(): Promise<string[]> {
  const ps = await harness.shell('ps -A');
  return ps.stdout.split('\n').filter((line) => line.trim().endsWith(' app_process'));
}

/** Decodes an H.264 Annex B key frame with Debian's ffmpeg; returns the picture's size. */
function decodeWithFfmpeg(bytes: Uint8Array): { width: number; height: number } {
  const file = path.join(dir, `frame-${Date.now()}.h264`);
  execFileSync('sh', ['-c', `cat > ${file}`], { input: bytes });
  const probe = execFileSync('ffprobe', ['-v', 'error', '-count_frames', '-show_entries', 'stream=width,height,nb_read_frames', '-of', 'json', file]);
  const stream = (JSON.parse(probe.toString()) as { streams: { width: number; height: number; nb_read_frames: string }[] }).streams[0]!;
  expect(Number(stream.nb_read_frames)).toBe(1);
  return { width: stream.width, height: stream.height };
}

/** Starts mirroring with the mirror 800 px tall on screen. */
async function startMirror(): Promise<void> {
  // Status events of earlier tests would answer the waits below.
  app.events.length = 0;
  await app.call('mirror.start', { serial: harness.serial, maxSize: 800 });
}

async function stopAndCheckNoServer(): Promise<void> {
  await app.call('mirror.stop', {});
  // The server exits once its sockets close: wait for ps to stop listing it.
  const deadline = Date.now() + 10_000;
  while ((await serversOnPhone()).length > 0) {
    if (Date.now() > deadline) throw new Error(`a scrcpy server is left on the phone: ${(await serversOnPhone()).join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('video mirror', () => {
  it('Scenario: The mirror streams the phone as H.264 packets over the video path', async () => {
    await harness.reset();
    const window = receive();
    try {
      await startMirror();
      await until(() => window.frames.some((frame) => frame.meta.mediaType === 'video/h264'), 20_000, 'a video frame');
      const first = window.frames.find((frame) => frame.meta.mediaType === 'video/h264')!;
      expect(first.meta).toMatchObject({ keyFrame: true, codec: expect.stringMatching(/^avc1\.[0-9A-F]{6}$/), deviceWidth: 1080, deviceHeight: 2400 });
      expect(Math.max(first.meta.width, first.meta.height)).toBeLessThanOrEqual(800);
      expect(decodeWithFfmpeg(first.bytes)).toEqual({ width: first.meta.width, height: first.meta.height });
      const status = await app.waitForEvent('mirror.status', (s) => s.source === 'video');
      expect(status).toMatchObject({ serial: harness.serial, fallbackReason: null });
      expect(await serversOnPhone()).toHaveLength(1);
      // No screenshot is taken while video flows.
      // By arrival order: each source numbers its own frames, so sequence numbers do not compare across them.
      expect(window.frames.slice(window.frames.indexOf(first)).filter((frame) => frame.meta.mediaType !== 'video/h264')).toEqual([]);

      // A change on the phone arrives as a new packet.
      const before = window.frames.length;
      await harness.shell('input keyevent 3');
      await until(() => window.frames.length > before, 20_000, 'a frame after a change');
    } finally {
      window.stop();
      await stopAndCheckNoServer();
    }
  });

  it('Scenario: A click on the mirror reaches the phone over the control socket', async () => {
    await harness.reset();
    const window = receive();
    try {
      await startMirror();
      await app.waitForEvent('mirror.status', (s) => s.source === 'video' && s.serial === harness.serial);
      const settingsIcon = await launcherIcon('Settings');
      // Any adb shell command now hangs: a tap sent with `input tap` would never return.
      await harness.control('/faults', { body: { kind: 'hang' } });
      await app.call('devices.tap', { serial: harness.serial, ...settingsIcon });
      const deadline = Date.now() + 10_000;
      while ((await harness.state()).foreground !== 'com.android.settings') {
        if (Date.now() > deadline) throw new Error('the tap did not open Settings');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // The fault is still armed: the tap did not go through the shell.
      expect((await harness.control<{ faults: { kind: string }[] }>('/faults')).body.faults).toEqual([{ kind: 'hang' }]);
    } finally {
      window.stop();
      await harness.reset();
      await stopAndCheckNoServer();
    }
  });

  it('Scenario: The mirror falls back to screenshots when the server cannot be pushed', async () => {
    await harness.reset();
    await harness.control('/faults', { body: { kind: 'push-refused' } });
    const window = receive();
    try {
      await startMirror();
      const status = await app.waitForEvent('mirror.status', (s) => s.serial === harness.serial && Boolean(s.fallbackReason));
      expect(status.fallbackReason).toMatch(/push|denied|EACCES|refused/i);
      expect(status.source).toBe('screenshots');
      await until(() => window.frames.some((frame) => frame.meta.mediaType === 'image/jpeg'), 20_000, 'a screenshot frame');
      expect(window.frames.filter((frame) => frame.meta.mediaType === 'video/h264')).toEqual([]);
    } finally {
      window.stop();
      await stopAndCheckNoServer();
    }
  });

  it('Scenario: A stream that dies mid-way falls back to screenshots', async () => {
    await harness.reset();
    const window = receive();
    try {
      await startMirror();
      await until(() => window.frames.some((frame) => frame.meta.mediaType === 'video/h264'), 20_000, 'a video frame');
      await harness.control('/faults', { body: { kind: 'scrcpy-crash' } });
      await harness.shell('input keyevent 3');
      const status = await app.waitForEvent('mirror.status', (s) => s.serial === harness.serial && s.source === 'screenshots' && Boolean(s.fallbackReason));
      expect(status.fallbackReason).toMatch(/stream ended|server on the phone stopped/);
      const lastVideo = window.frames.findLast((frame) => frame.meta.mediaType === 'video/h264')!;
      await until(() => window.frames.some((frame) => frame.meta.mediaType === 'image/jpeg' && frame.meta.seq > 0), 20_000, 'screenshots after the stream died');
      expect(lastVideo).toBeDefined();
    } finally {
      window.stop();
      await stopAndCheckNoServer();
    }
  });
});

/** The centre of a launcher icon, in device pixels, from the phone's own UI dump. */
async function launcherIcon(label: string): Promise<{ x: number; y: number }> {
  const dump = await harness.shell('uiautomator dump /dev/tty');
  const node = new RegExp(`text="${label}"[^>]*bounds="\\[(\\d+),(\\d+)\\]\\[(\\d+),(\\d+)\\]"`).exec(dump.stdout);
  if (!node) throw new Error(`no ${label} icon on the launcher`);
  const [x1, y1, x2, y2] = node.slice(1).map(Number) as [number, number, number, number];
  return { x: Math.round((x1 + x2) / 2), y: Math.round((y1 + y2) / 2) };
}
