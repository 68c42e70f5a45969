// What main says to people, by code: every code declared in the English `said` catalog has words in every language,
// is said somewhere in main, and a window words it in its language — or shows main's English text when it does not
// know the code (an older history file, a newer main).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGS } from '../../src/shared/i18n/catalogs';
import { LANGUAGES } from '../../src/shared/i18n/languages';
import { wordsFor } from '../../src/shared/i18n/translate';
import { VerificationSchema } from '../../src/shared/action';
import { MirrorStatusSchema } from '../../src/shared/contract/mirror';
import { isKnownCode, say, SaidSchema, wordSaid, type SaidCode } from '../../src/shared/said';
import { stateHintSaying } from '../../src/core/device/device-info';
import { adbMissingError } from '../../src/core/device/adb-server';

/** The codes where they are declared: every message of the English `said` catalog (a plural's forms are one). */
function codesIn(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key.replace(/_(one|other)$/, '')}`] : codesIn(value as object, `${prefix}${key}.`),
  );
}
const CODES = [...new Set(codesIn(CATALOGS.en.said))] as SaidCode[];

function sourcesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourcesOf(path.join(dir, entry.name)) : entry.name.endsWith('.ts') ? [path.join(dir, entry.name)] : [],
  );
}

const chinese = wordsFor('zh-CN');
const english = wordsFor('en');
/** Words that stay as they are in Chinese (a Linux group, the udev rules, the "token" the interface uses). */
const NAMES = new Set(["plugdev", "udev", "token"]);
/** English words in a text, leaving out commands in backquotes, addresses and hyphenated names (android-sdk-…). */
const englishWords = (text: string) => text.replace(/\{\{\w+\}\}|`[^`]*`|https?:\/\/\S+|\w+(?:-\w+)+/g, "").match(/\b[a-z]{4,}\b/g)?.filter((word) => !NAMES.has(word)) ?? [];

describe('what main says, in the window language', () => {
  it('Scenario: Every message main words for people has words in both languages', () => {
    expect(CODES.length).toBeGreaterThan(20);
    // Said by main, or by the shared words and the CLI that word a main outcome (a refusal no one could answer), or by
    // a fleet worker (a job it refuses), or by the control plane (its configuration and token store refusals).
    const main = ['src/main', 'src/core', 'src/app', 'src/shared', 'src/cli', 'src/fleet', 'src/control-plane'].flatMap((folder) => sourcesOf(path.resolve(folder))).map((file) => readFileSync(file, 'utf8')).join('\n');
    for (const code of CODES) {
      expect(isKnownCode(code), code).toBe(true);
      for (const language of LANGUAGES) {
        const key = `said:${code}`;
        // A count, for the plurals; other messages ignore it.
        const text = wordsFor(language).t(key, { count: 2 });
        expect(text, `${language} ${code}`).not.toBe(code);
        expect(text, `${language} ${code}`).not.toBe(key);
      }
      // Chinese words of their own, not the English sentence.
      expect(englishWords(chinese.t(`said:${code}`, { count: 2 })), code).toEqual([]);
      // Said somewhere in main: whole, or as the start of a code built there (`helper.${code}OtherCopies`).
      const group = code.split('.')[0]!;
      const named = main.includes(`'${code}'`) || main.includes(`\`${group}.\${`) || main.includes(`\`${code.replace(/OtherCopies$/, '')}`);
      expect(named, `${code} is declared but main never says it`).toBe(true);
    }
  });

  it('Scenario: Main keeps the English text and the window words the code in its language', () => {
    const fix = say('helper.fixDownloadsOff', { fileSetting: 'helpers.scrcpyServerPath', fileSection: 'Phone helpers', downloadSetting: 'helpers.download' });
    expect(fix.text).toBe('In Settings \u2192 Phone helpers, turn on "Download missing helpers" or set "scrcpy-server 3.3.3 file".');
    expect(SaidSchema.parse(fix.said)).toEqual(fix.said);
    expect(wordSaid(fix.text, fix.said, english)).toBe(fix.text);
    expect(wordSaid(fix.text, fix.said, chinese)).toBe('在 设置 \u2192 手机辅助程序 中打开“下载缺少的辅助程序”，或者填写“scrcpy-server 3.3.3 文件”。');

    const noAction = say('verify.noAction');
    expect(noAction.text).toBe('no action was taken in this task, so nothing confirms the goal was reached');
    expect(wordSaid(noAction.text, noAction.said, chinese)).toBe('这个任务没有执行任何操作，所以无法确认目标已经达成');

    const steps = say('budget.steps', { count: 1 });
    expect(steps.text).toBe('reached the maximum of 1 step without finishing the goal');
    expect(wordSaid(steps.text, steps.said, chinese)).toBe('已到 1 步的上限，目标还没达成');

    const adbMissing = adbMissingError('/opt/adb');
    expect(adbMissing.message).toMatch(/^The adb program was not found \("\/opt\/adb"\)\. Install Android platform-tools \(Debian\/Ubuntu: `sudo apt install adb`/);
    expect(wordSaid(adbMissing.message, adbMissing.said, chinese)).toMatch(/^找不到 adb 程序（“\/opt\/adb”）。安装 Android platform-tools/);

    const offline = stateHintSaying('offline', '192.168.1.20:5555')!;
    expect(offline.text).toMatch(/amc connect 192\.168\.1\.20:5555/);
    expect(wordSaid(offline.text, offline.said, chinese)).toMatch(/^手机没有响应。.*`amc connect 192\.168\.1\.20:5555`/);
  });

  it('Scenario: A message whose code the window does not know shows the English text main stored', () => {
    expect(wordSaid('the phone caught fire', { code: 'phone.onFire', values: {} }, chinese)).toBe('the phone caught fire');
    expect(wordSaid('the phone caught fire', { code: 'verify', values: {} }, chinese)).toBe('the phone caught fire');
    expect(wordSaid('an old record', undefined, chinese)).toBe('an old record');
    // Records and statuses written before the codes still load, with no code.
    expect(VerificationSchema.parse({ status: 'not-verified', check: 'action-taken', fact: 'old words' }).said).toBeUndefined();
    const before = { serial: 'x', state: 'running', pausedBecause: null, visible: true, fps: 1, captureMs: null, lastFrame: null, error: null, fallbackReason: 'old words' };
    expect(MirrorStatusSchema.parse(before).fallbackSaid).toBeUndefined();
    // A code without values (a newer main may omit them) is filled with none.
    expect(SaidSchema.parse({ code: 'verify.noAction' })).toEqual({ code: 'verify.noAction', values: {} });
    expect(() => SaidSchema.parse({ code: '', values: {} })).toThrow();
  });
});
