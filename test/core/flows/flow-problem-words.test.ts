// The flow file problems that came from a schema's own message or a Maestro condition, worded in a Chinese terminal's
// language the way `amc flow check` and `amc flow run` word them (FlowFileError.wordedIn): each in Chinese, at its
// line, and no English sentence left; the English text the records keep is unchanged.
import { describe, expect, it } from 'vitest';
import { FlowFileError, parseFlowFile } from '../../../src/core/flows/flow-file';
import { wordsFor } from '../../../src/shared/i18n';
import { latinSentences } from '../../support/latin-sentences';

const zh = wordsFor('zh-CN');

function problems(text: string): FlowFileError {
  const read = parseFlowFile(text);
  if (read.ok) throw new Error('the file was read without a problem');
  return new FlowFileError(read.problems, 'f.yaml');
}

describe('flow file problems in the reader’s language', () => {
  it("Scenario: A Maestro condition or screenshot name amc cannot read is refused in the terminal's language", () => {
    const refused = problems(
      [
        'appId: com.example.notes',
        '---',
        '- assertTrue: ${A.length > 1}',
        '- assertTrue: ${(A == "1"}',
        '- assertTrue: ${A == }',
        '- takeScreenshot: /etc/passwd',
        '- takeScreenshot: ../home',
        '- assertTrue: ${A == "1"}',
        '',
      ].join('\n'),
    );
    // The five, and the one readable condition's variable, which has no value.
    expect(refused.problems).toHaveLength(6);
    // English as it always read (the records and an English terminal).
    expect(refused.message).toContain('line 3, column 3: assertTrue: amc reads comparisons of variables, texts and numbers with == != < > && || ! and parentheses; "A.length > 1" is not one of them');
    expect(refused.message).toContain('line 4, column 3: assertTrue: the condition "${(A == "1"}" cannot be read: a parenthesis is not closed');
    expect(refused.message).toContain('line 6, column 3: takeScreenshot: "/etc/passwd" is an absolute path');
    const chinese = refused.wordedIn(zh);
    expect(chinese).toContain('第 3 行第 3 列：assertTrue：amc 只读取由变量、文本和数字');
    expect(chinese).toContain('"A.length > 1" 不在其中');
    expect(chinese).toContain('第 4 行第 3 列：assertTrue：无法读取条件 "${(A == "1"}"：有一个括号没有闭合');
    expect(chinese).toContain('第 5 行第 3 列：assertTrue：无法读取条件 "${A == }"：条件过早结束');
    expect(chinese).toContain('第 6 行第 3 列：takeScreenshot："/etc/passwd" 是绝对路径');
    expect(chinese).toContain('第 7 行第 3 列：takeScreenshot："../home" 用 ".." 跑出了本次运行的输出文件夹');
    expect(latinSentences(chinese), chinese).toEqual([]);
  });

  it("Scenario: A flow file's problems from the schema's own rules are worded in the terminal's language, at their field", () => {
    const refused = problems(
      [
        'goal: Check the notes',
        'steps:',
        '  - assert: {}',
        '  - wait_until: {visible: Notes, not_visible: Notes}',
        '  - repeat: {steps: [{press_key: back}]}',
        '  - ask_ai: {question: Which note?, into: note, kind: yes-no}',
        '  - run_flow: {}',
        '  - tap: {point: nowhere}',
        '  - tap: {size: {tolerance: 2}}',
        '  - scroll_until_visible: {target: {}}',
        '  - tap: {text: ""}',
        '',
      ].join('\n'),
    );
    expect(refused.message).toContain('line 3, column 13: an assert needs at least one condition');
    expect(refused.message).toContain('line 8, column 18: a point is "X,Y" in pixels or "X%,Y%"');
    const chinese = refused.wordedIn(zh);
    for (const line of [
      '第 3 行第 13 列：`assert` 至少需要一个条件',
      '第 4 行第 17 列：`wait_until` 需要 `visible` 或 `not_visible` 之一',
      '第 5 行第 13 列：`repeat` 需要 `times` 或 `while`',
      '`into` 保存提取出的答案：它配合 `kind: extract` 使用',
      '第 7 行第 15 列：`run_flow` 接受一个文件或若干步（`steps`）',
      '第 8 行第 18 列：点的写法是以像素计的 "X,Y"，或 "X%,Y%"',
      '尺寸要给出 `width`、`height` 或两者',
      '定位器至少需要 `resourceId`、`text`、`desc`、`hint` 或 `row` 之一',
      '第 11 行第 17 列：`text` 不能为空',
    ]) {
      expect(chinese).toContain(line);
    }
    expect(latinSentences(chinese), chinese).toEqual([]);
  });
});
