import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdbClient } from '../../../src/core/device/adb-client';
import { Observer } from '../../../src/core/perception/observer';
import { pngWorkerRunning } from '../../../src/core/perception/png-worker';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';

// This file's module state is its own (Vitest isolates test files), so the worker starts here or not at all.

let harness: AdbHarness;
let adb: AdbClient;

beforeAll(async () => {
  harness = await startAdbHarness();
  adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
});
afterAll(async () => {
  await harness?.stop();
});

/** The real adb client, noting whether the PNG worker was running when each screencap began. */
function watchingScreencaps(): { adb: Pick<AdbClient, 'shellInto' | 'execInto'>; workerAtScreencap: Record<string, boolean> } {
  const workerAtScreencap: Record<string, boolean> = {};
  const note = (command: string) => {
    if (command.startsWith('screencap')) workerAtScreencap[command] = pngWorkerRunning();
  };
  return {
    workerAtScreencap,
    adb: {
      shellInto: (serial, command, into, options) => (note(command), adb.shellInto(serial, command, into, options)),
      execInto: (serial, command, into, options) => (note(command), adb.execInto(serial, command, into, options)),
    },
  };
}

describe('PNG worker warm-up', () => {
  it('Scenario: The PNG worker starts as a PNG screenshot is captured, never for raw captures', async () => {
    const raw = watchingScreencaps();
    const rawObservation = await new Observer(raw.adb, { screencap: 'raw' }).observe(harness.serial);
    expect(rawObservation.screenshot?.mediaType).toBe('image/jpeg');
    await new Observer(raw.adb, { screenshot: false }).observe(harness.serial);
    expect(raw.workerAtScreencap).toEqual({ screencap: false });
    expect(pngWorkerRunning()).toBe(false);

    // The harness's serial is a network address: `auto` takes `screencap -p` for it.
    const png = watchingScreencaps();
    const pngObservation = await new Observer(png.adb).observe(harness.serial);
    expect(pngObservation.screenshot?.mediaType).toBe('image/jpeg');
    expect(png.workerAtScreencap).toEqual({ 'screencap -p': true });
  });
});
