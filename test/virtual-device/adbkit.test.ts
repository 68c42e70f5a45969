import * as adbkitNamespace from '@devicefarmer/adbkit';
import { randomBytes } from 'node:crypto';
import { PassThrough, type Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';

// adbkit is CommonJS: under Node's ESM loader its exports sit on `default`.
type AdbkitModule = typeof adbkitNamespace;
const adbkit: AdbkitModule =
  'Adb' in adbkitNamespace && adbkitNamespace.Adb ? adbkitNamespace : (adbkitNamespace as unknown as { default: AdbkitModule }).default;
const { Adb } = adbkit;

function readAll(stream: Duplex): Promise<Buffer> {
  return Adb.util.readAll(stream) as Promise<Buffer>;
}

function once<T>(emitter: { once(event: string, listener: (value: T) => void): unknown }, event: string): Promise<T> {
  return new Promise((resolve) => emitter.once(event, resolve));
}

describe('virtual device driven by adbkit through the real adb server', () => {
  let harness: AdbHarness;
  let client: adbkitNamespace.Client;

  beforeAll(async () => {
    harness = await startAdbHarness();
    client = Adb.createClient({ port: harness.adbPort });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it('Scenario: adbkit lists the virtual phone', async () => {
    const devices = await client.listDevices();
    expect(devices).toEqual([expect.objectContaining({ id: harness.serial, type: 'device' })]);
  });

  it('Scenario: adbkit shell returns the command output', async () => {
    const device = client.getDevice(harness.serial);
    const output = await readAll(await device.shell('echo hello from adbkit'));
    expect(output.toString()).toBe('hello from adbkit\n');
    // Legacy shell: stderr comes on the same stream.
    const failing = await readAll(await device.shell('nosuchcommand'));
    expect(failing.toString()).toContain('nosuchcommand: inaccessible or not found');
  });

  it('Scenario: adbkit getProperties reads the Android 14 properties', async () => {
    const properties = await client.getDevice(harness.serial).getProperties();
    expect(properties['ro.build.version.release']).toBe('14');
    expect(properties['ro.build.version.sdk']).toBe('34');
    expect(properties['ro.product.model']).toBe('AMC_Virtual_Phone');
  });

  it('Scenario: adbkit push, stat, readdir and pull round-trip a file', async () => {
    const device = client.getDevice(harness.serial);
    const content = randomBytes(300 * 1024);
    const source = new PassThrough();
    source.end(content);
    const push = await device.push(source, '/data/local/tmp/adbkit.bin', 0o640);
    await new Promise<void>((resolve, reject) => {
      push.on('end', resolve);
      push.on('error', reject);
    });

    const stats = await device.stat('/data/local/tmp/adbkit.bin');
    expect(stats.size).toBe(content.length);
    expect(stats.isFile()).toBe(true);
    const entries = await device.readdir('/data/local/tmp');
    expect(entries.map((entry: { name: string }) => entry.name)).toContain('adbkit.bin');

    const pulled = await readAll(await device.pull('/data/local/tmp/adbkit.bin'));
    expect(pulled.equals(content)).toBe(true);
  });

  it('Scenario: adbkit pull of a missing file reports open failed', async () => {
    const transfer = await client.getDevice(harness.serial).pull('/sdcard/does-not-exist.txt');
    const error = await once<Error>(transfer, 'error');
    expect(error.message).toContain('open failed: No such file or directory');
  });

  it('Scenario: adbkit stat of a missing path fails with ENOENT', async () => {
    await expect(client.getDevice(harness.serial).stat('/sdcard/nothing')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('Scenario: adbkit trackDevices sees the phone come and go', async () => {
    const tracker = await client.trackDevices();
    try {
      const removed = once<adbkitNamespace.Device>(tracker, 'remove');
      await client.disconnect('127.0.0.1', harness.device.adbPort);
      expect((await removed).id).toBe(harness.serial);

      const added = once<adbkitNamespace.Device>(tracker, 'add');
      const reply = await client.connect('127.0.0.1', harness.device.adbPort);
      expect(reply).toBe(harness.serial);
      expect((await added).id).toBe(harness.serial);
    } finally {
      tracker.end();
    }
    await harness.waitForState('device');
    expect((await readAll(await client.getDevice(harness.serial).shell('echo ok'))).toString()).toBe('ok\n');
  });
});
