import { FsError, type FileEntry, type VirtualFileSystem } from '../file-system';
import { failure, output, type CommandHandler } from '../shell/interpreter';

/** toybox-style `cat`, `ls`, `rm`, `mkdir` over the phone's file system. */

interface ParsedFlags {
  flags: Set<string>;
  operands: string[];
}

function parseFlags(args: string[]): ParsedFlags {
  const flags = new Set<string>();
  const operands: string[] = [];
  let onlyOperands = false;
  for (const arg of args) {
    if (!onlyOperands && arg === '--') onlyOperands = true;
    else if (!onlyOperands && arg.startsWith('-') && arg.length > 1) for (const flag of arg.slice(1)) flags.add(flag);
    else operands.push(arg);
  }
  return { flags, operands };
}

const errorLine = (command: string, error: unknown): string => {
  if (error instanceof FsError) return `${command}: ${error.path}: ${error.reason}\n`;
  throw error;
};

export function catCommand(fs: VirtualFileSystem): CommandHandler {
  return async ({ args, stdin, emit }) => {
    const { operands } = parseFlags(args);
    if (operands.length === 0) {
      // Streams: what arrives on stdin goes out as it comes (`adb shell cat` over a live stdin).
      for await (const chunk of stdin.chunks()) await emit(chunk);
      return output();
    }
    const chunks: Buffer[] = [];
    let stderr = '';
    for (const path of operands) {
      try {
        chunks.push(fs.read(path));
      } catch (error) {
        stderr += errorLine('cat', error);
      }
    }
    return output(Buffer.concat(chunks), stderr, stderr ? 1 : 0);
  };
}

function pad(value: string | number, width: number): string {
  return String(value).padStart(width);
}

function permissions(mode: number, isDirectory: boolean): string {
  const bits = 'rwxrwxrwx';
  let text = isDirectory ? 'd' : '-';
  for (let index = 0; index < 9; index++) text += mode & (1 << (8 - index)) ? bits[index] : '-';
  return text;
}

function longLine(entry: FileEntry, name: string): string {
  const date = new Date(entry.mtimeSeconds * 1000).toISOString();
  const stamp = `${date.slice(0, 10)} ${date.slice(11, 16)}`;
  return `${permissions(entry.mode, entry.isDirectory)} ${pad(1, 2)} shell shell ${pad(entry.size, 8)} ${stamp} ${name}\n`;
}

export function lsCommand(fs: VirtualFileSystem): CommandHandler {
  return ({ args }) => {
    const { flags, operands } = parseFlags(args);
    const long = flags.has('l');
    const all = flags.has('a');
    const targets = operands.length > 0 ? operands : ['/'];
    let stdout = '';
    let stderr = '';
    for (const target of targets) {
      const entry = fs.stat(target);
      if (!entry) {
        stderr += `ls: ${target}: No such file or directory\n`;
        continue;
      }
      if (!entry.isDirectory) {
        stdout += long ? longLine(entry, target) : `${target}\n`;
        continue;
      }
      if (targets.length > 1) stdout += `${target}:\n`;
      const entries = fs.list(target) ?? [];
      if (long) stdout += `total ${entries.length * 8}\n`;
      const names = entries.filter((child) => all || !child.name.startsWith('.'));
      for (const child of names) stdout += long ? longLine(child, child.name) : `${child.name}\n`;
    }
    return output(stdout, stderr, stderr ? 1 : 0);
  };
}

export function rmCommand(fs: VirtualFileSystem): CommandHandler {
  return ({ args }) => {
    const { flags, operands } = parseFlags(args);
    if (operands.length === 0) return failure('rm: Need 1 argument\n');
    const force = flags.has('f');
    let stderr = '';
    for (const path of operands) {
      try {
        fs.remove(path, { recursive: flags.has('r') || flags.has('R') });
      } catch (error) {
        if (force && error instanceof FsError && error.code === 'ENOENT') continue;
        stderr += errorLine('rm', error);
      }
    }
    return output('', stderr, stderr ? 1 : 0);
  };
}

export function mkdirCommand(fs: VirtualFileSystem): CommandHandler {
  return ({ args }) => {
    const { flags, operands } = parseFlags(args);
    if (operands.length === 0) return failure('mkdir: Needs 1 argument\n');
    let stderr = '';
    for (const path of operands) {
      try {
        if (flags.has('p') && fs.stat(path)?.isDirectory) continue;
        fs.mkdir(path, { parents: flags.has('p') });
      } catch (error) {
        stderr += errorLine('mkdir', error);
      }
    }
    return output('', stderr, stderr ? 1 : 0);
  };
}

/** `grep [-i] [-v] [-c] [-F] [-E] PATTERN [FILE]` over stdin or a file. */
export function grepCommand(fs: VirtualFileSystem): CommandHandler {
  return async ({ args, stdin }) => {
    const { flags, operands } = parseFlags(args);
    const [pattern, file] = operands;
    if (pattern === undefined) return failure('grep: Need 1 argument\n', 2);
    let input: Buffer;
    if (file === undefined) {
      input = await stdin.readAll();
    } else {
      try {
        input = fs.read(file);
      } catch (error) {
        return failure(errorLine('grep', error), 2);
      }
    }
    let matcher: RegExp;
    try {
      const source = flags.has('F') ? pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : flags.has('E') ? pattern : basicToExtended(pattern);
      matcher = new RegExp(source, flags.has('i') ? 'i' : '');
    } catch {
      return failure(`grep: bad regex '${pattern}'\n`, 2);
    }
    const lines = input.toString('utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const selected = lines.filter((line) => matcher.test(line) !== flags.has('v'));
    if (flags.has('c')) return output(`${selected.length}\n`, '', selected.length > 0 ? 0 : 1);
    return output(selected.map((line) => `${line}\n`).join(''), '', selected.length > 0 ? 0 : 1);
  };
}

/** POSIX basic regular expressions treat `+ ? | ( ) { }` literally unless escaped. */
function basicToExtended(pattern: string): string {
  return pattern.replace(/\\([+?|(){}])|([+?|(){}])/g, (_, escaped: string | undefined, plain: string | undefined) =>
    escaped !== undefined ? escaped : `\\${plain}`,
  );
}

function lineCount(args: string[], fallback: number): { count: number; bytes: boolean; operands: string[] } {
  const operands: string[] = [];
  let count = fallback;
  let bytes = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '-n') count = Number(args[++index]);
    else if (arg === '-c') {
      bytes = true;
      count = Number(args[++index]);
    }
    else if (/^-n?\d+$/.test(arg)) count = Number(arg.replace(/^-n?/, ''));
    else operands.push(arg);
  }
  return { count, bytes, operands };
}

export function headCommand(fs: VirtualFileSystem, fromEnd = false): CommandHandler {
  const name = fromEnd ? 'tail' : 'head';
  return async ({ args, stdin }) => {
    const { count, bytes, operands } = lineCount(args, 10);
    if (!Number.isInteger(count) || count < 0) return failure(`${name}: invalid number\n`);
    let input: Buffer;
    if (operands[0] === undefined) {
      input = await stdin.readAll();
    } else {
      try {
        input = fs.read(operands[0]);
      } catch (error) {
        return failure(errorLine(name, error));
      }
    }
    if (bytes) return output(fromEnd ? input.subarray(Math.max(0, input.length - count)) : input.subarray(0, count));
    const lines = input.toString('utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const picked = fromEnd ? lines.slice(Math.max(0, lines.length - count)) : lines.slice(0, count);
    return output(picked.map((line) => `${line}\n`).join(''));
  };
}
