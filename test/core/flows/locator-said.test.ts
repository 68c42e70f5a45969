// A locator in words, part by part, in English and in Chinese: the English is the text the records keep (and the
// words `describeLocator` always gave); a Chinese reader gets each part in Chinese, the names on screen quoted as
// written. Also the reasons and actions that carry a description, and a hostile flow's deep relations.
import { describe, expect, it } from 'vitest';
import { describeLocator, locatorCall, locatorSaid } from '../../../src/core/flows/locator-said';
import { resolveLocator } from '../../../src/core/flows/locator';
import type { Locator } from '../../../src/shared/flow';
import { wordsFor } from '../../../src/shared/i18n/translate';
import { wordCode, type SaidCode } from '../../../src/shared/said';
import type { Scene } from '../../../src/shared/scene';
import { saidWords, sayActions } from '../../../src/shared/supervision-words';

const chinese = wordsFor('zh-CN');
const inChinese = (locator: Locator) => {
  const said = locatorSaid(locator);
  return wordCode(said.code as SaidCode, said.values, chinese);
};

/** The words an English description is made of, besides the names it quotes. */
const ENGLISH_LOCATOR_WORDS = /\b(?:the|field|button|imagebutton|switch|checkbox|row|below|above|left|right|inside|holding|checked|enabled|focused|selected|not|size|any|index|showing|and|after|before|element|on|off|in|of|at)\b/i;
const withoutNames = (text: string) => text.replace(/“[^”]*”|'[^']*'/g, '');

/** Each part of a locator: its English words (as describeLocator always gave them) and its Chinese words. */
const PARTS: Array<[string, Locator, string, string]> = [
  ['a name', { text: 'Wi-Fi' }, "'Wi-Fi'", '“Wi-Fi”'],
  ['a name from a pattern', { labelPattern: 'Ann.*' }, "'Ann.*'", '“Ann.*”'],
  ['a field', { hint: 'To', type: 'text-field' }, "the field 'To'", '输入框“To”'],
  ['a button', { text: 'Send', type: 'Button' }, "'Send' button", '“Send”按钮'],
  ['an image button', { desc: 'Add', type: 'ImageButton' }, "'Add' imagebutton", '“Add”图片按钮'],
  ['a switch', { text: 'Wi-Fi', type: 'Switch' }, "'Wi-Fi' switch", '“Wi-Fi”开关'],
  ['a check box', { text: 'Remember', type: 'CheckBox' }, "'Remember' checkbox", '“Remember”复选框'],
  ['a kind with no word', { text: 'Map', type: 'MapWidget' }, "'Map' mapwidget", '“Map”mapwidget'],
  ['a layout class, which names no kind', { text: 'Wi-Fi', type: 'LinearLayout' }, "'Wi-Fi'", '“Wi-Fi”'],
  ['a name in a row', { desc: 'Add star', row: 'Buy milk' }, "'Add star' in the row 'Buy milk'", '“Buy milk”这一行里的“Add star”'],
  ['a kind in a row, as Android names it', { row: 'Buy milk', type: 'CheckBox' }, "CheckBox in the row 'Buy milk'", '“Buy milk”这一行里的复选框'],
  ['a kind in a row, as written', { row: 'Buy milk', type: 'checkbox' }, "checkbox in the row 'Buy milk'", '“Buy milk”这一行里的复选框'],
  ['a field in a row', { row: 'Buy milk', type: 'text-field' }, "field in the row 'Buy milk'", '“Buy milk”这一行里的输入框'],
  ['an element in a row', { row: 'Buy milk' }, "element in the row 'Buy milk'", '“Buy milk”这一行里的元素'],
  ['the element', { size: { width: 100 } }, 'the element of size 100×any', '这个元素（大小 100×任意）'],
  ['a size within a tolerance', { text: 'OK', size: { height: 48, tolerance: 4 } }, "'OK' of size any×48 (±4)", '“OK”（大小 任意×48，误差 ±4）'],
  ['an index', { text: 'Save', index: 2 }, "'Save' at index 2", '“Save”（序号 2）'],
  ['states', { text: 'Save', state: { enabled: false, checked: true, focused: true, selected: false } }, "'Save' (not enabled, checked, focused, not selected)", '“Save”（不可用、已勾选、有焦点、未选中）'],
  ['what it shows', { text: 'Ann Lee', distinguishedBy: { otherTexts: ['+1 555-0222', 'Work'] } }, "'Ann Lee' showing '+1 555-0222' and 'Work'", '显示“+1 555-0222”和“Work”的“Ann Lee”'],
  ['on', { text: 'Wi-Fi', distinguishedBy: { checked: true } }, "'Wi-Fi' (on)", '“Wi-Fi”（开启）'],
  ['off', { text: 'Wi-Fi', distinguishedBy: { checked: false } }, "'Wi-Fi' (off)", '“Wi-Fi”（关闭）'],
  ['the names around it', { text: 'Ann Lee', distinguishedBy: { follows: 'Work', precedes: 'Home' } }, "'Ann Lee' after 'Work' before 'Home'", '“Work”之后的“Home”之前的“Ann Lee”'],
  ['below', { text: 'Save', relative: { below: { text: 'Title' } } }, "'Save' below 'Title'", '“Title”下方的“Save”'],
  ['above', { text: 'Save', relative: { above: { text: 'Title' } } }, "'Save' above 'Title'", '“Title”上方的“Save”'],
  ['left of', { text: 'Save', relative: { leftOf: { text: 'Title' } } }, "'Save' left of 'Title'", '“Title”左边的“Save”'],
  ['right of', { text: 'Save', relative: { rightOf: { text: 'Title' } } }, "'Save' right of 'Title'", '“Title”右边的“Save”'],
  ['inside', { text: 'Save', relative: { childOf: { resourceId: 'toolbar' } } }, "'Save' inside 'toolbar'", '“toolbar”里面的“Save”'],
  ['holding', { type: 'Button', relative: { containsChild: { text: 'Save' } } }, "Button holding 'Save'", '包含“Save”的按钮'],
  [
    'holding several',
    { row: 'Inbox', relative: { containsDescendants: [{ text: 'A' }, { text: 'B' }, { text: 'C' }] } },
    "element in the row 'Inbox' holding 'A' holding 'B' holding 'C'",
    '包含“A”的包含“B”的包含“C”的“Inbox”这一行里的元素',
  ],
  [
    'everything at once',
    { text: 'Off', type: 'Switch', row: 'Wi-Fi', distinguishedBy: { checked: false }, relative: { below: { hint: 'Name', type: 'text-field', relative: { above: { text: 'Save' } } } }, state: { enabled: true }, index: 1 },
    "'Off' switch in the row 'Wi-Fi' (off) below the field 'Name' above 'Save' (enabled) at index 1",
    '“Save”上方的输入框“Name”下方的“Wi-Fi”这一行里的“Off”开关（关闭）（可用）（序号 1）',
  ],
];

