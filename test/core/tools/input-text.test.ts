import { describe, expect, it } from 'vitest';
import { hasUntypableControls, imeTextCommand, inputTextCommands, isInputTextTypable } from '../../../src/core/tools/input-text';

/** What `sh` makes of one word (quoted pieces, escaped and plain characters; a space would end it). */
function shellWord(written: string): string {
  let word = '';
  for (let i = 0; i < written.length; i++) {
    const char = written[i]!;
    if (char === "'") {
      const end = written.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed quote in ${written}`);
      word += written.slice(i + 1, end);
      i = end;
    } else if (char === '\\') word += written[++i] ?? '';
    else if (/[\w./:=@%+,-]/.test(char)) word += char;
    else throw new Error(`the shell would read ${JSON.stringify(char)} in ${written} as more than a letter`);
  }
  return word;
}

/** What `sh` does to the one word after `input text`, then what Android's `input text` does to `%s`. */
function typedBy(command: string): string {
  const match = /^input text (\S+)$/.exec(command);
  if (!match) throw new Error(`not an input text command of one word: ${command}`);
  const word = shellWord(match[1]!);
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
    expect(inputTextCommands("it's")).toEqual([`input text 'it'\\''s'`]);
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
    expect(inputTextCommands('one\ntwo')).toEqual(['input text one', 'input keyevent 66', 'input text two']);
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
