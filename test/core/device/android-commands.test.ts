import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { am } from '../../../src/core/device/android/am';
import { appProcess } from '../../../src/core/device/android/app-process';
import { cmd, parseResolvedPackage } from '../../../src/core/device/android/cmd';
import { dumpsys, FOCUS_LINES, parseDisplayInfo, parseForegroundWindow, parseInputShown } from '../../../src/core/device/android/dumpsys';
import { getprop, parseProperties } from '../../../src/core/device/android/getprop';
import { ADB_KEYBOARD_IME, ime, parseImeList } from '../../../src/core/device/android/ime';
import { input } from '../../../src/core/device/android/input';
import { monkey, monkeyLaunchFailure } from '../../../src/core/device/android/monkey';
import { PhoneFacts } from '../../../src/core/device/android/phone-facts';
import { clearSucceeded, installedPackages, pm } from '../../../src/core/device/android/pm';
import { screencap } from '../../../src/core/device/android/screencap';
import { parseSettingValue, settings } from '../../../src/core/device/android/settings';
import { inTurn, piped, shellLine, silenced, whileSucceeding } from '../../../src/core/device/android/shell-line';
import { uiautomator } from '../../../src/core/device/android/uiautomator';
import { parseWmDensity, parseWmSize, wm } from '../../../src/core/device/android/wm';

/** Words a person, an app or a screen may hand us: quotes, command substitution, separators, newlines, globs, Unicode. */
const HOSTILE_WORDS = [
  "it's",
  '$(reboot)',
  '`id`',
  '; rm -rf /sdcard',
  'a && b || c | d',
  'line one\nline two',
  '"double" \\back\\slash',
  '*',
  '~root',
  '',
  '-n',
  '李雷 😀 مرحبا',
  "'''",
  '$HOME ${PATH} $((1+1))',
  '#not a comment',
  'x > /sdcard/out < in',
];

/** Runs a command line in a real POSIX `sh` (the phone's sh quotes alike) and answers the words `printf` was given. */
async function wordsArriving(line: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)('sh', ['-c', line], { encoding: 'utf8' }).catch((failed: { stdout: string }) => failed);
  return stdout.split('\0').slice(0, -1);
}

describe('Scenario: A hostile word reaches the phone as one word', () => {
  it('a real sh hands every hostile word to the executable unchanged, one word each', async () => {
    const line = shellLine(['printf', '%s\\0', ...HOSTILE_WORDS]);
    expect(await wordsArriving(line)).toEqual(HOSTILE_WORDS);
  });

  it('each wrapper builds its words through the one quoting: a hostile app, address or text stays one word', async () => {
    // A package, an address and typed text with quotes and separators: each is one quoted word on the line.
    expect(am.forceStop("evil'; reboot")).toBe(`am force-stop 'evil'\\''; reboot'`);
    expect(am.start({ action: 'android.intent.action.VIEW', data: 'https://example.com/a?b=1&c=$(id)' })).toBe(
      `am start -a android.intent.action.VIEW -d 'https://example.com/a?b=1&c=$(id)'`,
    );
    expect(cmd.resolveActivity({ action: 'android.intent.action.VIEW', data: "https://x.test/'`id`" })).toBe(
      `cmd package resolve-activity --brief -a android.intent.action.VIEW -d 'https://x.test/'\\''\`id\`'`,
    );
    expect(input.text('a;b')).toBe(`input text 'a;b'`);
    expect(ime.set('com.evil/.Ime; reboot')).toBe(`ime set 'com.evil/.Ime; reboot'`);
    expect(pm.clear('com.example.notes')).toBe('pm clear com.example.notes');
    expect(monkey.launch('com.example.notes')).toBe('monkey -p com.example.notes -c android.intent.category.LAUNCHER 1');
    expect(settings.put('system', 'user_rotation', 1)).toBe('settings put system user_rotation 1');
    expect(appProcess.run({ classPath: '/data/local/tmp/yadb', mainClass: 'com.ysbing.yadb.Main' }, '/data/local/tmp', ['-keyboard', '你好 $(id)'])).toBe(
      `app_process -Djava.class.path=/data/local/tmp/yadb /data/local/tmp com.ysbing.yadb.Main -keyboard '你好 $(id)'`,
    );
    // Through a real sh, the built lines give the executable exactly the words they were built from.
    for (const word of HOSTILE_WORDS) {
      expect(await wordsArriving(input.text(word).replace(/^input text/, "printf '%s\\0'"))).toEqual([word]);
      expect(await wordsArriving(am.broadcast({ action: 'ADB_INPUT_TEXT', extras: { msg: word } }).replace(/^am broadcast/, "printf '%s\\0'"))).toEqual([
        '-a',
        'ADB_INPUT_TEXT',
        '--es',
        'msg',
        word,
      ]);
    }
  });

  it('joins whole command lines only, so a word never leaks into the joining', async () => {
    const one = shellLine(['printf', '%s\\0', 'a; printf INJECTED']);
    expect(await wordsArriving(inTurn(one, one))).toEqual(['a; printf INJECTED', 'a; printf INJECTED']);
    expect(await wordsArriving(whileSucceeding(shellLine(['false']), one))).toEqual([]);
    expect(await wordsArriving(piped(shellLine(['printf', 'x|y\\n']), shellLine(['tr', '|', '\\0'])))).toEqual(['x']);
    expect(silenced(uiautomator.dump('/sdcard/window_dump.xml'))).toBe('uiautomator dump /sdcard/window_dump.xml >/dev/null');
  });

  it('builds the plain command lines as a person would type them', () => {
    expect(wm.size()).toBe('wm size');
    expect(wm.density()).toBe('wm density');
    expect(pm.listPackages()).toBe('pm list packages');
    expect(getprop.all()).toBe('getprop');
    expect(input.tap(540, 1200)).toBe('input tap 540 1200');
    expect(input.swipe(540, 1800, 540, 600, 300)).toBe('input swipe 540 1800 540 600 300');
    expect(input.keyevent(123, 67, 67)).toBe('input keyevent 123 67 67');
    expect(settings.get('secure', 'default_input_method')).toBe('settings get secure default_input_method');
    expect(ime.listEnabled()).toBe('ime list -s');
    expect(screencap.png()).toBe('screencap -p');
    expect(screencap.raw()).toBe('screencap');
    expect(uiautomator.dump('/dev/tty')).toBe('uiautomator dump /dev/tty');
    expect(dumpsys.grepped(dumpsys.window(), FOCUS_LINES)).toBe("dumpsys window | grep -E 'mCurrentFocus|mFocusedApp'");
    expect(am.broadcast({ action: 'ADB_INPUT_B64', extras: { msg: '5p2O6Zu3' } })).toBe('am broadcast -a ADB_INPUT_B64 --es msg 5p2O6Zu3');
  });
});

