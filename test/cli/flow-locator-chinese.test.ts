// A flow run's reasons describe the elements its steps look for (a field, a button, an element in a row, one below or
// above another, in a state, at an index, told apart by what it shows and the names around it). In a Chinese terminal
// each description is Chinese, run as a person runs it: a child process against the real adb server and the demo
// phone. `latinSentences` cannot catch an English description (with its quoted names taken out, one or two words are
// left), so the English locator words are looked for directly; the same flows in an English terminal show them.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { runAmc } from '../support/cli';
import { latinSentences } from '../support/latin-sentences';

let harness: AdbHarness;
let home: string;

beforeAll(async () => {
  harness = await startAdbHarness();
  home = await mkdtemp(path.join(tmpdir(), 'amc-flow-locator-chinese-'));
}, 60_000);

afterAll(async () => {
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

const env = (lang: string) => ({ ANDROID_ADB_SERVER_PORT: String(harness.adbPort), HOME: harness.env.HOME, AMC_HOME: home, LANG: lang, LC_ALL: '', LC_MESSAGES: '' });

/** Each flow from a freshly reset phone (Notes' home, Wi-Fi on). */
async function runFlow(name: string, text: string, lang: string) {
  const file = path.join(home, name);
  await writeFile(file, text);
  await harness.reset();
  return runAmc(['flow', 'run', file, '-s', harness.serial], { env: env(lang) });
}

/** Steps that each look for an element the Notes home does not show as asked; optional, so every one says why. */
const NOTES_MISSES = [
  'goal: 找不到的元素',
  'steps:',
  '  - launch_app: Notes',
  '  - tap: {hint: 收件人, type: text-field, optional: true, timeout: 300}',
  '  - tap: {text: 发送, type: Button, optional: true, timeout: 300}',
  '  - tap: {desc: 加星, row: Shopping list, optional: true, timeout: 300}',
  '  - tap: {text: 保存, relative: {below: {text: Ideas}}, optional: true, timeout: 300}',
  '  - tap: {text: 保存, relative: {above: {text: Ideas}}, optional: true, timeout: 300}',
  '  - tap: {text: New note, state: {checked: true, enabled: false}, optional: true, timeout: 300}',
  '  - tap: {text: 保存, index: 2, optional: true, timeout: 300}',
  '  - tap: {text: Shopping list, distinguishedBy: {otherTexts: [明天], follows: 工作}, optional: true, timeout: 300}',
  '  - assert: {no_element: {text: 保存, type: Button}}',
  '  - scroll_until_visible: {target: {text: 不存在, type: Switch}, direction: down, timeout: 3000}',
  '',
].join('\n');

/** A recorded step on the Wi-Fi row, told apart by its switch being off, and taken only when it is off as recorded. */
const WIFI_NOT_AS_RECORDED = [
  'goal: 关掉 Wi-Fi',
  'steps:',
  '  - launch_app: Settings',
  '  - tap: {text: Network & internet}',
  '  - tap: {text: Wi-Fi, distinguishedBy: {checked: false}, optional: true, timeout: 300}',
  '  - tool: tap',
  '    target: {text: Wi-Fi}',
  '    before: {checked: false}',
  '    timeout: 300',
  '',
].join('\n');

/** The words an English description of an element is made of (besides the names it quotes). */
const ENGLISH_LOCATOR_WORDS = /\b(?:field|button|switch|row|below|above|checked|enabled|index|showing|after|before|element|on|off|size)\b/i;

/** The screen's own words in a reason taken out: the quoted names and what "I see" lists. */
const withoutNames = (reason: string) => reason.replace(/“[^”]*”|'[^']*'/g, '').replace(/(?:我看到：[^（]*|I see: [^(]*)/g, '');

/** What the run said about its steps (the rationales, the run's end, what each step found after its status), without the screen's names. */
function reasonsOf(stdout: string): string[] {
  const lines = stdout.split('\n');
  const rationales = lines.filter((line) => /^ {4}(?:理由|rationale): /.test(line)).map((line) => line.replace(/^ {4}\S+: /, ''));
  const ends = lines.filter((line) => /^(?:失败|完成|Failed|Done)[（(]/.test(line)).map((line) => line.replace(/^[^：:]+[：:]/, ''));
  const found = lines.filter((line) => / — /.test(line) && /^ {2}\S/.test(line)).map((line) => line.slice(line.indexOf(' — ') + 3));
  return [...rationales, ...ends, ...found].map(withoutNames);
}

describe('a located element in a flow run', { timeout: 180_000 }, () => {
  it("Scenario: A located element's description in a flow run's reasons is in the reader's language", async () => {
    const notes = await runFlow('找不到.yaml', NOTES_MISSES, 'zh_CN.UTF-8');
    expect(notes.code).not.toBe(0);
    const said = reasonsOf(notes.stdout);
    expect(said.length, notes.stdout).toBeGreaterThan(12);
    for (const reason of said) expect(reason, notes.stdout).not.toMatch(ENGLISH_LOCATOR_WORDS);
    for (const reason of said) expect(latinSentences(reason), reason).toEqual([]);
    for (const description of [
      '这个屏幕上没有 输入框“收件人”',
      '这个屏幕上没有 “发送”按钮',
      '这个屏幕上没有 “Shopping list”这一行里的“加星”',
      '这个屏幕上没有 “Ideas”下方的“保存”',
      '这个屏幕上没有 “Ideas”上方的“保存”',
      '这个屏幕上没有 “New note”（不可用、已勾选）',
      '这个屏幕上没有 “保存”（序号 2）',
      '这个屏幕上没有 “工作”之后的显示“明天”的“Shopping list”，只有另外 1 个 “Shopping list”',
      '屏幕上没有 “保存”按钮',
      '理由: 向下滚动，找 “不存在”开关（流程的第 11 步）',
      '第 11 步：没有 “不存在”开关：向下滚动不再改变屏幕',
    ]) {
      expect(notes.stdout).toContain(description);
    }

    const wifi = await runFlow('wifi.yaml', WIFI_NOT_AS_RECORDED, 'zh_CN.UTF-8');
    expect(wifi.code).not.toBe(0);
    for (const reason of reasonsOf(wifi.stdout)) expect(reason, wifi.stdout).not.toMatch(ENGLISH_LOCATOR_WORDS);
    // The action on an element a flow describes: the description's own quotes, not a second pair around them.
    expect(wifi.stdout).toContain('理由: 点按 “Network & internet”（流程的第 2 步）');
    expect(wifi.stdout).toContain('这个屏幕上没有 “Wi-Fi”（关闭），只有另外 1 个 “Wi-Fi”');
    expect(wifi.stdout).toMatch(/第 4 步：“Wi-Fi” 是开启的，而不是录制流程时的关闭/);
    // Nothing was tapped: Wi-Fi is on as it was.
    expect((await harness.control<{ settings: { wifi: boolean } }>('/state')).body.settings.wifi).toBe(true);

    // An English terminal: the same descriptions in the words they always had.
    const english = await runFlow('not-found.yaml', NOTES_MISSES, 'C.UTF-8');
    for (const description of [
      "no the field '收件人' on this screen",
      "no '发送' button on this screen",
      "no '加星' in the row 'Shopping list' on this screen",
      "no '保存' below 'Ideas' on this screen",
      "no '保存' above 'Ideas' on this screen",
      "no 'New note' (not enabled, checked) on this screen",
      "no '保存' at index 2 on this screen",
      "no 'Shopping list' showing '明天' after '工作' on this screen, only 1 other 'Shopping list'",
      "no '保存' button on screen",
      "rationale: Scrolling down to find '不存在' switch (step 11 of the flow)",
      "Step 11: no '不存在' switch: scrolling down no longer changes the screen",
    ]) {
      expect(english.stdout).toContain(description);
    }
    expect(reasonsOf(english.stdout).filter((reason) => ENGLISH_LOCATOR_WORDS.test(reason)).length).toBeGreaterThan(10);
    const englishWifi = await runFlow('wifi.yaml', WIFI_NOT_AS_RECORDED, 'C.UTF-8');
    expect(englishWifi.stdout).toContain("rationale: Tap 'Network & internet' (step 2 of the flow)");
    expect(englishWifi.stdout).toContain("no 'Wi-Fi' (off) on this screen, only 1 other 'Wi-Fi'");
    expect(englishWifi.stdout).toContain("Step 4: 'Wi-Fi' is on, not off as when the flow was recorded");
  });
});
