import { describe, expect, it } from 'vitest';
import { latencyMs } from '../../../packages/demo-phone/src/phone/latency';
import { DEFAULT_SEED } from '../../../packages/demo-phone/src/phone/model';
import { VirtualPhone } from '../../../packages/demo-phone/src/phone/phone';

describe('latency profiles', () => {
  it('Scenario: Realistic delays stay within their jitter', () => {
    for (const kind of ['screencap', 'dump', 'input', 'command'] as const) {
      expect(latencyMs('instant', kind, () => 0.9)).toBe(0);
    }
    expect(latencyMs('realistic', 'screencap', () => 0)).toBe(300);
    expect(latencyMs('realistic', 'screencap', () => 1)).toBe(500);
    expect(latencyMs('realistic', 'dump', () => 0.5)).toBe(1500);
    expect(latencyMs('realistic', 'input', () => 1)).toBe(188);
    for (let draw = 0; draw < 50; draw++) {
      const dump = latencyMs('realistic', 'dump');
      expect(dump).toBeGreaterThanOrEqual(1125);
      expect(dump).toBeLessThanOrEqual(1875);
    }
  });

  it('Scenario: A realistic delay ends when the command is aborted', async () => {
    const phone = new VirtualPhone({ profile: 'realistic' });
    expect(phone.state().profile).toBe('realistic');
    const controller = new AbortController();
    const pending = phone.shell('uiautomator dump /dev/tty', { signal: controller.signal });
    const reason = new Error('cancelled');
    setTimeout(() => controller.abort(reason), 20);
    await expect(pending).rejects.toBe(reason);
    phone.setProfile('instant');
    expect(phone.state().profile).toBe('instant');
    expect(() => phone.setProfile('slow' as never)).toThrow('Unknown latency profile "slow"');
  });
});

describe('seeds and state', () => {
  it("Scenario: A seed presets the phone's data", async () => {
    const phone = new VirtualPhone();
    phone.reset({
      settings: { wifi: false, darkTheme: true },
      contacts: [{ name: 'Zoe', phone: '1' }],
      contactsPermission: 'granted',
      alarms: [{ hour: 5, minute: 45 }],
      notes: [],
      conversations: [],
      foreground: 'com.android.deskclock',
    });
    expect(phone.state()).toMatchObject({
      foreground: 'com.android.deskclock',
      settings: { wifi: false, bluetooth: false, darkTheme: true, airplaneMode: false },
      contacts: [{ name: 'Zoe', phone: '1' }],
      contactsPermission: 'granted',
      alarms: [{ hour: 5, minute: 45, enabled: true }],
      notes: [],
      messages: { sent: [], conversations: [] },
      ime: { adbKeyboardInstalled: true },
    });
    await phone.shell('echo x > /sdcard/x', { signal: new AbortController().signal });
    phone.reset();
    expect(phone.state()).toMatchObject({
      foreground: 'com.android.launcher3',
      contacts: DEFAULT_SEED.contacts,
      notes: DEFAULT_SEED.notes,
      contactsPermission: 'ask',
    });
    expect(phone.fs.stat('/sdcard/x')).toBeUndefined();
  });

  it('Scenario: An invalid seed is rejected with a clear error and changes nothing', () => {
    const phone = new VirtualPhone({ seed: { contacts: [{ name: 'Keep', phone: '2' }] } });
    expect(() => phone.reset({ alarms: [{ hour: 25, minute: 0 }] })).toThrow(/Invalid phone seed: alarms\.0\.hour: /);
    expect(() => phone.reset({ contact: [] })).toThrow(/Invalid phone seed: .*contact/);
    expect(() => phone.reset('nonsense')).toThrow(/Invalid phone seed/);
    expect(() => new VirtualPhone({ seed: { foreground: 'com.example' } })).toThrow(/foreground/);
    expect(phone.state().contacts).toEqual([{ name: 'Keep', phone: '2' }]);
  });
});
