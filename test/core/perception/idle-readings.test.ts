// A fleet worker reads its idle phones ahead of their next job: the real adb server, adbkit and the demo phone; the
// commands the phone receives are counted on the way out of the Observer.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdbClient } from '../../../src/core/device/adb-client';
import { IdleReadings } from '../../../src/core/perception/idle-readings';
import { Observer, type ScreenReading } from '../../../src/core/perception/observer';
import { createDeviceLocks } from '../../../src/core/storage/device-lock';
import type { Scene } from '../../../src/shared/scene';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';
import { until } from '../../app/app-fixture';

let harness: AdbHarness;
let adb: AdbClient;
let home: string;
let readings: IdleReadings | undefined;

beforeAll(async () => {
  harness = await startAdbHarness();
  adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
  home = await mkdtemp(path.join(os.tmpdir(), 'amc-idle-readings-'));
});
afterAll(async () => {
  await harness?.stop();
  await rm(home, { recursive: true, force: true });
});
beforeEach(async () => {
  await harness.reset();
});
afterEach(async () => {
  await readings?.close();
  readings = undefined;
});

/** The adb client with every command sent through it written down, in order. */
function counted(): { adb: Pick<AdbClient, 'shellInto' | 'execInto'>; sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    adb: {
      shellInto: (serial, command, into, options) => (sent.push(command), adb.shellInto(serial, command, into, options)),
      execInto: (serial, command, into, options) => (sent.push(command), adb.execInto(serial, command, into, options)),
    },
  };
}

const isDump = (command: string) => command.includes('uiautomator dump') || command.includes('-layout');
const isScreencap = (command: string) => command.startsWith('screencap');
const labels = (scene: Scene | null) => scene?.elements.map((element) => element.text ?? element.desc ?? '') ?? [];

/** Idle readings that look often, with a record of the readings they made. */
function watching(observerAdb: Pick<AdbClient, 'shellInto' | 'execInto'>, options: { isFree?: (serial: string) => Promise<boolean> } = {}) {
  const observer = new Observer(observerAdb, { screenshot: false });
  const made: ScreenReading[] = [];
  const recorded = {
    screenFingerprint: (serial: string, signal?: AbortSignal) => observer.screenFingerprint(serial, signal),
    readAhead: async (serial: string, signal?: AbortSignal) => {
      const reading = await observer.readAhead(serial, signal);
      if (reading) made.push(reading);
      return reading;
    },
  };
  readings = new IdleReadings(recorded, { intervalMs: 30, slowestMs: 60, ...options });
  readings.watch([harness.serial]);
  return { readings, made };
}

describe('a worker reads its idle phones ahead of their next job', () => {
  it("Scenario: A job's first look at a phone read while it waited sends no layout dump", async () => {
    const { readings, made } = watching(adb);
    await until(() => made.length > 0, 20_000, 'a reading of the idle phone');
    // As a worker does: the task holds the phone from its start to its end.
    const release = await readings.hold(harness.serial);
    const task = counted();
    const observation = await new Observer(task.adb, { readings }).observe(harness.serial);

    expect(task.sent.filter(isDump)).toEqual([]);
    expect(observation.timings.layoutReadAhead).toBe(true);
    expect(observation.screenshot).toBeDefined();
    const fresh = await new Observer(adb).observe(harness.serial);
    expect(labels(observation.scene)).toEqual(labels(fresh.scene));
    expect(observation.scene?.screen.package).toBe(fresh.scene?.screen.package);
    // Handed out once: the task's next look reads the phone itself.
    const next = counted();
    await new Observer(next.adb, { readings }).observe(harness.serial);
    expect(next.sent.filter(isDump).length).toBeGreaterThan(0);
    release();
  });

  it('Scenario: A screen that changed after it was read ahead is read afresh', async () => {
    const { readings, made } = watching(adb);
    await until(() => made.length > 0, 20_000, 'a reading of the idle phone');
    const readAhead = (await new Observer(adb, { readings: { take: () => made.at(-1) } }).observe(harness.serial)).scene;
    // Held as a task would be: the screen changes and the watch does not see it.
    const release = await readings.hold(harness.serial);
    expect((await harness.shell('am start -a android.settings.SETTINGS')).code).toBe(0);
    const task = counted();
    const observation = await new Observer(task.adb, { readings }).observe(harness.serial);
    release();

    expect(task.sent.filter(isDump).length).toBeGreaterThan(0);
    expect(observation.timings.layoutReadAhead).toBeUndefined();
    expect(observation.scene?.screen.package).toBe('com.android.settings');
    expect(readAhead?.screen.package).not.toBe('com.android.settings');
  });

  it('Scenario: A phone a task holds is not looked at until the task lets go', async () => {
    const locks = createDeviceLocks(home);
    const watched = counted();
    const answers: boolean[] = [];
    const isFree = async (serial: string) => (await locks.holder(serial)) === null;
    const { readings, made } = watching(watched.adb, { isFree: async (serial) => (answers.push(await isFree(serial)), answers.at(-1)!) });
    await until(() => made.length > 0, 20_000, 'a reading of the idle phone');

    // This worker's task holds the phone: what was under way ends, then nothing more is sent.
    const release = await readings.hold(harness.serial);
    const sentWhenHeld = watched.sent.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(watched.sent.slice(sentWhenHeld)).toEqual([]);
    release();
    await until(() => watched.sent.slice(sentWhenHeld).some(isScreencap), 20_000, 'a look at the phone once it was let go');

    // Another process's task holds it (the per-phone lock file): looks stop as well.
    const lock = await locks.acquire(harness.serial, { taskId: 'other', goal: 'Open Notes' });
    const answersWhenLocked = answers.length;
    // Once the watch found the phone taken, any look begun before has ended (one look at a time).
    await until(() => answers.slice(answersWhenLocked).includes(false), 20_000, 'the watch to find the phone taken');
    const sentWhenLocked = watched.sent.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(watched.sent.slice(sentWhenLocked)).toEqual([]);
    expect(readings.take(harness.serial)).toBeUndefined();
    await lock.release();
    await until(() => watched.sent.slice(sentWhenLocked).some(isScreencap), 20_000, 'a look at the phone once the lock was let go');
  });
});
