// The demo phone driven by a second third-party adb client, appium-adb, which runs the Debian adb CLI against
// this harness's adb server. Expected values follow Android 14's documented outputs, not the demo phone's code.
import type { ADB } from 'appium-adb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';

let harness: AdbHarness;
let adb: ADB;

beforeAll(async () => {
  harness = await startAdbHarness();
  // appium's logger stays quiet in its testing mode, which it reads when the module loads.
  process.env._TESTING = '1';
  const { ADB } = await import('appium-adb');
  // createADB() looks for an Android SDK; the plain constructor uses `adb` from PATH, which is the Debian one.
  adb = new ADB({ adbPort: harness.adbPort, udid: harness.serial, adbExecTimeout: 20_000 });
});
afterAll(async () => {
  await harness?.stop();
});
beforeEach(async () => {
  await harness.reset();
});

describe('appium-adb against the demo phone', () => {
  it('Scenario: appium-adb reads the API level, finds installed apps and their launch activity', async () => {
    expect(await adb.getApiLevel()).toBe(34);
    expect(await adb.isAppInstalled('com.android.settings')).toBe(true);
    expect(await adb.isAppInstalled('com.example.missing')).toBe(false);
    const packages = await adb.listInstalledPackages();
    expect(packages).toContainEqual({ appPackage: 'com.android.deskclock', versionCode: expect.stringMatching(/^\d+$/) });
    // The last line of `cmd package resolve-activity --brief` is the component.
    expect(await adb.resolveLaunchableActivity('com.android.settings')).toBe('com.android.settings/.Settings');
  });

  it('Scenario: appium-adb starts and stops apps and sees which one is focused', async () => {
    await adb.startApp({ pkg: 'com.android.deskclock', activity: '.DeskClock', waitForLaunch: false });
    expect(await adb.getFocusedPackageAndActivity()).toEqual({ appPackage: 'com.android.deskclock', appActivity: '.DeskClock' });
    expect(await adb.processExists('com.android.deskclock')).toBe(true);
    await adb.forceStop('com.android.deskclock');
    expect(await adb.processExists('com.android.deskclock')).toBe(false);
    expect((await harness.state()).foreground).toBe('com.android.launcher3');
    await adb.startUri('https://example.com', 'com.android.chrome');
    expect((await harness.state()).foreground).toBe('com.android.chrome');
  });

  it('Scenario: appium-adb checks files, the keyboard, orientation and airplane mode', async () => {
    expect(await adb.fileExists('/sdcard')).toBe(true);
    expect(await adb.fileExists('/sdcard/nothing-here')).toBe(false);
    expect(await adb.isSoftKeyboardPresent()).toEqual({ isKeyboardShown: false, canCloseKeyboard: false });
    expect(await adb.getScreenOrientation()).toBe(0);
    await adb.setAirplaneMode(true);
    expect((await harness.state()).settings.airplaneMode).toBe(true);
    expect(await adb.isAirplaneModeOn()).toBe(true);
  });

  it('Scenario: appium-adb sees the screen lock the power key engages', async () => {
    expect(await adb.isScreenLocked()).toBe(false);
    await adb.keyevent(26);
    await adb.keyevent(26);
    expect(await adb.isScreenLocked()).toBe(true);
    await adb.shell(['input', 'swipe', '540', '2000', '540', '600']);
    expect(await adb.isScreenLocked()).toBe(false);
  });

  it('Scenario: appium-adb reads the permissions the Contacts dialog left and those granted at install', async () => {
    const contacts = ['android.permission.READ_CONTACTS', 'android.permission.WRITE_CONTACTS'];
    // Before the person answers the dialog, Contacts' runtime permissions are requested but not granted.
    expect(await adb.getReqPermissions('com.android.contacts')).toEqual(expect.arrayContaining(contacts));
    expect(await adb.getDeniedPermissions('com.android.contacts')).toEqual(expect.arrayContaining(contacts));
    expect(await adb.getGrantedPermissions('com.android.contacts')).toEqual([]);
    await harness.reset({ contactsPermission: 'granted' });
    expect(await adb.getGrantedPermissions('com.android.contacts')).toEqual(expect.arrayContaining(contacts));
    expect(await adb.getDeniedPermissions('com.android.contacts')).toEqual([]);
    // INTERNET is a normal permission: granted at install, listed under install permissions.
    expect(await adb.getGrantedPermissions('com.android.chrome')).toContain('android.permission.INTERNET');
  });
});
