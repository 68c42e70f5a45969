// The shell's parser on its own: what a command line becomes before the phone runs it.
import { describe, expect, it } from 'vitest';
import { parseCommandLine, ShellSyntaxError, type SimpleCommand, type Word } from '../src/phone/shell/parse';

describe('shell parser', () => {
  it('parses pipelines, connectors and redirections into a list', () => {
    const items = parseCommandLine('a 1 | b 2>/dev/null && c > f || d');
    const simple = (command: unknown): SimpleCommand => command as SimpleCommand;
    const lit = (text: string): Word => [{ literal: text }];
    expect(items.map((item) => item.connector)).toEqual([';', '&&', '||']);
    expect(items[0]?.pipeline.commands.map((command) => simple(command).words)).toEqual([[lit('a'), lit('1')], [lit('b')]]);
    expect(items[0]?.pipeline.commands[1]?.redirects).toEqual([{ fd: 2, kind: 'out', target: lit('/dev/null') }]);
    expect(items[1]?.pipeline.commands[0]?.redirects).toEqual([{ fd: 1, kind: 'out', target: lit('f') }]);
    expect(() => parseCommandLine('&& a')).toThrow(ShellSyntaxError);
    expect(() => parseCommandLine('a |')).toThrow(ShellSyntaxError);
  });
});
