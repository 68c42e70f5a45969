// The screenshot pump on its own: it captures only while screenshots are wanted, rests while the video delivers or
// nobody could see a frame, and says when a capture fails and when it recovers.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../../src/app/ipc/event-hub';
import { ScreenshotPump, type ScreenshotDemand } from '../../../src/app/mirror/screenshot-pump';
import type { FrameMeta } from '../../../src/shared/contract';
import { until } from '../app-fixture';

describe('screenshot pump', () => {
  it('Scenario: The screenshot pump captures only while screenshots are wanted', async () => {
    const image = { png: await sharp({ create: { width: 108, height: 240, channels: 3, background: '#33aa66' } }).png().toBuffer() };
    const events = new EventHub();
    const received: FrameMeta[] = [];
    const stopViewing = events.subscribeFrames((meta) => received.push(meta));
    let demand: ScreenshotDemand = 'wanted';
    let captures = 0;
    let failNext = false;
    let pauses = 0;
    const failures: (string | null)[] = [];
    const published: FrameMeta[] = [];
    const pump = new ScreenshotPump({
      events,
      idlePollMs: 10,
      retryMs: 10,
      grab: async () => {
        captures++;
        if (failNext) {
          failNext = false;
          throw new Error('device offline');
        }
        return image;
      },
      demand: () => demand,
      paused: () => pauses++,
      published: (meta) => published.push(meta),
      failed: (reason) => failures.push(reason),
    });
    try {
      pump.start('phone-1');
      await until(() => received.length >= 2, 10_000, 'screenshot frames');
      expect(received[0]).toMatchObject({ serial: 'phone-1', mediaType: 'image/jpeg', width: 108, height: 240 });
      expect(published.map((meta) => meta.seq)).toEqual(received.slice(0, published.length).map((meta) => meta.seq));

      // The video delivers: no capture starts (one under way may end, its frame is dropped).
      demand = 'video';
      await new Promise((resolve) => setTimeout(resolve, 50));
      const capturesWhileVideo = captures;
      const framesWhileVideo = received.length;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(captures).toBe(capturesWhileVideo);
      expect(received.length).toBe(framesWhileVideo);
      expect(pauses).toBe(0);

      // Nobody could see a frame: the pump says it rests.
      demand = 'paused';
      await until(() => pauses > 0, 10_000, 'the pump to rest');
      expect(captures).toBe(capturesWhileVideo);

      // Wanted again, with one failing capture: the failure is told, then the recovery.
      failNext = true;
      demand = 'wanted';
      pump.wake();
      await until(() => failures.length === 2, 10_000, 'the failure and the recovery');
      expect(failures).toEqual(['Could not capture the screen of phone-1: device offline', null]);
    } finally {
      pump.stop();
      await pump.closed();
      stopViewing();
    }
  });
});
