import { describe, expect, it } from 'vitest';
import { shellLine } from '../../../src/main/device/android/shell-line';
import { installedPackages, pm } from '../../../src/main/device/android/pm';
import { parseWmSize, wm } from '../../../src/main/device/android/wm';

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
