import { FsError, type VirtualFileSystem } from '../file-system';
import { parseCommandLine, ShellSyntaxError, type Redirect, type SimpleCommand } from './parse';

export interface CommandIo {
  /** Arguments after the command name. */
  args: string[];
  stdin: Buffer;
  signal: AbortSignal;
}

export interface CommandOutput {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
}

export type CommandHandler = (io: CommandIo) => Promise<CommandOutput> | CommandOutput;

const SHELL = '/system/bin/sh';

export function output(stdout: string | Buffer = '', stderr: string | Buffer = '', exitCode = 0): CommandOutput {
  return {
    stdout: typeof stdout === 'string' ? Buffer.from(stdout) : stdout,
    stderr: typeof stderr === 'string' ? Buffer.from(stderr) : stderr,
    exitCode,
  };
}

export const failure = (stderr: string, exitCode = 1): CommandOutput => output('', stderr, exitCode);

/** Thrown by the `exit` builtin to stop the whole command line. */
class ExitRequest {
  constructor(readonly code: number) {}
}

/** Runs command lines against a table of commands, the way `sh -c` would on the phone. */
export class ShellInterpreter {
  constructor(
    private readonly commands: ReadonlyMap<string, CommandHandler>,
    private readonly fs: VirtualFileSystem,
  ) {}

  async run(commandLine: string, signal: AbortSignal): Promise<CommandOutput> {
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let status = 0;
    try {
      const items = parseCommandLine(commandLine);
      for (const item of items) {
        if (item.connector === '&&' && status !== 0) continue;
        if (item.connector === '||' && status === 0) continue;
        let stdin: Buffer = Buffer.alloc(0);
        const commands = item.pipeline.commands;
        for (const [index, command] of commands.entries()) {
          const result = await this.runSimple(command, stdin, signal);
          const last = index === commands.length - 1;
          stderr.push(result.stderr);
          if (last) stdout.push(result.stdout);
          else stdin = result.stdout;
          status = result.exitCode;
        }
      }
    } catch (error) {
      if (error instanceof ExitRequest) {
        status = error.code;
      } else if (error instanceof ShellSyntaxError) {
        stderr.push(Buffer.from(`${SHELL}: ${error.message}\n`));
        status = 2;
      } else {
        throw error;
      }
    }
    return { stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr), exitCode: status };
  }

  private async runSimple(command: SimpleCommand, stdin: Buffer, signal: AbortSignal): Promise<CommandOutput> {
    signal.throwIfAborted();
    const [rawName, ...args] = command.words;
    let result: CommandOutput;
    if (rawName === undefined) {
      result = output();
    } else if (rawName === 'exit') {
      const code = args[0] === undefined ? 0 : Number.parseInt(args[0], 10);
      throw new ExitRequest(Number.isNaN(code) ? 2 : code & 0xff);
    } else if (rawName === 'sh' && args[0] === '-c' && args[1] !== undefined) {
      result = await this.run(args[1], signal);
    } else {
      const name = rawName.replace(/^\/system\/(x?bin)\//, '');
      const handler = this.commands.get(name);
      result = handler
        ? await handler({ args, stdin, signal })
        : failure(`${SHELL}: ${rawName}: inaccessible or not found\n`, 127);
    }
    return this.applyRedirects(result, command.redirects);
  }

  private applyRedirects(result: CommandOutput, redirects: Redirect[]): CommandOutput {
    let { stdout, stderr } = result;
    for (const redirect of redirects) {
      const data = redirect.fd === 1 ? stdout : stderr;
      let kept: Buffer = Buffer.alloc(0);
      if (redirect.kind === 'dup') {
        // `2>&1` merges stderr into stdout (and `1>&2` the other way); order inside is not preserved.
        if (redirect.fd === 2 && redirect.target === '1') stdout = Buffer.concat([stdout, data]);
        else if (redirect.fd === 1 && redirect.target === '2') stderr = Buffer.concat([stderr, data]);
        else kept = data;
      } else if (redirect.target === '/dev/tty') {
        kept = data;
      } else if (redirect.target !== '/dev/null') {
        const written = this.writeFile(redirect, data);
        if (written) return { stdout: Buffer.alloc(0), stderr: written, exitCode: 1 };
      }
      if (redirect.fd === 1) stdout = kept;
      else stderr = kept;
    }
    return { stdout, stderr, exitCode: result.exitCode };
  }

  /** Returns an error message when the file cannot be written. */
  private writeFile(redirect: Redirect, data: Buffer): Buffer | undefined {
    try {
      const previous = redirect.kind === 'append' && this.fs.stat(redirect.target) ? this.fs.read(redirect.target) : undefined;
      this.fs.write(redirect.target, previous ? Buffer.concat([previous, data]) : data, 0o666);
      return undefined;
    } catch (error) {
      if (!(error instanceof FsError)) throw error;
      const reason = error.code === 'EACCES' ? 'Read-only file system' : error.reason;
      return Buffer.from(`${SHELL}: can't create ${redirect.target}: ${reason}\n`);
    }
  }
}
