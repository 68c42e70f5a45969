/**
 * A small subset of the Android `sh` (mksh) grammar: `;` `&&` `||` `|`, quoting with '..', ".." and backslash,
 * and output redirections (`>`, `>>`, `2>`, `2>&1`). Enough for what adb clients send.
 */

export interface Redirect {
  fd: 1 | 2;
  /** `file` writes to `target`; `dup` points fd at the other output stream (`2>&1`). */
  kind: 'file' | 'append' | 'dup';
  target: string;
}

export interface SimpleCommand {
  words: string[];
  redirects: Redirect[];
}

export interface Pipeline {
  commands: SimpleCommand[];
}

export interface ListItem {
  /** How this pipeline is joined to the previous one. */
  connector: ';' | '&&' | '||';
  pipeline: Pipeline;
}

export class ShellSyntaxError extends Error {
  override name = 'ShellSyntaxError';
}

type Token = { type: 'word'; value: string } | { type: 'op'; value: ';' | '&&' | '||' | '|' } | { type: 'redirect'; redirect: Omit<Redirect, 'target'> & { target?: string } };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const peek = (offset = 0): string => source[i + offset] ?? '';
  while (i < source.length) {
    const char = peek();
    if (char === ' ' || char === '\t') {
      i++;
      continue;
    }
    if (char === '\n' || char === ';') {
      tokens.push({ type: 'op', value: ';' });
      i++;
      continue;
    }
    if (char === '#') {
      while (i < source.length && peek() !== '\n') i++;
      continue;
    }
    if (char === '&' && peek(1) === '&') {
      tokens.push({ type: 'op', value: '&&' });
      i += 2;
      continue;
    }
    if (char === '|' && peek(1) === '|') {
      tokens.push({ type: 'op', value: '||' });
      i += 2;
      continue;
    }
    if (char === '|') {
      tokens.push({ type: 'op', value: '|' });
      i++;
      continue;
    }
    if (char === '&') {
      // A background job runs to completion here: treat `cmd &` like `cmd ;`.
      tokens.push({ type: 'op', value: ';' });
      i++;
      continue;
    }
    const redirect = readRedirect(source, i);
    if (redirect) {
      tokens.push({ type: 'redirect', redirect: redirect.redirect });
      i = redirect.end;
      continue;
    }
    const word = readWord(source, i);
    tokens.push({ type: 'word', value: word.value });
    i = word.end;
  }
  return tokens;
}

function readRedirect(source: string, start: number): { redirect: Omit<Redirect, 'target'>; end: number } | undefined {
  const match = /^([12]?)(>>|>&|>)/.exec(source.slice(start, start + 4));
  if (!match) return undefined;
  const fd = match[1] === '2' ? 2 : 1;
  const op = match[2];
  const end = start + match[0].length;
  if (op === '>&') return { redirect: { fd, kind: 'dup' }, end };
  return { redirect: { fd, kind: op === '>>' ? 'append' : 'file' }, end };
}

const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '>']);

function readWord(source: string, start: number): { value: string; end: number } {
  let value = '';
  let i = start;
  while (i < source.length) {
    const char = source[i] as string;
    if (WORD_END.has(char)) break;
    if (char === '<') throw new ShellSyntaxError('input redirection is not supported');
    if (char === "'") {
      const close = source.indexOf("'", i + 1);
      if (close < 0) throw new ShellSyntaxError("unterminated '");
      value += source.slice(i + 1, close);
      i = close + 1;
      continue;
    }
    if (char === '"') {
      i++;
      let closed = false;
      while (i < source.length) {
        const inner = source[i] as string;
        if (inner === '"') {
          closed = true;
          i++;
          break;
        }
        if (inner === '\\' && i + 1 < source.length && '"\\$`\n'.includes(source[i + 1] as string)) {
          value += source[i + 1];
          i += 2;
          continue;
        }
        value += inner;
        i++;
      }
      if (!closed) throw new ShellSyntaxError('unterminated "');
      continue;
    }
    if (char === '\\') {
      if (i + 1 < source.length) value += source[i + 1];
      i += 2;
      continue;
    }
    value += char;
    i++;
  }
  return { value, end: i };
}

/** Parses a command line into a list of pipelines. Throws ShellSyntaxError with a sh-style message. */
export function parseCommandLine(source: string): ListItem[] {
  const tokens = tokenize(source);
  const items: ListItem[] = [];
  let connector: ListItem['connector'] = ';';
  let pipeline: Pipeline = { commands: [] };
  let command: SimpleCommand = { words: [], redirects: [] };
  let pendingRedirect: Omit<Redirect, 'target'> | undefined;

  const finishCommand = (allowEmpty: boolean, near: string): void => {
    if (pendingRedirect) throw new ShellSyntaxError(`syntax error: '${near}' unexpected`);
    if (command.words.length === 0 && command.redirects.length === 0) {
      // A pipe must be followed by a command.
      if (!allowEmpty || pipeline.commands.length > 0) throw new ShellSyntaxError(`syntax error: '${near}' unexpected`);
      return;
    }
    pipeline.commands.push(command);
    command = { words: [], redirects: [] };
  };

  for (const token of tokens) {
    if (token.type === 'word') {
      if (pendingRedirect) {
        command.redirects.push({ ...pendingRedirect, target: token.value });
        pendingRedirect = undefined;
      } else {
        command.words.push(token.value);
      }
      continue;
    }
    if (token.type === 'redirect') {
      if (pendingRedirect) throw new ShellSyntaxError("syntax error: '>' unexpected");
      pendingRedirect = token.redirect;
      continue;
    }
    if (token.value === '|') {
      finishCommand(false, '|');
      continue;
    }
    const emptyPipeline = pipeline.commands.length === 0 && command.words.length === 0 && command.redirects.length === 0;
    if (emptyPipeline && token.value !== ';') throw new ShellSyntaxError(`syntax error: '${token.value}' unexpected`);
    finishCommand(true, token.value);
    if (pipeline.commands.length > 0) items.push({ connector, pipeline });
    pipeline = { commands: [] };
    connector = token.value;
  }
  finishCommand(true, 'newline');
  if (pipeline.commands.length > 0) items.push({ connector, pipeline });
  else if (connector !== ';') throw new ShellSyntaxError("syntax error: unexpected end of file");
  return items.map(resolveDupTargets);
}

function resolveDupTargets(item: ListItem): ListItem {
  for (const command of item.pipeline.commands) {
    for (const redirect of command.redirects) {
      if (redirect.kind === 'dup' && redirect.target !== '1' && redirect.target !== '2') {
        throw new ShellSyntaxError(`${redirect.target}: illegal file descriptor name`);
      }
    }
  }
  return item;
}
