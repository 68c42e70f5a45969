// The mirror and the agent share one phone: while a task observes it, the mirror starts no capture of its own.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../../src/main/ipc/event-hub';
import { MirrorPump } from '../../../src/main/mirror/mirror-pump';

const screen = async () => ({ png: await sharp({ create: { width: 108, height: 240, channels: 3, background: '#3366ff' } }).png().toBuffer() });

function until(check: () => boolean, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (check()) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() - started > 10_000) {
        clearInterval(poll);
        reject(new Error(`timed out waiting for ${what}`));
      }
    }, 5);
  });
}

describe('mirror and agent on one phone', () => {
  it('Scenario: The mirror holds its captures while the agent observes the phone', async () => {
    const events = new EventHub();
    const stopViewing = events.subscribeFrames(() => undefined);
    const image = await screen();
    let capturesInFlight = 0;
    let captures = 0;
    let observing = false;
    let capturesStartedWhileObserving = 0;
    const pump = new MirrorPump({
      events,
      idlePollMs: 20,
      grab: async () => {
        if (observing) capturesStartedWhileObserving++;
        capturesInFlight++;
        captures++;
        await new Promise((resolve) => setTimeout(resolve, 2));
        capturesInFlight--;
        return image;
      },
    });
    try {
      pump.start('phone-1');
      await until(() => captures >= 3, 'mirror captures');

      let finishObservation!: () => void;
      const observation = pump.yieldTo('phone-1', async () => {
        // A capture already under way may finish; none starts after this point.
        await until(() => capturesInFlight === 0, 'the capture under way to end');
        observing = true;
        await new Promise<void>((resolve) => (finishObservation = resolve));
        observing = false;
        return 'scene';
      });
      await until(() => observing, 'the observation to start');
      await new Promise((resolve) => setTimeout(resolve, 150));
      finishObservation();
      expect(await observation).toBe('scene');
      expect(capturesStartedWhileObserving).toBe(0);

      // The mirror resumes at once, and another phone's observation never holds it.
      const resumedFrom = captures;
      await until(() => captures > resumedFrom + 2, 'captures after the observation');
      const other = captures;
      await pump.yieldTo('phone-2', async () => until(() => captures > other + 2, 'captures during another phone\'s observation'));
    } finally {
      stopViewing();
      await pump.close();
    }
  });
});
