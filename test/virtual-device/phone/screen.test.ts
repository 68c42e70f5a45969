import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { VirtualPhone } from '../../../packages/demo-phone/src/phone/phone';
import { LIGHT_THEME } from '../../../packages/demo-phone/src/phone/ui/theme';
import { centerOf, parseDump, PhoneDriver } from '../../tasks/phone-driver';

const signal = new AbortController().signal;

interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

async function decode(png: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function pixel(image: Pixels, x: number, y: number): string {
  const offset = (y * image.width + x) * 4;
  return '#' + [0, 1, 2].map((channel) => (image.data[offset + channel] as number).toString(16).padStart(2, '0')).join('').toUpperCase();
}

async function screenshot(phone: VirtualPhone): Promise<Buffer> {
  const result = await phone.shell('screencap -p', { signal });
  expect(result.exitCode).toBe(0);
  return result.stdout;
}

describe('phone screen', () => {
  it('Scenario: The dump has the real uiautomator format', async () => {
    const phone = new VirtualPhone();
    const { stdout, exitCode } = await phone.shell('uiautomator dump /dev/tty', { signal });
    const text = stdout.toString('utf8');
    expect(exitCode).toBe(0);
    expect(text.startsWith(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.android.launcher3" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">`)).toBe(true);
    expect(text.endsWith('</hierarchy>UI hierchary dumped to: /dev/tty\n')).toBe(true);
    expect(text.split('\n')).toHaveLength(2);
    const nodes = parseDump(text);
    const settings = nodes.find((node) => node.contentDesc === 'Settings');
    expect(settings).toMatchObject({ text: 'Settings', className: 'android.widget.TextView', clickable: true, pkg: 'com.android.launcher3' });
    expect(nodes.filter((node) => node.pkg === 'com.android.systemui').map((node) => node.contentDesc)).toEqual(expect.arrayContaining(['Back', 'Home', 'Overview']));
  });

  it('Scenario: uiautomator dump writes the default file', async () => {
    const phone = new VirtualPhone();
    const { stdout } = await phone.shell('uiautomator dump', { signal });
    expect(stdout.toString()).toBe('UI hierchary dumped to: /sdcard/window_dump.xml\n');
    expect(phone.fs.read('/sdcard/window_dump.xml').toString()).toMatch(/^<\?xml .*<\/hierarchy>$/);
    const failed = await phone.shell('uiautomator dump /system/dump.xml', { signal });
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr.toString()).toContain('Read-only file system');
  });

  it("Scenario: A button's bounds in the dump cover pixels of its drawn colour", async () => {
    const phone = new VirtualPhone({ seed: { contactsPermission: 'granted' } });
    const driver = new PhoneDriver(phone);
    await driver.sh('monkey -p com.android.contacts -c android.intent.category.LAUNCHER 1');
    await driver.tap({ desc: 'Create contact' });
    await driver.tap({ id: 'editor_name' });
    await driver.type('Dave');
    const save = await driver.get({ text: 'Save' });
    expect(save).toMatchObject({ className: 'android.widget.Button', enabled: true });
    const image = await decode(await screenshot(phone));
    const middle = centerOf(save).y;
    expect(pixel(image, save.bounds.left + 10, middle)).toBe(LIGHT_THEME.primary);
    expect(pixel(image, save.bounds.right - 10, middle)).toBe(LIGHT_THEME.primary);
    expect(pixel(image, save.bounds.left - 6, middle)).toBe(LIGHT_THEME.surfaceContainer);
    expect(pixel(image, save.bounds.left + 10, save.bounds.bottom + 6)).not.toBe(LIGHT_THEME.primary);
  });

  it('Scenario: Tapping the Settings icon changes the foreground app, the XML and the pixels', async () => {
    const phone = new VirtualPhone();
    const driver = new PhoneDriver(phone);
    const homePng = await screenshot(phone);
    const icon = await driver.get({ desc: 'Settings' });
    expect(icon.bounds).toEqual({ left: 0, top: 200, right: 270, bottom: 500 });
    const { x, y } = centerOf(icon);
    await driver.sh(`input tap ${x} ${y}`);
    expect(phone.state()).toMatchObject({ foreground: 'com.android.settings', activity: 'com.android.settings/.Settings' });
    const nodes = await driver.dump();
    expect(nodes.some((node) => node.text === 'Network & internet')).toBe(true);
    expect(nodes.some((node) => node.contentDesc === 'Contacts')).toBe(false);
    const settingsPng = await screenshot(phone);
    expect(settingsPng.equals(homePng)).toBe(false);
    const [home, settings] = [await decode(homePng), await decode(settingsPng)];
    expect(pixel(home, 540, 150)).not.toBe(LIGHT_THEME.surfaceContainer);
    expect(pixel(settings, 540, 150)).toBe(LIGHT_THEME.surfaceContainer);
  });

  it("Scenario: adbkit's screencap command gets a newline and then the PNG", async () => {
    const { stdout, exitCode } = await new VirtualPhone().shell('echo && screencap -p 2>/dev/null', { signal });
    expect(exitCode).toBe(0);
    expect(stdout[0]).toBe(0x0a);
    const metadata = await sharp(stdout.subarray(1)).metadata();
    expect(metadata).toMatchObject({ format: 'png', width: 1080, height: 2400 });
  });

  it('Scenario: Raw screencap has the 16-byte header and RGBA pixels', async () => {
    const phone = new VirtualPhone();
    const { stdout } = await phone.shell('screencap', { signal });
    expect([0, 4, 8, 12].map((offset) => stdout.readUInt32LE(offset))).toEqual([1080, 2400, 1, 1]);
    expect(stdout.length).toBe(16 + 1080 * 2400 * 4);
    const png = await decode(await screenshot(phone));
    expect(stdout.subarray(16).equals(png.data)).toBe(true);
    await phone.shell('screencap /sdcard/shot.png', { signal });
    expect((await sharp(phone.fs.read('/sdcard/shot.png')).metadata()).format).toBe('png');
  });

  it('Scenario: An unchanged screen is captured from cache', async () => {
    const phone = new VirtualPhone();
    const first = await phone.screenshotPng();
    const second = await phone.screenshotPng();
    expect(second).toBe(first);
    await phone.shell('input tap 135 350', { signal });
    const third = await phone.screenshotPng();
    expect(third).not.toBe(first);
    expect(third.equals(first)).toBe(false);
  });

  it('Scenario: An input that changes nothing visible reuses the pixels', async () => {
    const phone = new VirtualPhone();
    const home = await phone.screenshotPng();
    const homeRgba = (await phone.shell('screencap', { signal })).stdout;
    await phone.shell('input keyevent HOME', { signal }); // already home: a new screen state, the same picture
    expect(await phone.screenshotPng()).toBe(home);
    expect((await phone.shell('screencap', { signal })).stdout.equals(homeRgba)).toBe(true);
    // A new phone draws the same screen from scratch (unless the status bar clock turned over meanwhile).
    const minute = new Date().getMinutes();
    const fresh = await new VirtualPhone().screenshotPng();
    if (new Date().getMinutes() === minute && (await phone.screenshotPng()) === home) expect(fresh.equals(home)).toBe(true);
    await phone.shell('monkey -p com.android.settings -c android.intent.category.LAUNCHER 1', { signal });
    const settings = await phone.screenshotPng();
    expect(settings.equals(home)).toBe(false);
    expect(pixel(await decode(settings), 540, 150)).toBe(LIGHT_THEME.surfaceContainer);
  });

  it('draws the dark theme when it is switched on', async () => {
    const phone = new VirtualPhone({ seed: { foreground: 'com.android.settings' } });
    const light = await decode(await phone.screenshotPng());
    await phone.shell('settings put secure ui_night_mode 2', { signal });
    const dark = await decode(await phone.screenshotPng());
    expect(pixel(light, 540, 150)).toBe(LIGHT_THEME.surfaceContainer);
    expect(pixel(dark, 540, 150)).toBe('#211F26');
  });
});
