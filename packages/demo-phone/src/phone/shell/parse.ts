/**
 * The part of the Android `sh` (mksh) grammar that scripts and adb tools send: lists with `;` `&&` `||` and
 * newlines, pipelines (`!` negates), `if`/`then`/`elif`/`else`/`fi`, variable assignments, `$NAME`, `${NAME}`
 * and `$?` expansion, quoting with '..', ".." and backslash, and redirections `<` `>` `>>` `N>&M`.
 */

/** A word is expanded when it runs: literal text and variable references. */
export type WordPart = { literal: string } | { variable: string };
export type Word = WordPart[];

export interface Redirect {
  fd: number;
  /** `in` reads `target`; `out`/`append` write it; `dup` points fd at another descriptor (`2>&1`). */
  kind: 'in' | 'out' | 'append' | 'dup';
  target: Word;
}

export interface SimpleCommand {
  kind: 'simple';
  assignments: Array<{ name: string; value: Word }>;
  words: Word[];
  redirects: Redirect[];
}

export interface IfCommand {
  kind: 'if';
  branches: Array<{ condition: CommandList; body: CommandList }>;
  otherwise: CommandList | undefined;
  redirects: Redirect[];
}

export type Command = SimpleCommand | IfCommand;

export interface Pipeline {
  negated: boolean;
  commands: Command[];
}

export interface ListItem {
  /** How this pipeline is joined to the previous one. */
  connector: ';' | '&&' | '||';
  pipeline: Pipeline;
}

export type CommandList = ListItem[];

export class ShellSyntaxError extends Error {
  override name = 'ShellSyntaxError';
}

type Operator = ';' | '&&' | '||' | '|' | '&';
type Token =
  | { type: 'word'; word: Word; /** The unquoted literal text, when the word has no quoting or expansion. */ bare?: string }
  | { type: 'op'; value: Operator }
  | { type: 'redirect'; fd: number; kind: Redirect['kind'] };

const OPERATORS: Array<[string, Operator]> = [
  ['&&', '&&'],
  ['||', '||'],
  ['|', '|'],
  ['&', '&'],
  [';', ';'],
  ['\n', ';'],
];
const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '>', '<']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const char = source[i] as string;
    if (char === ' ' || char === '\t') {
      i++;
      continue;
    }
    if (char === '#') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    const operator = OPERATORS.find(([text]) => source.startsWith(text, i));
    if (operator) {
      tokens.push({ type: 'op', value: operator[1] });
      i += operator[0].length;
      continue;
    }
    const redirect = /^(\d?)(>>|>&|<&|>|<)/.exec(source.slice(i, i + 4));
    if (redirect) {
      const op = redirect[2] as string;
      const input = op.startsWith('<');
      const fd = redirect[1] ? Number(redirect[1]) : input ? 0 : 1;
      const kind: Redirect['kind'] = op.endsWith('&') ? 'dup' : op === '>>' ? 'append' : input ? 'in' : 'out';
      tokens.push({ type: 'redirect', fd, kind });
      i += redirect[0].length;
      continue;
    }
    const word = readWord(source, i);
    tokens.push({ type: 'word', word: word.parts, bare: word.bare });
    i = word.end;
  }
  return tokens;
}

