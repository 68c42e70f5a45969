// The video session on its own: the real VideoSource (adbkit, the harness's adb server, the demo phone running the
// pushed server) for what a phone can do to it, and a scripted source only for a display that changes faster than
// any phone here can be made to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdbClient } from '../../../src/core/device/adb-client';
import type { VideoRunHandlers } from '../../../src/app/mirror/video-source';
import { VideoSource } from '../../../src/app/mirror/video-source';
import { VideoSession, type VideoSessionOptions, type VideoStream } from '../../../src/app/mirror/video-session';
import type { VideoSessionState } from '../../../src/app/mirror/video-session-state';
import type { FrameMeta } from '../../../src/shared/contract';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';
import { helperStandIn } from '../../support/helper-stand-in';
import { until } from '../app-fixture';

let harness: AdbHarness;
let adb: AdbClient;

beforeAll(async () => {
  harness = await startAdbHarness();
  adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
}, 60_000);

afterAll(async () => {
  await harness?.stop();
});

const realSource = () =>
  new VideoSource({ adb: async () => adb, server: async () => ({ available: true, file: 'scrcpy-server', bytes: helperStandIn('scrcpy-server'), origin: 'settings' }) });

/** A session that records every state it enters and every frame it hands on. */
function watchedSession(options: Partial<VideoSessionOptions> & Pick<VideoSessionOptions, 'source'>) {
  const states: VideoSessionState[] = [];
  const frames: FrameMeta[] = [];
  const session: VideoSession = new VideoSession({
    enabled: async () => true,
    viewers: () => 1,
    frame: (meta) => frames.push(meta),
    changed: () => states.push(session.state),
    ...options,
  });
  return { session, states, frames };
}

async function serversOnPhone(): Promise<number> {
  const ps = await harness.shell('ps -A');
  return ps.stdout.split('\n').filter((line) => line.trim().endsWith(' app_process')).length;
}

