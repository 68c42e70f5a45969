import * as adbkitNamespace from '@devicefarmer/adbkit';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { centerOf, matches, parseDump, type DumpNode, type Selector } from '../tasks/phone-driver';

type AdbkitModule = typeof adbkitNamespace;
const adbkit: AdbkitModule =
  'Adb' in adbkitNamespace && adbkitNamespace.Adb ? adbkitNamespace : (adbkitNamespace as unknown as { default: AdbkitModule }).default;

describe('the phone screen and faults through the real adb server', () => {
  let harness: AdbHarness;
  const screencap = async (): Promise<Buffer> => {
    const result = await harness.adbRaw(['-s', harness.serial, 'exec-out', 'screencap -p']);
    expect(result.code).toBe(0);
    return result.stdout;
  };
  const dumpToTty = async (): Promise<string> => (await harness.shell('uiautomator dump /dev/tty')).stdout;
  const dumpNodes = async (): Promise<DumpNode[]> => parseDump(await dumpToTty());
  /** Taps the centre of the first node matching `selector`, as an agent would through adb. */
  const tap = async (selector: Selector): Promise<void> => {
    const node = (await dumpNodes()).find((candidate) => matches(candidate, selector));
    if (!node) throw new Error(`nothing on screen matches ${JSON.stringify(selector)}`);
    const { x, y } = centerOf(node);
    expect((await harness.shell(`input tap ${x} ${y}`)).code).toBe(0);
  };

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
    const nodes = parseDump(xml);
    expect(nodes[0]).toMatchObject({ index: 0, bounds: { left: 0, top: 0, right: 1080, bottom: 2400 } });
    expect(nodes.some((node) => node.clickable && node.contentDesc === 'Settings')).toBe(true);
  });

  it('Scenario: Tapping the Settings icon through adb changes the foreground app, the XML and the pixels', async () => {
    const pixelsBefore = await screencap();
    const xmlBefore = await dumpToTty();
    await tap({ desc: 'Settings' });
    const focus = await harness.shell('dumpsys window');
    expect(focus.stdout).toMatch(/mCurrentFocus=.*com\.android\.settings/);
    const xmlAfter = await dumpToTty();
    expect(xmlAfter).not.toBe(xmlBefore);
    expect(parseDump(xmlAfter).some((node) => node.pkg === 'com.android.settings')).toBe(true);
    expect((await screencap()).equals(pixelsBefore)).toBe(false);
  });

  it('Scenario: Typing through adb fills the focused field', async () => {
    await harness.control('/reset', { body: { contactsPermission: 'granted' } });
    expect((await harness.shell('am start -n com.android.contacts/.activities.PeopleActivity')).code).toBe(0);
    await tap({ desc: 'Create contact' });
    await tap({ id: 'editor_name' });
    expect((await harness.shell('input text Dave%sBrown')).code).toBe(0);
    const field = (await dumpNodes()).find((node) => matches(node, { id: 'editor_name' }));
    expect(field).toMatchObject({ text: 'Dave Brown', focused: true });
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
    expect((await dumpNodes()).some((node) => node.text === 'Battery is low')).toBe(true);
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