function readWord(source: string, start: number): { parts: Word; bare: string | undefined; end: number } {
  const parts: Word = [];
  let literal = '';
  let plain = true;
  const flush = (): void => {
    if (literal !== '') parts.push({ literal });
    literal = '';
  };
  const readVariable = (at: number): number => {
    // `at` points after the `$`; returns where the reference ends, or `at` when it is a plain `$`.
    const rest = source.slice(at);
    const braced = /^\{([A-Za-z_][A-Za-z0-9_]*|[?$#0-9])\}/.exec(rest);
    const simple = braced ? undefined : (NAME.exec(rest) ?? /^[?$#0-9]/.exec(rest));
    const match = braced ?? simple;
    if (!match) return at;
    flush();
    parts.push({ variable: braced ? (braced[1] as string) : match[0] });
    plain = false;
    return at + match[0].length;
  };
  let i = start;
  while (i < source.length) {
    const char = source[i] as string;
    if (WORD_END.has(char)) break;
    if (char === "'") {
      const close = source.indexOf("'", i + 1);
      if (close < 0) throw new ShellSyntaxError("unterminated '");
      literal += source.slice(i + 1, close);
      plain = false;
      i = close + 1;
      continue;
    }
    if (char === '"') {
      plain = false;
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
          literal += source[i + 1];
          i += 2;
          continue;
        }
        if (inner === '$') {
          const end = readVariable(i + 1);
          if (end !== i + 1) {
            i = end;
            continue;
          }
        }
        literal += inner;
        i++;
      }
      if (!closed) throw new ShellSyntaxError('unterminated "');
      continue;
    }
    if (char === '\\') {
      plain = false;
      if (i + 1 < source.length) literal += source[i + 1];
      i += 2;
      continue;
    }
    if (char === '$') {
      const end = readVariable(i + 1);
      if (end !== i + 1) {
        i = end;
        continue;
      }
    }
    literal += char;
    i++;
  }
  flush();
  const bare = plain ? parts.map((part) => ('literal' in part ? part.literal : '')).join('') : undefined;
  return { parts: parts.length > 0 ? parts : [{ literal: '' }], bare, end: i };
}

const RESERVED = new Set(['if', 'then', 'elif', 'else', 'fi']);

class Parser {
  private index = 0;

  constructor(private readonly tokens: Token[]) {}

  parseProgram(): CommandList {
    const list = this.parseList(new Set());
    const next = this.tokens[this.index];
    if (next) throw this.unexpected(next);
    return list;
  }

  /** Pipelines joined by `;` `&&` `||` until a reserved word in `stopAt` or the end. */
  private parseList(stopAt: ReadonlySet<string>): CommandList {
    const items: CommandList = [];
    let connector: ListItem['connector'] = ';';
    for (;;) {
      const next = this.tokens[this.index];
      if (!next || (next.type === 'word' && next.bare !== undefined && stopAt.has(next.bare))) {
        if (connector !== ';') throw new ShellSyntaxError('syntax error: unexpected end of file');
        return items;
      }
      if (next.type === 'op') {
        if (next.value === ';' || next.value === '&') {
          // An empty command between separators is fine only before anything else.
          if (connector !== ';' ) throw this.unexpected(next);
          this.index++;
          continue;
        }
        throw this.unexpected(next);
      }
      items.push({ connector, pipeline: this.parsePipeline() });
      const after = this.tokens[this.index];
      if (after?.type === 'op' && (after.value === '&&' || after.value === '||')) {
        connector = after.value;
        this.index++;
      } else if (after?.type === 'op' && (after.value === ';' || after.value === '&')) {
        // A background job runs to completion here: `cmd &` is `cmd ;`.
        connector = ';';
        this.index++;
      } else {
        connector = ';';
        if (after && !(after.type === 'word' && after.bare !== undefined && stopAt.has(after.bare))) throw this.unexpected(after);
      }
    }
  }

  private parsePipeline(): Pipeline {
    let negated = false;
    const first = this.tokens[this.index];
    if (first?.type === 'word' && first.bare === '!') {
      negated = true;
      this.index++;
    }
    const commands = [this.parseCommand()];
    for (;;) {
      const next = this.tokens[this.index];
      if (next?.type !== 'op' || next.value !== '|') break;
      this.index++;
      commands.push(this.parseCommand());
    }
    return { negated, commands };
  }

  private parseCommand(): Command {
    const next = this.tokens[this.index];
    if (!next) throw new ShellSyntaxError('syntax error: unexpected end of file');
    if (next.type === 'word' && next.bare === 'if') return this.parseIf();
    if (next.type === 'word' && next.bare !== undefined && RESERVED.has(next.bare)) throw this.unexpected(next);
    return this.parseSimple();
  }

  private parseIf(): IfCommand {
    this.index++; // if
    const branches: IfCommand['branches'] = [];
    let otherwise: CommandList | undefined;
    for (;;) {
      const condition = this.parseList(new Set(['then']));
      this.expect('then');
      const body = this.parseList(new Set(['elif', 'else', 'fi']));
      branches.push({ condition, body });
      const keyword = this.expect('elif', 'else', 'fi');
      if (keyword === 'elif') continue;
      if (keyword === 'else') {
        otherwise = this.parseList(new Set(['fi']));
        this.expect('fi');
      }
      break;
    }
    if (branches.some((branch) => branch.condition.length === 0 || branch.body.length === 0)) {
      throw new ShellSyntaxError("syntax error: 'fi' unexpected");
    }
    return { kind: 'if', branches, otherwise, redirects: this.parseRedirects() };
  }

  private parseSimple(): SimpleCommand {
    const command: SimpleCommand = { kind: 'simple', assignments: [], words: [], redirects: [] };
    for (;;) {
      const next = this.tokens[this.index];
      if (!next || next.type === 'op') break;
      if (next.type === 'redirect') {
        command.redirects.push(this.parseRedirect());
        continue;
      }
      const assignment = command.words.length === 0 ? asAssignment(next.word) : undefined;
      if (assignment) command.assignments.push(assignment);
      else command.words.push(next.word);
      this.index++;
    }
    if (command.words.length === 0 && command.assignments.length === 0 && command.redirects.length === 0) {
      const next = this.tokens[this.index];
      throw next ? this.unexpected(next) : new ShellSyntaxError('syntax error: unexpected end of file');
    }
    return command;
  }

  private parseRedirects(): Redirect[] {
    const redirects: Redirect[] = [];
    while (this.tokens[this.index]?.type === 'redirect') redirects.push(this.parseRedirect());
    return redirects;
  }

  private parseRedirect(): Redirect {
    const token = this.tokens[this.index] as Extract<Token, { type: 'redirect' }>;
    const target = this.tokens[this.index + 1];
    if (target?.type !== 'word') throw target ? this.unexpected(target) : new ShellSyntaxError('syntax error: unexpected end of file');
    this.index += 2;
    if (token.kind === 'dup' && !/^\d$/.test(target.bare ?? '') && target.bare !== '-') {
      throw new ShellSyntaxError(`${wordText(target.word)}: illegal file descriptor name`);
    }
    return { fd: token.fd, kind: token.kind, target: target.word };
  }

  private expect(...keywords: string[]): string {
    const next = this.tokens[this.index];
    if (next?.type === 'word' && next.bare !== undefined && keywords.includes(next.bare)) {
      this.index++;
      return next.bare;
    }
    throw next ? this.unexpected(next) : new ShellSyntaxError('syntax error: unexpected end of file');
  }

  private unexpected(token: Token): ShellSyntaxError {
    const text = token.type === 'word' ? wordText(token.word) : token.type === 'op' ? token.value : token.kind === 'in' ? '<' : '>';
    return new ShellSyntaxError(`syntax error: '${text === ';' ? ';' : text}' unexpected`);
  }
}

function asAssignment(word: Word): { name: string; value: Word } | undefined {
  const first = word[0];
  if (!first || !('literal' in first)) return undefined;
  const match = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(first.literal);
  if (!match) return undefined;
  const rest = first.literal.slice(match[0].length);
  return { name: match[1] as string, value: [...(rest ? [{ literal: rest }] : []), ...word.slice(1)] };
}

/** The word as written, variables shown as `$NAME` (for messages). */
function wordText(word: Word): string {
  return word.map((part) => ('literal' in part ? part.literal : `$${part.variable}`)).join('');
}

/** Parses a command line. Throws ShellSyntaxError with a sh-style message. */
export function parseCommandLine(source: string): CommandList {
  return new Parser(tokenize(source)).parseProgram();
}
