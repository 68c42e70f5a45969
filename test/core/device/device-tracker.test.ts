import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdbClient } from '../../../src/core/device/adb-client';
import type { AdbError } from '../../../src/core/device/errors';
import { connectionOf, normaliseState, stateHintSaying } from '../../../src/core/device/device-info';
import { DeviceTracker, type DeviceChange } from '../../../src/core/device/device-tracker';
import type { DeviceSummary } from '../../../src/shared/device';
import { wordsFor } from '../../../src/shared/i18n/translate';
import { saidWords } from '../../../src/shared/supervision-words';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';
import { latinSentences } from '../../support/latin-sentences';

let harness: AdbHarness;
let adb: AdbClient;
let tracker: DeviceTracker;
const changes: DeviceChange[] = [];

beforeAll(async () => {
  harness = await startAdbHarness({ connect: false });
  adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
  tracker = new DeviceTracker(adb);
  tracker.onChange((_, change) => changes.push(change));
  await tracker.start();
});
afterAll(async () => {
  tracker?.stop();
  await harness?.stop();
});

const entry = (): DeviceSummary | undefined => tracker.get(harness.serial);

describe('live device list', () => {
  it('Scenario: A connected phone appears in the live list with its details', async () => {
    expect(tracker.list()).toEqual([]);
    const serial = await adb.connectDevice(harness.serial);
    expect(serial).toBe(harness.serial);
    await expect.poll(() => entry()?.state, { timeout: 15_000 }).toBe('device');
    await expect.poll(() => entry()?.model, { timeout: 10_000 }).toBeTruthy();
    const device = entry()!;
    expect(device).toMatchObject({ serial: harness.serial, connection: 'tcp' });
    expect(device.androidVersion).toBeTruthy();
    expect(device.hint).toBeUndefined();
    expect(changes).toContainEqual({ kind: 'added', serial: harness.serial });
    expect(changes).toContainEqual({ kind: 'details', serial: harness.serial });
  });

  it('Scenario: Connecting by HOST:PORT adds a TCP device', async () => {
    const listed = await adb.listDevices();
    expect(listed).toContainEqual({ serial: harness.serial, state: 'device' });
    expect(connectionOf(harness.serial)).toBe('tcp');
  });

  it('Scenario: A disconnected phone disappears from the live list', async () => {
    await adb.disconnectDevice(harness.serial);
    await expect.poll(() => entry(), { timeout: 15_000 }).toBeUndefined();
    expect(changes.at(-1)).toEqual({ kind: 'removed', serial: harness.serial });
    expect(await adb.listDevices()).toEqual([]);
  });

  it('Scenario: Tracking resumes after the adb server restarts', async () => {
    // adbkit restarts a local server it cannot reach with the plain `adb` binary and this process's environment:
    // point that environment at the harness (this test file runs in its own process).
    Object.assign(process.env, { HOME: harness.env.HOME, ANDROID_ADB_LOG_PATH: harness.env.ANDROID_ADB_LOG_PATH, ADB_EMU: '0' });
    await adb.connectDevice(harness.serial);
    await expect.poll(() => entry()?.state, { timeout: 15_000 }).toBe('device');
    await harness.adb(['kill-server']);
    await expect.poll(() => changes.some((change) => change.kind === 'server-lost'), { timeout: 15_000 }).toBe(true);
    // The restarted server does not remember TCP devices: the entry goes, and comes back on connect.
    await expect.poll(() => entry(), { timeout: 20_000 }).toBeUndefined();
    await adb.connectDevice(harness.serial);
    await expect.poll(() => entry()?.state, { timeout: 15_000 }).toBe('device');
    await adb.disconnectDevice(harness.serial);
    await expect.poll(() => entry(), { timeout: 15_000 }).toBeUndefined();
  });

  it('Scenario: No phone is listed as ready while its adb server is away', async () => {
    Object.assign(process.env, { HOME: harness.env.HOME, ANDROID_ADB_LOG_PATH: harness.env.ANDROID_ADB_LOG_PATH, ADB_EMU: '0' });
    await adb.connectDevice(harness.serial);
    await expect.poll(() => entry()?.state, { timeout: 15_000 }).toBe('device');
    const before = changes.length;
    // The moment the loss is told, the phone is already off the list: nothing may start on it until tracking resumes.
    const lost = new Promise<DeviceSummary[]>((resolve) => {
      const off = tracker.onChange((devices, change) => {
        if (change.kind !== 'server-lost') return;
        off();
        resolve(devices);
      });
    });
    await harness.adb(['kill-server']);
    expect(await lost).toEqual([]);
    expect(entry()).toBeUndefined();
    await expect.poll(() => changes.slice(before).some((change) => change.kind === 'server-back'), { timeout: 20_000 }).toBe(true);
    await adb.connectDevice(harness.serial);
    await expect.poll(() => entry()?.state, { timeout: 15_000 }).toBe('device');
  });

  it('explains a failed connect, in Chinese with adb\'s own words quoted after ours', async () => {
    const failed = await adb.connectDevice('127.0.0.1:1').then(() => undefined, (error: unknown) => error as AdbError);
    expect(failed?.message).toMatch(/^Could not connect to 127.0.0.1:1: .+\. Check the address/);
    const chinese = saidWords(failed!.message, failed!.said, wordsFor('zh-CN'));
    expect(chinese).toMatch(/^无法连接到 127\.0\.0\.1:1。请检查地址.*adb 的原话：“.+”$/);
    expect(latinSentences(chinese)).toEqual([]);
  });
});

const stateHint = (state: Parameters<typeof stateHintSaying>[0], serial: string) => stateHintSaying(state, serial)?.text;

describe('device states in plain words', () => {
  it('Scenario: An unauthorized phone tells the person what to do', () => {
    expect(normaliseState('unauthorized')).toBe('unauthorized');
    expect(stateHint('unauthorized', 'R58M123')).toBe(
      "Unlock the phone and accept the 'Allow USB debugging?' prompt (tick 'Always allow from this computer').",
    );
    expect(stateHint('offline', '192.168.1.20:5555')).toMatch(/amc connect 192.168.1.20:5555/);
    expect(stateHint('offline', 'R58M123')).toMatch(/reconnect the USB cable/);
    expect(normaliseState('no permissions (user in plugdev group; are your udev rules wrong?)')).toBe('no-permissions');
    expect(stateHint('device', 'R58M123')).toBeUndefined();
  });

  it('tells USB from TCP serials', () => {
    expect(connectionOf('R58M123ABC')).toBe('usb');
    expect(connectionOf('192.168.1.20:5555')).toBe('tcp');
    expect(connectionOf('adb-R58M123-abc._adb-tls-connect._tcp')).toBe('tcp');
    expect(connectionOf('emulator-5554')).toBe('tcp');
  });
});