describe("Scenario: Each executable's output is read in one place", () => {
  it('reads wm, getprop and settings as real phones print them', () => {
    expect(parseWmSize('Physical size: 1080x2400\r\n')).toEqual({ width: 1080, height: 2400 });
    expect(parseWmSize('Physical size: 1080x2400\nOverride size: 720x1600\n')).toEqual({ width: 720, height: 1600 });
    expect(parseWmSize("cmd: Can't find service: window\n")).toBeUndefined();
    expect(parseWmDensity('Physical density: 420\nOverride density: 320\n')).toBe(320);
    expect(parseWmDensity('Physical density: 560\n')).toBe(560);
    const listing =
      '[dalvik.vm.heapsize]: [512m]\n[persist.sys.timezone]: [Europe/Berlin]\n[ro.build.description]: [cheetah-user 14 UP1A.231005.007 10754064 release-keys]\n' +
      '[ro.build.version.release]: [14]\n[ro.build.version.sdk]: [34]\n[ro.product.model]: [Pixel 7 Pro]\n[ro.vendor.multiline]: [first\nsecond]\n[ro.empty]: []\n';
    const properties = parseProperties(listing.replace(/\n/g, '\r\n'));
    expect(properties.get('ro.product.model')).toBe('Pixel 7 Pro');
    expect(properties.get('ro.build.version.sdk')).toBe('34');
    expect(properties.get('ro.vendor.multiline')).toBe('first\nsecond');
    expect(properties.get('ro.empty')).toBe('');
    expect(parseSettingValue('null\n')).toBeUndefined();
    expect(parseSettingValue('com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME\n')).toBe(
      'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME',
    );
  });

  it('reads pm, ime, monkey and cmd as real phones print them', async () => {
    const asked: string[] = [];
    const packages = await installedPackages(async (command) => (asked.push(command), 'package:com.android.settings\r\npackage:com.example.notes\nnot a package line\n'));
    expect(packages).toEqual(['com.android.settings', 'com.example.notes']);
    expect(asked).toEqual(['pm list packages']);
    expect(clearSucceeded('Success\n')).toBe(true);
    expect(clearSucceeded('Failed\n')).toBe(false);
    expect(parseImeList(`com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME\r\n${ADB_KEYBOARD_IME}\n`)).toEqual([
      'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME',
      ADB_KEYBOARD_IME,
    ]);
    expect(monkeyLaunchFailure('  bash arg: -p\n  bash arg: com.example.notes\nEvents injected: 1\n## Network stats: elapsed time=21ms\n')).toBeUndefined();
    expect(monkeyLaunchFailure('  bash arg: -p\n  bash arg: com.nope\n** No activities found to run, monkey aborted.\n')).toBe('** No activities found to run, monkey aborted.');
    expect(parseResolvedPackage('priority=0 preferredOrder=0 match=0x208000 specificIndex=-1 isDefault=true\ncom.android.chrome/com.google.android.apps.chrome.IntentDispatcher\n')).toBe(
      'com.android.chrome',
    );
    expect(parseResolvedPackage('No activity found\n')).toBeNull();
  });

  it('reads dumpsys window, input_method and display as real phones print them', () => {
    const window =
      '  mCurrentFocus=Window{4d2a8e1 u0 com.android.settings/com.android.settings.SubSettings}\n' +
      '  mFocusedApp=ActivityRecord{9c1b2f0 u0 com.android.settings/.SubSettings t1042}\n';
    expect(parseForegroundWindow(window)).toEqual({ package: 'com.android.settings', activity: '.SubSettings' });
    expect(parseInputShown('    mInputShown=true\n')).toBe(true);
    expect(parseInputShown('')).toBeUndefined();
    expect(parseDisplayInfo('  mOverrideDisplayInfo=DisplayInfo{"Built-in Screen", displayId 0, real 2400 x 1080, largest app 2400 x 2400, rotation 1, density 420}\n')).toEqual({
      current: { width: 2400, height: 1080 },
      rotation: 1,
    });
  });
});

