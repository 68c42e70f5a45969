import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';

describe('virtual device connection life cycle with the real adb server', () => {
  let harness: AdbHarness;

  beforeAll(async () => {
    harness = await startAdbHarness();
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it('Scenario: A second adb connect to the same address is answered as already connected', async () => {
    const again = await harness.adb(['connect', harness.serial]);
    expect(again.stdout).toContain(`already connected to ${harness.serial}`);
    const devices = await harness.adb(['devices']);
    expect(devices.stdout.split('\n').filter((line) => line.startsWith(harness.serial))).toHaveLength(1);
    expect(harness.device.adb.stats().connections).toBe(1);
  });

  it('Scenario: A second adb server can use the device at the same time', async () => {
    const second = await startAdbHarness({ device: harness.device });
    try {
      expect(harness.device.adb.stats().connections).toBe(2);
      const [first, other] = await Promise.all([harness.shell('echo from first'), second.shell('echo from second')]);
      expect(first.stdout).toBe('from first\n');
      expect(other.stdout).toBe('from second\n');
    } finally {
      await second.stop();
    }
    await expect.poll(() => harness.device.adb.stats().connections).toBe(1);
    expect((await harness.shell('echo still')).stdout).toBe('still\n');
  });

  it('Scenario: An injected connection drop is survived', async () => {
    const injected = await harness.control('/faults', { body: { kind: 'connection-drop' } });
    expect(injected.status).toBe(200);

    const dropped = await harness.shell('echo lost', { timeoutMs: 10_000 });
    expect(dropped.code).not.toBe(0);
    expect(dropped.stdout).not.toContain('lost');

    // The adb server reconnects by itself shortly after a drop.
    await harness.waitForState('device');
    const after = await harness.shell('echo back');
    expect(after).toMatchObject({ code: 0, stdout: 'back\n' });
    expect(harness.device.adb.stats().connections).toBe(1);
    expect((await harness.control<{ faults: unknown[] }>('/faults')).body.faults).toEqual([]);
  });

  it('Scenario: A command that hangs ends cleanly when the client gives up', async () => {
    await harness.control('/faults', { body: { kind: 'hang' } });
    const hung = await harness.shell('echo never', { timeoutMs: 1_500 });
    expect(hung.timedOut).toBe(true);
    // Killing the client closes its stream; the device releases it and keeps serving.
    await expect.poll(() => harness.device.adb.stats().streams).toBe(0);
    expect((await harness.shell('echo next')).stdout).toBe('next\n');
  });

  it('Scenario: adb disconnect closes the transport cleanly and the device accepts a new connect', async () => {
    const disconnected = await harness.adb(['disconnect', harness.serial]);
    expect(disconnected.stdout).toContain(`disconnected ${harness.serial}`);
    await expect.poll(() => harness.device.adb.stats()).toEqual({ connections: 0, streams: 0 });
    expect((await harness.adb(['devices'])).stdout).not.toContain(harness.serial);

    await harness.connect();
    expect((await harness.shell('echo reconnected')).stdout).toBe('reconnected\n');
  });
});
