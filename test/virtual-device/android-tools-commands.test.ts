// What other tools send to real phones, sent by the real adb client to the demo phone: answers as Android 14 gives
// them, and their effects checked on the phone's state (GET /state).
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';

let harness: AdbHarness;

beforeAll(async () => {
  harness = await startAdbHarness();
});
afterAll(async () => {
  await harness?.stop();
});
beforeEach(async () => {
  await harness.reset();
});

describe('Android tools commands on the demo phone', () => {
  it('Scenario: svc and cmd wifi switch the radios', async () => {
    expect((await harness.shell('svc wifi disable')).code).toBe(0);
    expect((await harness.shell('svc data disable')).code).toBe(0);
    expect((await harness.shell('svc bluetooth enable')).code).toBe(0);
    expect((await harness.state()).settings).toMatchObject({ wifi: false, mobileData: false, bluetooth: true });
    expect((await harness.shell('cmd wifi status')).stdout).toMatch(/^Wifi is disabled/);
    expect((await harness.shell('cmd wifi set-wifi-enabled enabled')).code).toBe(0);
    expect((await harness.state()).settings.wifi).toBe(true);
    expect((await harness.shell('cmd wifi status')).stdout).toMatch(/^Wifi is enabled\n[\s\S]*SSID: "AndroidWifi"/);
    expect((await harness.shell('settings get global mobile_data')).stdout).toBe('0\n');
  });

  it('Scenario: Airplane mode set through settings or cmd connectivity changes the phone', async () => {
    expect((await harness.shell('settings put global airplane_mode_on 1')).code).toBe(0);
    expect((await harness.state()).settings.airplaneMode).toBe(true);
    expect((await harness.shell('cmd connectivity airplane-mode')).stdout).toBe('enabled\n');
    expect((await harness.shell('cmd connectivity airplane-mode disable')).code).toBe(0);
    expect((await harness.state()).settings.airplaneMode).toBe(false);
    expect((await harness.shell('cmd statusbar expand-notifications')).code).toBe(0);
    expect((await harness.state()).shadeExpanded).toBe(true);
  });

  it('Scenario: dumpsys battery, pm list features and the Settings intent answer as Android 14 does', async () => {
    const battery = (await harness.shell('dumpsys battery')).stdout;
    expect(battery).toMatch(/^Current Battery Service state:\n/);
    expect(battery).toContain('  USB powered: true\n');
    expect(battery).toContain('  level: 100\n');
    const features = (await harness.shell('pm list features')).stdout.split('\n');
    expect(features).toEqual(expect.arrayContaining(['feature:android.hardware.wifi', 'feature:android.hardware.touchscreen', 'feature:android.software.webview']));
    const started = await harness.shell('am start -a android.settings.SETTINGS');
    expect(started).toMatchObject({ code: 0, stdout: 'Starting: Intent { act=android.settings.SETTINGS }\n' });
    expect((await harness.state()).foreground).toBe('com.android.settings');
  });

  it('Scenario: adb install refuses a file that is not an APK and adb uninstall removes an installed app', async () => {
    const notApk = join(harness.tmpDir, 'notes.apk');
    writeFileSync(notApk, 'just some text\n');
    const install = await harness.adb(['-s', harness.serial, 'install', notApk]);
    expect(install.code).not.toBe(0);
    expect(install.stdout + install.stderr).toMatch(/Failure \[INSTALL_PARSE_FAILED_NOT_APK: Failed to parse .*base\.apk/);
    const uninstall = await harness.adb(['-s', harness.serial, 'uninstall', 'com.android.adbkeyboard']);
    expect(uninstall.stdout).toContain('Success');
    expect((await harness.state()).ime.adbKeyboardInstalled).toBe(false);
    const system = await harness.adb(['-s', harness.serial, 'uninstall', 'com.android.settings']);
    expect(system.stdout + system.stderr).toContain('Failure [DELETE_FAILED_INTERNAL_ERROR]');
  });

  it('Scenario: adb bugreport writes a zipped report', async () => {
    const report = await harness.adb(['-s', harness.serial, 'bugreport', harness.tmpDir], { timeoutMs: 60_000 });
    expect(report.stdout + report.stderr).not.toMatch(/Android 7\.0/);
    expect(report.code, report.stdout + report.stderr).toBe(0);
    // adb pulls the file bugreportz names into the folder it was given.
    const onPhone = /(\S+\.zip): 1 file pulled/.exec(report.stdout)?.[1] ?? 'missing.zip';
    const zip = readFileSync(join(harness.tmpDir, basename(onPhone)));
    expect(zip.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(zip.toString('latin1')).toContain('main_entry.txt');
  });

  it('Scenario: yadb -screenshot writes a PNG where it says', async () => {
    await harness.shell('echo dex > /data/local/tmp/yadb');
    const shot = await harness.shell('app_process -Djava.class.path=/data/local/tmp/yadb /data/local/tmp com.ysbing.yadb.Main -screenshot');
    expect(shot).toMatchObject({ code: 0, stdout: 'screenshot success:/data/local/tmp/yadb_screenshot.png\n' });
    const png = await harness.adbRaw(['-s', harness.serial, 'exec-out', 'cat /data/local/tmp/yadb_screenshot.png']);
    expect(png.stdout.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });
});