/** The server exits once its sockets close: waits for `ps` to stop listing it. */
async function noServerLeft(): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await serversOnPhone()) > 0) {
    if (Date.now() > deadline) throw new Error('a scrcpy server is left on the phone');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('video session', () => {
  it('Scenario: A video session goes live, restarts at a rotation and stops to idle', async () => {
    await harness.reset();
    const { session, states, frames } = watchedSession({ source: realSource() });
    try {
      session.start(harness.serial, { maxSize: 800, decodesVideo: true });
      expect(session.state).toBe('starting');
      await until(() => session.state === 'live', 20_000, 'the first video frame');
      expect(session.control(harness.serial)).not.toBeNull();
      expect(session.control('another-phone')).toBeNull();
      const portrait = frames.at(-1)!;
      expect(portrait.height).toBeGreaterThan(portrait.width);

      await harness.shell('settings put system user_rotation 1');
      await until(() => states.includes('restarting') && session.state === 'live', 20_000, 'the stream back after the rotation');
      const landscape = frames.at(-1)!;
      expect(landscape.width).toBeGreaterThan(landscape.height);
      expect(states).toEqual(['starting', 'live', 'restarting', 'live']);
      expect(session.fallback).toBeNull();
    } finally {
      session.stop();
      await harness.shell('settings put system user_rotation 0');
    }
    expect(session.state).toBe('idle');
    expect(session.requestKeyFrame()).toBe(false);
    await noServerLeft();
  });

  it('Scenario: A refused helper push makes the video session fall back with the reason', async () => {
    await harness.reset();
    await harness.control('/faults', { body: { kind: 'push-refused' } });
    const { session, states } = watchedSession({ source: realSource() });
    try {
      session.start(harness.serial, { maxSize: 800, decodesVideo: true });
      await until(() => session.state === 'fell-back', 20_000, 'the fallback');
      expect(states).toEqual(['starting', 'fell-back']);
      // The clause the mirror line shows after "Showing screenshots, not video:".
      expect(session.fallback?.reason).toMatch(/push|denied|EACCES|refused/i);
      expect(session.control(harness.serial)).toBeNull();
    } finally {
      session.stop();
      await harness.reset();
    }
    await noServerLeft();
  });

  it('Scenario: A scrcpy stream that dies mid-session makes the video session fall back, and a retry brings it back', async () => {
    await harness.reset();
    const { session, states } = watchedSession({ source: realSource() });
    try {
      session.start(harness.serial, { maxSize: 800, decodesVideo: true });
      await until(() => session.state === 'live', 20_000, 'the first video frame');
      await harness.control('/faults', { body: { kind: 'scrcpy-crash' } });
      await harness.shell('input keyevent 3');
      await until(() => session.state === 'fell-back', 20_000, 'the fallback after the crash');
      expect(session.fallback?.reason).toMatch(/stream ended|server on the phone stopped/);
      expect(session.control(harness.serial)).toBeNull();

      // A window opened again: the session tries once more and goes live.
      await harness.reset();
      session.retry(true);
      await until(() => session.state === 'live', 20_000, 'video after the retry');
      expect(session.fallback).toBeNull();
      expect(states).toEqual(['starting', 'live', 'fell-back', 'starting', 'live']);
    } finally {
      session.stop();
    }
    await noServerLeft();
  });

  it('Scenario: The video session stops while nobody watches and starts again when someone does', async () => {
    await harness.reset();
    const { session } = watchedSession({ source: realSource() });
    try {
      session.start(harness.serial, { maxSize: 800, decodesVideo: true });
      await until(() => session.state === 'live', 20_000, 'the first video frame');
      session.watch(false);
      expect(session.state).toBe('idle');
      await noServerLeft();
      session.watch(true);
      await until(() => session.state === 'live', 20_000, 'video for the returning viewer');
    } finally {
      session.stop();
    }
    await noServerLeft();
  });

  it('Scenario: A display that keeps changing before the video paints makes the session fall back after the restart limit', async () => {
    const starts: VideoRunHandlers[] = [];
    const stream: VideoStream = { stop: () => undefined, running: true, requestKeyFrame: () => undefined, tap: async () => undefined, swipe: async () => undefined, pressKey: async () => undefined };
    const { session, states } = watchedSession({
      maxRestarts: 2,
      source: { start: async (_serial, _maxSize, handlers) => (starts.push(handlers), stream) },
    });
    session.start('phone-1', { maxSize: 800, decodesVideo: true });
    await until(() => starts.length === 1, 5_000, 'the first start');
    const restartEnded = session.restartEnded(60_000);
    starts[0]!.ended('the display changed', true);
    expect(session.state).toBe('restarting');
    await until(() => starts.length === 2, 5_000, 'the first restart');
    starts[1]!.ended('the display changed', true);
    await until(() => starts.length === 3, 5_000, 'the second restart');
    expect(session.state).toBe('restarting');
    starts[2]!.ended('the display changed', true);
    expect(session.state).toBe('fell-back');
    expect(session.fallback).toEqual({ reason: 'the display changed 3 times in a row before the video could show it', fix: null, said: { reason: { code: 'video.displayKeptChanging', values: { times: 3 } }, fix: null } });
    // A gesture waiting for the restart goes on at once.
    await restartEnded;
    expect(starts).toHaveLength(3);
    expect(states).toEqual(['starting', 'restarting', 'restarting', 'fell-back']);
  });

  it('Scenario: A video session that is off in Settings or has no decoder falls back with the fix', async () => {
    const source = { start: async (): Promise<VideoStream> => Promise.reject(new Error('no start expected')) };
    const off = watchedSession({ source, enabled: async () => false });
    off.session.start('phone-1', { maxSize: 800, decodesVideo: true });
    await until(() => off.session.state === 'fell-back', 5_000, 'the fallback');
    expect(off.session.fallback).toMatchObject({ reason: 'the video mirror is off in Settings', fix: expect.stringMatching(/^Turn on ".+" in Settings/) });

    const blind = watchedSession({ source });
    blind.session.start('phone-1', { maxSize: 800, decodesVideo: false });
    expect(blind.session.state).toBe('fell-back');
    expect(blind.session.fallback?.reason).toBe('this window cannot decode video');
    // A window that still cannot decode does not retry.
    blind.session.retry(false);
    expect(blind.states).toEqual(['starting', 'fell-back']);
  });
});
