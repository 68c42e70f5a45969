// The person's own phone controls through the router, on the real adb server and the virtual device: typing,
// the hardware keys, rotate and the full-size screenshot; and several demo phones told apart by name.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { screenshotFileName } from '../../src/app/person-controls';
import type { AdbHarness } from '../support/adb-harness';
import { startAppOnPhone, type TestApp } from './app-fixture';

let harness: AdbHarness;
let app: TestApp;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ harness, app, stop } = await startAppOnPhone());
}, 60_000);

afterAll(async () => {
  await stop?.();
});

beforeEach(async () => {
  await harness.reset({ adbKeyboard: true, foreground: 'com.amc.notes' });
});

describe("the person's phone controls", () => {
  it('Scenario: Typed text and Enter and Backspace reach the focused field', async () => {
    // A new note with its body focused.
    await app.call('devices.tap', { serial: harness.serial, x: 960, y: 2150 });
    const xml = (await harness.shell('uiautomator dump /dev/tty')).stdout;
    const body = /resource-id="[^"]*note_body"[^>]*?bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"/.exec(xml);
    expect(body).not.toBeNull();
    const [left, top, right, bottom] = body!.slice(1).map(Number) as [number, number, number, number];
    await app.call('devices.tap', { serial: harness.serial, x: Math.round((left + right) / 2), y: Math.round((top + bottom) / 2) });
    expect((await harness.state()).focusedField).toMatch(/note_body$/);

    await app.call('devices.typeText', { serial: harness.serial, text: 'Tea & "cake"' });
    await app.call('devices.pressKey', { serial: harness.serial, key: 'enter' });
    await app.call('devices.typeText', { serial: harness.serial, text: 'café' });
    await app.call('devices.pressKey', { serial: harness.serial, key: 'delete' });
    const typed = /text="([^"]*)"[^>]*?resource-id="[^"]*note_body"/.exec((await harness.shell('uiautomator dump /dev/tty')).stdout)?.[1];
    expect(typed?.replace(/&#10;/g, '\n').replace(/&quot;/g, '"').replace(/&amp;/g, '&')).toBe('Tea & "cake"\ncaf');
    const refused = await app.fail('devices.typeText', { serial: harness.serial, text: '' });
    expect(refused.code).toBe('invalid_input');
  });

  it('Scenario: Rotate turns auto-rotate off and steps the rotation', async () => {
    const first = await app.call('devices.rotate', { serial: harness.serial });
    const second = await app.call('devices.rotate', { serial: harness.serial });
    expect(second.rotation).toBe((first.rotation + 1) % 4);
    expect((await harness.shell('settings get system user_rotation')).stdout.trim()).toBe(String(second.rotation));
    expect((await harness.shell('settings get system accelerometer_rotation')).stdout.trim()).toBe('0');
  });

  it('Scenario: A screenshot is the phone’s own PNG at full size', async () => {
    const shot = await app.call('devices.screenshot', { serial: harness.serial });
    const png = Buffer.from(shot.base64, 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect([shot.width, shot.height]).toEqual([1080, 2400]);
    expect(shot.fileName).toMatch(/^screenshot-127_0_0_1_\d+-\d{8}-\d{6}\.png$/);
    expect(screenshotFileName('R58M:1/../x', new Date('2026-01-02T03:04:05.678Z'))).toBe('screenshot-R58M_1_x-20260102-030405.png');
  });

  it('Scenario: Several demo phones get distinct names', async () => {
    const first = await app.call('devices.startDemo', {});
    expect(first).toMatchObject({ name: 'Demo phone', alreadyRunning: false });
    expect(await app.call('devices.startDemo', {})).toEqual({ ...first, alreadyRunning: true });
    const second = await app.call('devices.startDemo', { another: true });
    expect(second).toMatchObject({ name: 'Demo phone 2', alreadyRunning: false });
    expect(second.serial).not.toBe(first.serial);
    const list = await app.call('devices.list', {});
    const names = Object.fromEntries(list.devices.map((device) => [device.serial, device.name]));
    expect(names).toEqual({ [harness.serial]: undefined, [first.serial]: 'Demo phone', [second.serial]: 'Demo phone 2' });
  });
});
