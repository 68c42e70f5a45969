// The facts kept of a phone, read from the demo phone through the real adb server, and read again after it reconnects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdbClient } from '../../../src/core/device/adb-client';
import { PhoneFacts } from '../../../src/core/device/android/phone-facts';
import { DeviceTracker, type DeviceChange } from '../../../src/core/device/device-tracker';
import { Observer } from '../../../src/core/perception/observer';
import { Executor } from '../../../src/core/tools/executor';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';

let harness: AdbHarness;
let adb: AdbClient;
let tracker: DeviceTracker;
const changes: DeviceChange[] = [];

beforeAll(async () => {
  harness = await startAdbHarness();
  adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
  tracker = new DeviceTracker(adb);
  tracker.onChange((_, change) => changes.push(change));
  await tracker.start();
});
afterAll(async () => {
  tracker?.stop();
  await harness?.stop();
});

/** Runs the facts' commands on the demo phone through adb, and notes each one. */
function countingRead(asked: string[]) {
  return async (command: string) => (asked.push(command), adb.shell(harness.serial, command, { timeoutMs: 10_000 }));
}

describe('the facts kept of a phone, on the demo phone', () => {
  it("Scenario: A phone's facts are read from the phone and shared by perception, the tools and the device list", async () => {
    await expect.poll(() => tracker.get(harness.serial)?.screen, { timeout: 15_000 }).toEqual({ width: 1080, height: 2400, density: 420 });
    expect(tracker.get(harness.serial)).toMatchObject({ androidVersion: '14', model: 'AMC_Virtual_Phone' });
    const facts = PhoneFacts.of(adb);
    const asked: string[] = [];
    // The device list read them first: nothing more is asked of the phone for the same facts.
    expect(await facts.naturalSize(harness.serial, countingRead(asked))).toEqual({ width: 1080, height: 2400 });
    expect(await facts.density(harness.serial, countingRead(asked))).toBe(420);
    expect(await facts.build(harness.serial, countingRead(asked))).toEqual({ model: 'AMC_Virtual_Phone', release: '14', sdk: 34 });
    expect(asked).toEqual([]);
    // Perception and the tools on this connection share them: an observation's size is the phone's, and a tool
    // without a Scene aims within the kept size (a point beyond it is refused before anything is sent).
    const seen = await new Observer(adb, { screenshot: false }).observe(harness.serial);
    expect(seen.scene?.screen).toMatchObject({ width: 1080, height: 2400 });
    const outside = await new Executor(adb).execute({ name: 'tap', args: { x: 1079, y: 2400 } }, { serial: harness.serial, scene: null });
    expect(outside).toMatchObject({ ok: false });
    expect(outside.error).toMatch(/2400/);
  });

  it("Scenario: A phone's facts are read again after it reconnects", async () => {
    const facts = PhoneFacts.of(adb);
    expect(await facts.density(harness.serial, countingRead([]))).toBe(420);
    await adb.disconnectDevice(harness.serial);
    await expect.poll(() => changes.at(-1), { timeout: 15_000 }).toEqual({ kind: 'removed', serial: harness.serial });
    // While it was away its density was forced on the phone itself (a phone keeps `wm density N` until reset).
    const forced = await harness.device.phone.shell('wm density 320', { signal: new AbortController().signal });
    expect(forced.exitCode).toBe(0);
    await harness.connect();
    // The phone came back: what was kept of it went, and the facts are its new ones, read from the phone.
    await expect.poll(() => tracker.get(harness.serial)?.screen?.density, { timeout: 15_000 }).toBe(320);
    const asked: string[] = [];
    expect(await facts.density(harness.serial, countingRead(asked))).toBe(320);
    expect(await facts.build(harness.serial, countingRead(asked))).toEqual({ model: 'AMC_Virtual_Phone', release: '14', sdk: 34 });
    expect(await facts.naturalSize(harness.serial, countingRead(asked))).toEqual({ width: 1080, height: 2400 });
  });
});