describe('a locator in words', () => {
  it.each(PARTS)('words %s in English as always and in Chinese', (_, locator, english, inChineseWords) => {
    expect(describeLocator(locator)).toBe(english);
    const said = locatorSaid(locator);
    expect(wordCode(said.code as SaidCode, said.values, wordsFor('en'))).toBe(english);
    expect(inChinese(locator)).toBe(inChineseWords);
    expect(withoutNames(inChinese(locator))).not.toMatch(ENGLISH_LOCATOR_WORDS);
  });

  it('Scenario: A located element\'s description in a flow run\'s reasons is in the reader\'s language (a reason, a check and an action)', () => {
    const scene: Scene = {
      screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.amc.notes', activity: '.Main', keyboardShown: false },
      elements: [{ id: 'e1', type: 'TextView', text: 'Notes', bounds: [0, 0, 1080, 200] }],
    } as Scene;
    const missing = resolveLocator(scene, { hint: 'To', type: 'text-field' });
    expect(missing.kind).toBe('missing');
    if (missing.kind !== 'missing') return;
    expect(missing.reason).toBe("no the field 'To' on this screen; I see: Notes");
    expect(saidWords(missing.reason, missing.said, chinese)).toBe('这个屏幕上没有 输入框“To”；我看到：Notes');
    // An action on the element a flow describes: the description quotes its names; English keeps its old words.
    const tap = sayActions('flowRun.stepWhy', { actionCall: locatorCall('tap', {}, { text: 'Send', type: 'Button' }), step: 2 });
    expect(tap.text).toBe("Tap 'Send' button (step 2 of the flow)");
    expect(saidWords(tap.text, tap.said, chinese)).toBe('点按 “Send”按钮（流程的第 2 步）');
    expect(saidWords(tap.text, tap.said, wordsFor('en'))).toBe(tap.text);
    // Without a locator, the action names no element.
    expect(saidWords('', sayActions('flowRun.stepWhy', { actionCall: locatorCall('press_key', { key: 'back' }, undefined), step: 3 }).said, chinese)).toBe('按 Back（流程的第 3 步）');
  });

  it('says which kind shows the name instead of the kind the flow recorded, in the kinds\' words', () => {
    const scene = {
      screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.amc.notes', activity: '.Main', keyboardShown: false },
      elements: [
        { id: 'e1', type: 'TextView', text: 'Send', bounds: [0, 0, 1080, 200], clickable: true },
        { id: 'e2', type: 'EditText', hint: 'To', editable: true, bounds: [0, 200, 1080, 400], clickable: true },
      ],
    } as Scene;
    const notSwitch = resolveLocator(scene, { text: 'Send', type: 'Switch' });
    if (notSwitch.kind !== 'missing') throw new Error('found');
    expect(notSwitch.reason).toBe("'Send' switch is not on this screen: what shows that name here is a TextView, not the Switch the flow recorded, so it is not acted on; I see: Send, To");
    expect(saidWords(notSwitch.reason, notSwitch.said, chinese)).toBe('这个屏幕上没有 “Send”开关：这里显示这个名字的是 TextView，而不是流程记录的 开关，所以不对它操作；我看到：Send, To');
    const notButton = resolveLocator(scene, { hint: 'To', type: 'button' });
    if (notButton.kind !== 'missing') throw new Error('found');
    expect(notButton.reason).toBe("'To' button is not on this screen: what shows that name here is a text-field, not the button the flow recorded, so it is not acted on; I see: Send, To");
    expect(saidWords(notButton.reason, notButton.said, chinese)).toBe('这个屏幕上没有 “To”按钮：这里显示这个名字的是 输入框，而不是流程记录的 按钮，所以不对它操作；我看到：Send, To');
  });

  it("a hostile flow's deep and wide relations stay a small value, with the same English words", () => {
    let deep: Locator = { text: 'Bottom' };
    for (let level = 0; level < 9; level++) deep = { text: `L${level}`, relative: { below: deep, containsDescendants: Array.from({ length: 20 }, (_, index) => ({ text: `C${index}` })) } };
    const said = locatorSaid(deep);
    const english = describeLocator(deep);
    expect(wordCode(said.code as SaidCode, said.values)).toBe(english);
    // Each level's words nest once more; past a few levels they are given in English rather than grow without end.
    expect(JSON.stringify(said).length).toBeLessThan(english.length * 4 + 20_000);
  });
});
