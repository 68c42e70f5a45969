import { FsError, type VirtualFileSystem } from '../file-system';
import { bufferInput, CollectingSink, DISCARD, EMPTY_INPUT, type CommandInput, type OutputSink } from './io';
import { parseCommandLine, ShellSyntaxError, type Command, type CommandList, type Pipeline, type Redirect, type SimpleCommand, type Word } from './parse';

export interface CommandIo {
  /** Arguments after the command name. */
  args: string[];
  stdin: CommandInput;
  signal: AbortSignal;
  /** The shell's exported variables. */
  env: ReadonlyMap<string, string>;
  /** Writes stdout right away (a command that runs until stopped, like `logcat`); what it returns follows. */
  emit(data: Buffer | string): Promise<void>;
}

export interface CommandOutput {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
}

export type CommandHandler = (io: CommandIo) => Promise<CommandOutput> | CommandOutput;

export interface RunOptions {
  signal: AbortSignal;
  /** The command line's stdin (adb's stdin for a one-shot command); empty by default. */
  stdin?: CommandInput;
  /** Receives stdout as it is produced; the returned stdout is then empty. */
  onStdout?: (data: Buffer) => Promise<void>;
}

const SHELL = '/system/bin/sh';

export function output(stdout: string | Buffer = '', stderr: string | Buffer = '', exitCode = 0): CommandOutput {
  return {
    stdout: typeof stdout === 'string' ? Buffer.from(stdout) : stdout,
    stderr: typeof stderr === 'string' ? Buffer.from(stderr) : stderr,
    exitCode,
  };
}

export const failure = (stderr: string, exitCode = 1): CommandOutput => output('', stderr, exitCode);

/** Thrown by `exit` and `exec` to stop the whole command line. */
class ExitRequest {
  constructor(readonly code: number) {}
}

/** A redirection that failed before the command ran (mksh reports it and skips the command). */
class RedirectError {
  constructor(readonly message: string) {}
}

interface Streams {
  stdin: CommandInput;
  stdout: OutputSink;
  stderr: OutputSink;
}

/** One `sh -c` run: its variables, the last status, where output goes. */
interface Session {
  env: Map<string, string>;
  status: number;
  signal: AbortSignal;
}

const INITIAL_ENV: ReadonlyArray<[string, string]> = [
  ['PATH', '/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:/system_ext/bin:/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin'],
  ['HOME', '/'],
  ['SHELL', SHELL],
  ['USER', 'shell'],
  ['HOSTNAME', 'localhost'],
  ['TMPDIR', '/data/local/tmp'],
  ['ANDROID_DATA', '/data'],
  ['ANDROID_ROOT', '/system'],
];

/** Runs command lines against a table of commands, the way `sh -c` does on the phone. */
export class ShellInterpreter {
  constructor(
    private readonly commands: ReadonlyMap<string, CommandHandler>,
    private readonly fs: VirtualFileSystem,
  ) {}

  async run(commandLine: string, options: RunOptions): Promise<CommandOutput> {
    const stdout = new CollectingSink();
    const stderr = new CollectingSink();
    const session: Session = { env: new Map(INITIAL_ENV), status: 0, signal: options.signal };
    const streams: Streams = {
      stdin: options.stdin ?? EMPTY_INPUT,
      stdout: options.onStdout ? { write: options.onStdout } : stdout,
      stderr,
    };
    try {
      await this.runList(parseCommandLine(commandLine), session, streams);
    } catch (error) {
      if (error instanceof ExitRequest) session.status = error.code;
      else if (error instanceof ShellSyntaxError) {
        await stderr.write(Buffer.from(`${SHELL}: ${error.message}\n`));
        session.status = 2;
      } else throw error;
    }
    return { stdout: stdout.contents(), stderr: stderr.contents(), exitCode: session.status };
  }

  private async runList(list: CommandList, session: Session, streams: Streams): Promise<number> {
    for (const item of list) {
      if (item.connector === '&&' && session.status !== 0) continue;
      if (item.connector === '||' && session.status === 0) continue;
      session.status = await this.runPipeline(item.pipeline, session, streams);
    }
    return session.status;
  }

  private async runPipeline(pipeline: Pipeline, session: Session, streams: Streams): Promise<number> {
    let stdin = streams.stdin;
    let status = 0;
    for (const [index, command] of pipeline.commands.entries()) {
      const last = index === pipeline.commands.length - 1;
      const piped = last ? undefined : new CollectingSink();
      status = await this.runCommand(command, session, { stdin, stdout: piped ?? streams.stdout, stderr: streams.stderr });
      if (piped) stdin = bufferInput(piped.contents());
    }
    return pipeline.negated ? Number(status === 0) : status;
  }

  private async runCommand(command: Command, session: Session, streams: Streams): Promise<number> {
    session.signal.throwIfAborted();
    let redirected: { streams: Streams; finish(): Promise<void> };
    try {
      redirected = this.redirect(command.redirects, session, streams);
    } catch (error) {
      if (!(error instanceof RedirectError)) throw error;
      await streams.stderr.write(Buffer.from(`${SHELL}: ${error.message}\n`));
      return 1;
    }
    let status: number;
    if (command.kind === 'if') {
      status = 0;
      let taken = false;
      for (const branch of command.branches) {
        if ((await this.runList(branch.condition, session, redirected.streams)) === 0) {
          status = await this.runList(branch.body, session, redirected.streams);
          taken = true;
          break;
        }
      }
      if (!taken) status = command.otherwise ? await this.runList(command.otherwise, session, redirected.streams) : 0;
    } else {
      status = await this.runSimple(command, session, redirected.streams);
    }
    await redirected.finish();
    return status;
  }

