import { describe, expect, it } from 'vitest';
import { VirtualPhone } from '../../../packages/demo-phone/src/phone/phone';

const signal = new AbortController().signal;

async function sh(phone: VirtualPhone, command: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const result = await phone.shell(command, { signal });
  return { stdout: result.stdout.toString('utf8'), stderr: result.stderr.toString('utf8'), exitCode: result.exitCode };
}

/** The dump's text and content-desc values, in order. */
async function labels(phone: VirtualPhone): Promise<string[]> {
  const xml = (await sh(phone, 'uiautomator dump /dev/tty')).stdout;
  return [...xml.matchAll(/(?:text|content-desc)="([^"]+)"/g)].map((match) => match[1] as string);
}

describe('phone UI layers', () => {
  it('Scenario: The power key locks the phone and a swipe up unlocks it', async () => {
    const phone = new VirtualPhone({ seed: { foreground: 'com.android.settings' } });
    await sh(phone, 'input keyevent 26');
    expect(phone.state()).toMatchObject({ screenOn: false, locked: true });
    await sh(phone, 'input keyevent 26');
    expect(phone.state()).toMatchObject({ screenOn: true, locked: true, activity: 'com.android.settings/.Settings' });
    expect(await labels(phone)).toContain('Swipe up to open');
    expect(await labels(phone)).not.toContain('Connected devices');
    // HOME, BACK and taps do not get past the lock screen.
    await sh(phone, 'input keyevent 3; input keyevent 4; input tap 540 600');
    expect(phone.state()).toMatchObject({ locked: true, activity: 'com.android.settings/.Settings' });
    await sh(phone, 'input swipe 540 2000 540 800');
    expect(phone.state().locked).toBe(false);
    expect(await labels(phone)).toContain('Connected devices');
  });

  it('Scenario: A seeded PIN must be entered to unlock', async () => {
    const phone = new VirtualPhone({ seed: { lockPin: '2468' } });
    await sh(phone, 'input keyevent 26; input keyevent 224');
    await sh(phone, 'input swipe 540 2000 540 800');
    expect(phone.state().locked).toBe(true);
    expect(await labels(phone)).toContain('Enter your PIN');
    await sh(phone, 'input text 1111; input keyevent 66');
    expect(phone.state().locked).toBe(true);
    expect(await labels(phone)).toContain('Wrong PIN');
    await sh(phone, 'input text 2468; input keyevent 66');
    expect(phone.state()).toMatchObject({ locked: false, foreground: 'com.android.launcher3' });
    expect(() => new VirtualPhone({ seed: { lockPin: '12' } })).toThrow('a PIN is 4 to 16 digits');
  });

  it('Scenario: A screen timeout does not lock, the power key does', async () => {
    const phone = new VirtualPhone();
    phone.injectFault({ kind: 'screen-off' });
    await sh(phone, 'input keyevent KEYCODE_WAKEUP');
    expect(phone.state()).toMatchObject({ screenOn: true, locked: false });
  });

  it('Scenario: The notification shade opens from the status bar and closes with BACK', async () => {
    const phone = new VirtualPhone({ seed: { foreground: 'com.android.deskclock' } });
    await sh(phone, 'cmd statusbar expand-notifications');
    expect(phone.state().shadeExpanded).toBe(true);
    expect(await labels(phone)).toContain('Bluetooth');
    await sh(phone, 'input keyevent 4');
    expect(phone.state()).toMatchObject({ shadeExpanded: false, activity: 'com.android.deskclock/.DeskClock' });
    await sh(phone, 'input swipe 540 20 540 900');
    expect(phone.state().shadeExpanded).toBe(true);
    // A quick settings tile toggles the setting it names.
    const bluetoothBefore = phone.state().settings.bluetooth;
    const xml = (await sh(phone, 'uiautomator dump /dev/tty')).stdout;
    const bounds = /content-desc="Bluetooth"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"/.exec(xml);
    expect(bounds).not.toBeNull();
    const [, left, top, right, bottom] = (bounds as RegExpExecArray).map(Number);
    await sh(phone, `input tap ${Math.round(((left as number) + (right as number)) / 2)} ${Math.round(((top as number) + (bottom as number)) / 2)}`);
    expect(phone.state().settings.bluetooth).toBe(!bluetoothBefore);
    await sh(phone, 'cmd statusbar collapse');
    expect(phone.state().shadeExpanded).toBe(false);
  });

  it('Scenario: BACK closes the topmost layer first and HOME keeps a system pop-up', async () => {
    const phone = new VirtualPhone({ seed: { foreground: 'com.amc.notes' } });
    phone.injectFault({ kind: 'popup-dialog' });
    await sh(phone, 'cmd statusbar expand-notifications');
    await sh(phone, 'input keyevent 4');
    expect(phone.state()).toMatchObject({ shadeExpanded: false, dialog: 'Battery is low' });
    await sh(phone, 'input keyevent 3');
    expect(phone.state()).toMatchObject({ foreground: 'com.android.launcher3', dialog: 'Battery is low' });
    await sh(phone, 'input keyevent 4');
    expect(phone.state().dialog).toBeNull();
  });

  it('Scenario: The browser opens a URL from a VIEW intent and follows its links', async () => {
    const phone = new VirtualPhone();
    expect(await sh(phone, 'am start -a android.intent.action.VIEW -d https://example.com/path')).toMatchObject({
      stdout: 'Starting: Intent { act=android.intent.action.VIEW dat=https://example.com/... }\n',
      exitCode: 0,
    });
    expect(phone.state().foreground).toBe('com.android.chrome');
    expect(await labels(phone)).toContain("This site can't be reached");
    await sh(phone, 'am start -a android.intent.action.VIEW -d https://example.com');
    expect(await labels(phone)).toContain('Example Domain');
    await sh(phone, 'settings put global airplane_mode_on 1');
    await sh(phone, 'am start -a android.intent.action.VIEW -d https://example.com');
    expect(await labels(phone)).toContain('No internet');
  });

  it("Scenario: The phone's state tells which page the browser shows", async () => {
    const phone = new VirtualPhone();
    expect(phone.state().browser).toEqual({ url: null, title: null });
    await sh(phone, 'am start -n com.android.chrome/com.google.android.apps.chrome.Main');
    expect(phone.state()).toMatchObject({ foreground: 'com.android.chrome', browser: { url: null, title: null } });
    await sh(phone, 'am start -a android.intent.action.VIEW -d https://example.org');
    expect(phone.state().browser).toEqual({ url: 'https://example.org/', title: 'Example Domain' });
    await sh(phone, 'am start -a android.intent.action.VIEW -d https://nowhere.example.com/');
    expect(phone.state().browser).toEqual({ url: 'https://nowhere.example.com/', title: null });
    // BACK returns to the page before; behind the home screen the browser keeps its page.
    await sh(phone, 'input keyevent 4');
    expect(phone.state().browser).toEqual({ url: 'https://example.org/', title: 'Example Domain' });
    await sh(phone, 'input keyevent 3');
    expect(phone.state()).toMatchObject({ foreground: 'com.android.launcher3', browser: { url: 'https://example.org/' } });
    await sh(phone, 'settings put global airplane_mode_on 1');
    expect(phone.state().browser).toEqual({ url: 'https://example.org/', title: null });
    phone.reset();
    expect(phone.state().browser).toEqual({ url: null, title: null });
  });
});
