import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { VirtualPhone } from '../../../packages/demo-phone/src/phone/phone';
import { centerOf, PhoneDriver } from '../../tasks/phone-driver';

const signal = new AbortController().signal;

describe('phone faults', () => {
  it('Scenario: A hanging command ends when aborted', async () => {
    const phone = new VirtualPhone();
    phone.injectFault({ kind: 'hang' });
    expect(phone.faults()).toEqual([{ kind: 'hang' }]);
    const controller = new AbortController();
    let settled = false;
    const hanging = phone.shell('echo hi', { signal: controller.signal }).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    const reason = new Error('client went away');
    controller.abort(reason);
    await expect(hanging).rejects.toBe(reason);
    expect(phone.faults()).toEqual([]);
    expect((await phone.shell('echo hi', { signal })).stdout.toString()).toBe('hi\n');
  });

  it('Scenario: uiautomator reports it could not get the idle state once', async () => {
    const phone = new VirtualPhone();
    phone.injectFault({ kind: 'idle-state-error' });
    const first = await phone.shell('uiautomator dump /dev/tty', { signal });
    expect(first.exitCode).toBe(1);
    expect(Buffer.concat([first.stdout, first.stderr]).toString()).toBe('ERROR: could not get idle state.\n');
    const second = await phone.shell('uiautomator dump /dev/tty', { signal });
    expect(second.exitCode).toBe(0);
    expect(second.stdout.toString()).toContain('<hierarchy rotation="0">');
  });

  it('Scenario: A corrupt screenshot is returned once', async () => {
    const phone = new VirtualPhone();
    phone.injectFault({ kind: 'corrupt-screencap' });
    const first = await phone.shell('screencap -p', { signal });
    expect(first.exitCode).toBe(0);
    await expect(sharp(first.stdout).raw().toBuffer()).rejects.toThrow();
    const second = await phone.shell('screencap -p', { signal });
    expect((await sharp(second.stdout).metadata()).width).toBe(1080);
  });

  it('Scenario: A pop-up dialog covers the app until dismissed', async () => {
    const driver = new PhoneDriver(new VirtualPhone({ seed: { foreground: 'com.android.settings' } }));
    const row = await driver.get({ text: 'Network & internet' });
    driver.phone.injectFault({ kind: 'popup-dialog' });
    expect(driver.phone.faults()).toEqual([{ kind: 'popup-dialog' }]);
    expect(await driver.get({ text: 'Battery is low' })).toMatchObject({ pkg: 'android', resourceId: 'android:id/alertTitle' });
    expect(driver.phone.state().dialog).toBe('Battery is low');
    const { x, y } = centerOf(row);
    await driver.sh(`input tap ${x} ${y}`);
    expect(driver.phone.state().activity).toBe('com.android.settings/.Settings');
    await driver.tap({ text: 'OK' });
    expect(driver.phone.state().dialog).toBeNull();
    expect(driver.phone.faults()).toEqual([]);
    driver.phone.injectFault({ kind: 'popup-dialog' });
    await driver.key('KEYCODE_BACK');
    expect(driver.phone.state()).toMatchObject({ dialog: null, activity: 'com.android.settings/.Settings' });
  });

  it('Scenario: A screen that is off shows nothing until woken', async () => {
    const driver = new PhoneDriver(new VirtualPhone({ seed: { foreground: 'com.android.settings' } }));
    driver.phone.injectFault({ kind: 'screen-off' });
    expect(driver.phone.faults()).toEqual([{ kind: 'screen-off' }]);
    const { data, info } = await sharp(await driver.phone.screenshotPng()).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    expect(data.every((byte) => byte === 0)).toBe(true);
    const nodes = await driver.dump();
    expect(nodes).toHaveLength(1);
    expect(nodes[0]?.pkg).toBe('com.android.systemui');
    expect((await driver.sh('dumpsys power | grep mWakefulness')).stdout).toBe('  mWakefulness=Asleep\n');
    await driver.sh('input tap 540 300');
    expect(driver.phone.state()).toMatchObject({ screenOn: false, activity: 'com.android.settings/.Settings' });
    await driver.key('KEYCODE_WAKEUP');
    expect(driver.phone.state().screenOn).toBe(true);
    expect(await driver.find({ text: 'Network & internet' })).toBeDefined();
    await driver.key('26');
    expect(driver.phone.state().screenOn).toBe(false);
    await driver.key('26');
    expect(driver.phone.faults()).toEqual([]);
  });

  it('rejects an unknown fault kind with a clear error', () => {
    const phone = new VirtualPhone();
    expect(() => phone.injectFault({ kind: 'meteor' } as never)).toThrow('Unknown phone fault: {"kind":"meteor"}');
    expect(phone.faults()).toEqual([]);
  });
});
