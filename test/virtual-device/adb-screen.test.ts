import * as adbkitNamespace from '@devicefarmer/adbkit';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';

type AdbkitModule = typeof adbkitNamespace;
const adbkit: AdbkitModule =
  'Adb' in adbkitNamespace && adbkitNamespace.Adb ? adbkitNamespace : (adbkitNamespace as unknown as { default: AdbkitModule }).default;

/** The attributes of every `<node>` in a uiautomator dump. */
function dumpNodes(xml: string): Array<Record<string, string>> {
  return [...xml.matchAll(/<node\s([^>]*?)\/?>/g)].map((match) =>
    Object.fromEntries([...match[1]!.matchAll(/([\w-]+)="([^"]*)"/g)].map((attr) => [attr[1]!, attr[2]!])),
  );
}

describe('the phone screen and faults through the real adb server', () => {
  let harness: AdbHarness;
  const screencap = async (): Promise<Buffer> => {
    const result = await harness.adbRaw(['-s', harness.serial, 'exec-out', 'screencap -p']);
    expect(result.code).toBe(0);
    return result.stdout;
  };
  const dumpToTty = async (): Promise<string> => (await harness.shell('uiautomator dump /dev/tty')).stdout;

  beforeAll(async () => {
    harness = await startAdbHarness();
  });

  afterAll(async () => {
    await harness?.stop();
  });

  beforeEach(async () => {
    expect((await harness.control('/reset', { method: 'POST' })).status).toBe(200);
  });

  it('Scenario: exec-out screencap -p decodes as a 1080x2400 PNG', async () => {
    const metadata = await sharp(await screencap()).metadata();
    expect(metadata).toMatchObject({ format: 'png', width: 1080, height: 2400 });
  });

  it('Scenario: adbkit screencap returns a 1080x2400 PNG', async () => {
    const client = adbkit.Adb.createClient({ port: harness.adbPort });
    const stream = await client.getDevice(harness.serial).screencap();
    const png = (await adbkit.Adb.util.readAll(stream as Duplex)) as Buffer;
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 1080, height: 2400 });
  });

  it('Scenario: A uiautomator dump pulled through adb parses', async () => {
    const dumped = await harness.shell('uiautomator dump');
    expect(dumped.stdout).toBe('UI hierchary dumped to: /sdcard/window_dump.xml\n');
    const local = path.join(harness.tmpDir, 'window_dump.xml');
    const pulled = await harness.adb(['-s', harness.serial, 'pull', '/sdcard/window_dump.xml', local]);
    expect(pulled.code, pulled.stdout).toBe(0);

    const xml = await readFile(local, 'utf8');
    expect(xml).toMatch(/^<\?xml version='1\.0' encoding='UTF-8' standalone='yes' \?>\s*<hierarchy rotation="0">/);
    expect(xml.trimEnd().endsWith('</hierarchy>')).toBe(true);
    const nodes = dumpNodes(xml);
    expect(nodes[0]).toMatchObject({ index: '0', bounds: '[0,0][1080,2400]' });
    expect(nodes.some((node) => node.clickable === 'true' && node.text !== '')).toBe(true);
    for (const node of nodes) expect(node.bounds).toMatch(/^\[\d+,\d+\]\[\d+,\d+\]$/);
  });

  it('Scenario: The idle-state fault shows in uiautomator output', async () => {
    await harness.control('/faults', { body: { kind: 'idle-state-error' } });
    const failed = await harness.shell('uiautomator dump /dev/tty');
    expect(failed.stdout + failed.stderr).toContain('ERROR: could not get idle state.');
    expect(failed.stdout).not.toContain('<hierarchy');
    expect(await dumpToTty()).toContain('<hierarchy');
  });

  it('Scenario: A corrupt screencap fails to decode and the next one is whole', async () => {
    await harness.control('/faults', { body: { kind: 'corrupt-screencap' } });
    const corrupt = await screencap();
    expect(corrupt.length).toBeGreaterThan(0);
    await expect(sharp(corrupt).raw().toBuffer()).rejects.toThrow();
    expect(await sharp(await screencap()).metadata()).toMatchObject({ width: 1080, height: 2400 });
  });

  it('Scenario: A pop-up dialog covers the current app in the dump and the pixels', async () => {
    const before = await screencap();
    await harness.control('/faults', { body: { kind: 'popup-dialog' } });
    const xml = await dumpToTty();
    expect(dumpNodes(xml).some((node) => node.text === 'Battery is low')).toBe(true);
    const after = await screencap();
    expect(after.equals(before)).toBe(false);
    const { body } = await harness.control<{ dialog: unknown }>('/state');
    expect(body.dialog).not.toBeNull();
  });

  it('Scenario: Screen off shows in dumpsys power and as a black screenshot', async () => {
    await harness.control('/faults', { body: { kind: 'screen-off' } });
    const power = await harness.shell('dumpsys power');
    expect(power.stdout).toContain('mWakefulness=Asleep');
    const stats = await sharp(await screencap()).stats();
    expect(stats.channels.slice(0, 3).every((channel) => channel.max === 0)).toBe(true);
  });
});