describe("Scenario: A phone's facts are read once and shared", () => {
  /** A phone that answers the fact commands, and how often it was asked each. */
  function scriptedPhone(answers: Record<string, string>) {
    const asked: string[] = [];
    return { asked, read: async (command: string) => (asked.push(command), answers[command] ?? '') };
  }
  const PIXEL = { 'wm size': 'Physical size: 1080x2400\n', 'wm density': 'Physical density: 420\n', getprop: '[ro.build.version.release]: [14]\n[ro.build.version.sdk]: [34]\n[ro.product.model]: [Pixel 7]\n' };

  it('asks a phone its size, density and version once for every reader of one connection, and asks again when it did not say', async () => {
    const connection = {};
    const facts = PhoneFacts.of(connection);
    expect(PhoneFacts.of(connection)).toBe(facts);
    expect(PhoneFacts.of({})).not.toBe(facts);
    const silent = scriptedPhone({ 'wm size': 'Error: no display\n', getprop: '[ro.product.model]: [Pixel 7]\n' });
    expect(await facts.naturalSize('phone-1', silent.read)).toBeUndefined();
    expect(await facts.build('phone-1', silent.read)).toEqual({});
    const phone = scriptedPhone(PIXEL);
    // Perception, the tools and the device list all ask: the phone hears each command once.
    for (let reader = 0; reader < 3; reader++) {
      expect(await facts.naturalSize('phone-1', phone.read)).toEqual({ width: 1080, height: 2400 });
      expect(await facts.density('phone-1', phone.read)).toBe(420);
      expect(await facts.build('phone-1', phone.read)).toEqual({ model: 'Pixel 7', release: '14', sdk: 34 });
    }
    expect(phone.asked).toEqual(['wm size', 'wm density', 'getprop']);
    // Another phone has facts of its own.
    expect(await facts.naturalSize('phone-2', async () => 'Physical size: 720x1600')).toEqual({ width: 720, height: 1600 });
  });

  it("drops a phone's facts when told it went away, and a read begun before the drop does not land after it", async () => {
    const facts = new PhoneFacts();
    const phone = scriptedPhone(PIXEL);
    await facts.density('phone-1', phone.read);
    facts.forget('phone-1');
    expect(await facts.density('phone-1', async () => 'Physical density: 320\nOverride density: 280\n')).toBe(280);
    // A slow read from before the phone went away answers its caller but is not kept.
    let finish!: (output: string) => void;
    facts.forget('phone-1');
    const slow = facts.density('phone-1', () => new Promise<string>((resolve) => (finish = resolve)));
    facts.forget('phone-1');
    finish('Physical density: 420\n');
    expect(await slow).toBe(420);
    expect(await facts.density('phone-1', async () => 'Physical density: 560\n')).toBe(560);
  });

  it('follows a size read afresh, and a changed size drops the density it may have come with', async () => {
    const facts = new PhoneFacts();
    const phone = scriptedPhone(PIXEL);
    await facts.naturalSize('phone-1', phone.read);
    await facts.density('phone-1', phone.read);
    facts.learnSize('phone-1', { width: 1080, height: 2400 });
    expect(await facts.density('phone-1', phone.read)).toBe(420);
    facts.learnSize('phone-1', { width: 720, height: 1600 });
    expect(await facts.naturalSize('phone-1', phone.read)).toEqual({ width: 720, height: 1600 });
    expect(await facts.density('phone-1', async () => 'Physical density: 420\nOverride density: 280\n')).toBe(280);
    expect(phone.asked).toEqual(['wm size', 'wm density']);
  });
});
