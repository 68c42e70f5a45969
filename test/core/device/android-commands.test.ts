import { describe, expect, it } from 'vitest';
import { shellLine } from '../../../src/core/device/android/shell-line';
import { installedPackages, pm } from '../../../src/core/device/android/pm';
import { parseWmSize, wm } from '../../../src/core/device/android/wm';

describe('Android commands: one wrapper per executable', () => {
  it('builds each command line from its words, and a hostile word stays one word', () => {
    expect(wm.size()).toBe('wm size');
    expect(pm.listPackages()).toBe('pm list packages');
    // A word with a quote, a space and a command separator reaches the phone's shell as one quoted word.
    expect(shellLine(['am', 'start', '-d', "it's; rm -rf /sdcard"])).toBe(`am start -d 'it'\\''s; rm -rf /sdcard'`);
    expect(shellLine(['cmd', 'package', 'resolve-activity', 'https://example.com/a?b=1&c=2'])).toBe(`cmd package resolve-activity 'https://example.com/a?b=1&c=2'`);
  });

  it('reads the installed packages and the natural size the one way every caller shares', async () => {
    const asked: string[] = [];
    const packages = await installedPackages(async (command) => (asked.push(command), 'package:com.android.settings\r\npackage:com.example.notes\nnot a package line\n'));
    expect(packages).toEqual(['com.android.settings', 'com.example.notes']);
    expect(asked).toEqual(['pm list packages']);
    expect(parseWmSize('Physical size: 1080x2400\nOverride size: 720x1600')).toEqual({ width: 720, height: 1600 });
    expect(parseWmSize('no size here')).toBeUndefined();
  });
});

describe('one per-phone facts cache', () => {
  it('asks a phone its size once for every reader that shares it, and asks again when the phone did not say', async () => {
    const { PhoneFacts } = await import('../../../src/core/device/android/phone-facts');
    const facts = new PhoneFacts();
    const asked: string[] = [];
    let answer = 'Error: no display';
    const read = async (command: string) => (asked.push(command), answer);
    expect(await facts.naturalSize('phone-1', read)).toBeUndefined();
    answer = 'Physical size: 1080x2400';
    // Perception and the tools both ask: the phone hears `wm size` once more, not once per reader.
    expect(await facts.naturalSize('phone-1', read)).toEqual({ width: 1080, height: 2400 });
    expect(await facts.naturalSize('phone-1', async () => 'Physical size: 1x1')).toEqual({ width: 1080, height: 2400 });
    expect(asked).toEqual(['wm size', 'wm size']);
    // Another phone has facts of its own.
    expect(await facts.naturalSize('phone-2', async () => 'Physical size: 720x1600')).toEqual({ width: 720, height: 1600 });
  });
});