  private async runSimple(command: SimpleCommand, session: Session, streams: Streams): Promise<number> {
    const words = command.words.map((word) => expand(word, session));
    const [rawName, ...args] = words;
    if (rawName === undefined) {
      for (const { name, value } of command.assignments) session.env.set(name, expand(value, session));
      return 0;
    }
    switch (rawName) {
      case 'exit': {
        const code = args[0] === undefined ? session.status : Number.parseInt(args[0], 10);
        throw new ExitRequest(Number.isNaN(code) ? 2 : code & 0xff);
      }
      case 'export':
        for (const arg of args) {
          const equals = arg.indexOf('=');
          if (equals > 0) session.env.set(arg.slice(0, equals), arg.slice(equals + 1));
          else if (!session.env.has(arg)) session.env.set(arg, '');
        }
        return 0;
      case 'unset':
        for (const arg of args) session.env.delete(arg);
        return 0;
      case 'cd':
        return 0;
      case 'exec':
        if (args.length === 0) return 0;
        throw new ExitRequest(await this.runTool(args[0] as string, args.slice(1), session, streams));
      case 'sh':
        if (args[0] === '-c' && args[1] !== undefined) return this.runList(parseCommandLine(args[1]), { ...session, env: new Map(session.env) }, streams);
        break;
    }
    // `NAME=value command` exports NAME to that command only.
    const env = command.assignments.length === 0 ? session.env : new Map([...session.env, ...command.assignments.map(({ name, value }): [string, string] => [name, expand(value, session)])]);
    return this.runTool(rawName, args, { ...session, env }, streams);
  }

  private async runTool(rawName: string, args: string[], session: Session, streams: Streams): Promise<number> {
    const name = rawName.replace(/^\/system\/(x?bin)\//, '');
    const handler = this.commands.get(name);
    if (!handler) {
      await streams.stderr.write(Buffer.from(`${SHELL}: ${rawName}: inaccessible or not found\n`));
      return 127;
    }
    const emit = (data: Buffer | string): Promise<void> => streams.stdout.write(typeof data === 'string' ? Buffer.from(data) : data);
    const result = await handler({ args, stdin: streams.stdin, signal: session.signal, env: session.env, emit });
    await streams.stdout.write(result.stdout);
    await streams.stderr.write(result.stderr);
    return result.exitCode;
  }

  /** The streams after `redirects`, left to right; `finish` writes what went to files. */
  private redirect(redirects: Redirect[], session: Session, streams: Streams): { streams: Streams; finish(): Promise<void> } {
    if (redirects.length === 0) return { streams, finish: () => Promise.resolve() };
    let stdin = streams.stdin;
    const outputs: Record<number, OutputSink> = { 1: streams.stdout, 2: streams.stderr };
    const files: Array<{ path: string; sink: CollectingSink }> = [];
    for (const redirect of redirects) {
      const target = expand(redirect.target, session);
      if (redirect.kind === 'in') {
        if (redirect.fd === 0) stdin = this.readInput(target);
      } else if (redirect.kind === 'dup') {
        if (redirect.fd === 0) continue;
        outputs[redirect.fd] = target === '-' ? DISCARD : (outputs[Number(target)] ?? DISCARD);
      } else if (target === '/dev/null') {
        outputs[redirect.fd] = DISCARD;
      } else if (target === '/dev/tty') {
        outputs[redirect.fd] = streams.stdout;
      } else {
        const sink = new CollectingSink();
        this.openForWriting(target, redirect.kind === 'append');
        files.push({ path: target, sink });
        outputs[redirect.fd] = sink;
      }
    }
    return {
      streams: { stdin, stdout: outputs[1] ?? DISCARD, stderr: outputs[2] ?? DISCARD },
      finish: async () => {
        for (const file of files) {
          const previous = this.fs.read(file.path);
          this.fs.write(file.path, Buffer.concat([previous, file.sink.contents()]), 0o666);
        }
      },
    };
  }

  private readInput(path: string): CommandInput {
    if (path === '/dev/null') return EMPTY_INPUT;
    try {
      return bufferInput(this.fs.read(path));
    } catch (error) {
      if (!(error instanceof FsError)) throw error;
      throw new RedirectError(`can't open ${path}: ${error.reason}`);
    }
  }

  /** Creates or truncates the file now, as the shell does before the command runs. */
  private openForWriting(path: string, append: boolean): void {
    try {
      const existing = append && this.fs.stat(path) ? this.fs.read(path) : Buffer.alloc(0);
      this.fs.write(path, existing, 0o666);
    } catch (error) {
      if (!(error instanceof FsError)) throw error;
      const reason = error.code === 'EACCES' ? 'Read-only file system' : error.reason;
      throw new RedirectError(`can't create ${path}: ${reason}`);
    }
  }
}

function expand(word: Word, session: Session): string {
  return word
    .map((part) => {
      if ('literal' in part) return part.literal;
      if (part.variable === '?') return String(session.status);
      if (part.variable === '$') return '1';
      if (part.variable === '#') return '0';
      if (part.variable === '0') return SHELL;
      return session.env.get(part.variable) ?? '';
    })
    .join('');
}
