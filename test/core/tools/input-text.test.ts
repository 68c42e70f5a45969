import { describe, expect, it } from 'vitest';
import { hasUntypableControls, imeTextCommand, inputTextCommands, isInputTextTypable, shellQuote } from '../../../src/core/tools/input-text';

/** What `sh` does to a single-quoted word, then what Android's `input text` does to `%s`. */
function typedBy(command: string): string {
  const match = /^input text '((?:[^']|'\\'')*)'$/.exec(command);
  if (!match) throw new Error(`not an input text command: ${command}`);
  const word = match[1]!.replace(/'\\''/g, "'");
  let out = '';
  for (let i = 0; i < word.length; i++) {
    if (word[i] === '%' && word[i + 1] === 's') {
      out += ' ';
      i++;
    } else out += word[i];
  }
  return out;
}

describe('ASCII text for `input text`', () => {
  it('quotes every shell metacharacter inside one single-quoted word', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    const tricky = `a&b;c|d<e>f(g)h*i~j\`k$HOME\\l"m'n!#?[x]{y}=`;
    const commands = inputTextCommands(tricky);
    expect(commands).toHaveLength(1);
    expect(typedBy(commands[0]!)).toBe(tricky);
  });

  it('turns spaces into %s and keeps a literal %s apart so it is not read as a space', () => {
    const commands = inputTextCommands('50% sure, 100%s and %%s');
    expect(commands.every((command) => !command.includes(' ', 'input text '.length))).toBe(true);
    expect(commands.map(typedBy).join('')).toBe('50% sure, 100%s and %%s');
  });

  it('types newlines as ENTER key events and splits long text into bounded chunks', () => {
    expect(inputTextCommands('one\ntwo')).toEqual(["input text 'one'", 'input keyevent 66', "input text 'two'"]);
    const long = 'x'.repeat(450);
    const commands = inputTextCommands(long);
    expect(commands).toHaveLength(3);
    expect(commands.map(typedBy).join('')).toBe(long);
  });

  it('tells ASCII from text that needs the IME, and encodes the IME broadcast as base64', () => {
    expect(isInputTextTypable('Hello, world!\n')).toBe(true);
    expect(isInputTextTypable('李雷')).toBe(false);
    expect(isInputTextTypable('café')).toBe(false);
    expect(imeTextCommand('李雷')).toBe(`am broadcast -a ADB_INPUT_B64 --es msg ${Buffer.from('李雷').toString('base64')}`);
  });
});

describe('control characters', () => {
  it('accepts newlines and rejects tabs, escapes and DEL', () => {
    expect(hasUntypableControls('a\nb')).toBe(false);
    expect(hasUntypableControls('a\tb')).toBe(true);
    expect(hasUntypableControls('\u001b[0m')).toBe(true);
    expect(hasUntypableControls('x\u007f')).toBe(true);
  });
});
