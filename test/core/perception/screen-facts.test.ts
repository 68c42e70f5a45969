import { describe, expect, it } from 'vitest';
import { Observer } from '../../../src/core/perception/observer';
import { screenSize } from '../../../src/core/perception/screen-facts';
import { parseDisplayInfo } from '../../../src/core/device/android/dumpsys';
import { parseUiHierarchy } from '../../../src/core/perception/ui-hierarchy';
import { PhoneFacts } from '../../../src/core/device/android/phone-facts';

const node = (bounds: string, attributes = '') =>
  `<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example" content-desc="" clickable="false" bounds="${bounds}" ${attributes}/>`;
const dump = (rotation: number, ...nodes: string[]) => `<?xml version='1.0' ?><hierarchy rotation="${rotation}">${nodes.join('')}</hierarchy>`;

describe('screen size sources', () => {
  it('reads the logical display (rotated) or else the panel (natural) from dumpsys display', () => {
    const both =
      '  DisplayDeviceInfo{"Built-in Screen": uniqueId="local:0", 1080 x 2400, modeId 1, rotation 0}\n' +
      '  mOverrideDisplayInfo=DisplayInfo{"Built-in Screen", displayId 0, real 2400 x 1080, largest app 2400 x 2337, rotation 1, state ON}\n';
    expect(parseDisplayInfo(both)).toEqual({ current: { width: 2400, height: 1080 }, rotation: 1 });
    expect(parseDisplayInfo(both.split('\n')[0]!)).toEqual({ natural: { width: 1080, height: 2400 } });
    expect(parseDisplayInfo("Can't find service: display\n")).toBeNull();
  });

  it('turns the natural size by the rotation and never takes a floating window for the screen', () => {
    const turned = parseUiHierarchy(dump(3, node('[0,0][2560,1600]')));
    expect(screenSize(turned, { natural: { width: 1600, height: 2560 } })).toEqual({ width: 2560, height: 1600, rotation: 3 });
    expect(screenSize(turned, { current: { width: 2560, height: 1600 }, rotation: 3 })).toEqual({ width: 2560, height: 1600, rotation: 3 });
    expect(screenSize(turned, null)).toEqual({ width: 2560, height: 1600, rotation: 3 });
    const dialog = parseUiHierarchy(dump(0, node('[197,671][883,1728]')));
    expect(screenSize(dialog, null)).toEqual({ width: 1080, height: 2399, rotation: 0 });
    expect(screenSize(parseUiHierarchy(dump(0)), null)).toEqual({ width: 1, height: 1, rotation: 0 });
  });

  it('asks dumpsys display on every observation when wm size fails, and caches a wm size that answers', async () => {
    const asked: string[] = [];
    const answers: Record<string, string> = {
      'wm size': 'cmd: Failure calling service window: Broken pipe (32)\n',
      'dumpsys display': '  mOverrideDisplayInfo=DisplayInfo{"Built-in Screen", real 1920 x 1080, rotation 0, state ON}\n',
    };
    const adb = {
      async shellInto(_serial: string, command: string) {
        asked.push(command);
        if (command.startsWith('uiautomator')) return Buffer.from(dump(0, node('[0,96][1898,965]', 'clickable="true" content-desc="Launcher"')));
        return Buffer.from(answers[command] ?? '');
      },
      execInto: async () => Buffer.alloc(0),
    };
    const observer = new Observer(adb, { screenshot: false });
    const first = await observer.observe('car-1');
    expect(first.scene!.screen).toMatchObject({ width: 1920, height: 1080, orientation: 'landscape' });
    await observer.observe('car-1');
    expect(asked.filter((command) => command === 'dumpsys display')).toHaveLength(2);
    answers['wm size'] = 'Physical size: 1080x2400\n';
    await observer.observe('phone-1');
    await observer.observe('phone-1');
    expect(asked.filter((command) => command === 'wm size')).toHaveLength(3);
  });

  it('Scenario: A size changed while a phone is connected is seen at the next observation', async () => {
    // The phone's answer to the command every observation runs besides the dump: focus, keyboard and `wm size`.
    let size = 'Physical size: 1080x2400\n';
    const asked: string[] = [];
    const adb = {
      async shellInto(_serial: string, command: string) {
        asked.push(command);
        if (command.startsWith('uiautomator')) return Buffer.from(dump(0, node('[0,0][720,1600]')));
        if (command.includes('dumpsys window')) return Buffer.from(`  mCurrentFocus=Window{4d2a8e1 u0 com.example/com.example.Main}\n    mInputShown=false\n${size}`);
        return Buffer.from('');
      },
      execInto: async () => Buffer.alloc(0),
    };
    const observer = new Observer(adb, { screenshot: false });
    expect((await observer.observe('phone-1')).scene!.screen).toMatchObject({ width: 1080, height: 2400 });
    // `wm size 720x1600` while it stays connected: the next observation has the new size, and so do the phone's kept facts.
    size = 'Physical size: 1080x2400\nOverride size: 720x1600\n';
    expect((await observer.observe('phone-1')).scene!.screen).toMatchObject({ width: 720, height: 1600, package: 'com.example' });
    expect(await PhoneFacts.of(adb).naturalSize('phone-1', async () => 'Physical size: 1x1\n')).toEqual({ width: 720, height: 1600 });
    // No command of its own for the size: it came with the facts every observation reads anyway.
    expect(asked.filter((command) => command === 'wm size' || command === 'dumpsys display')).toEqual([]);
  });
});
