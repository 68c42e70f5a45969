import { spawn } from 'node:child_process';
import { childEnv } from './cli';

/** A command running on a pseudo-terminal (util-linux `script`), as a person at a terminal runs it. */
export interface PtySession {
  /** Everything the terminal showed so far (carriage returns removed). */
  output(): string;
  /** Types text (add "\r" for Enter). */
  type(text: string): void;
  /** Resolves once the output matches, after `from` characters (so earlier matches do not count). */
  waitFor(pattern: RegExp, options?: { from?: number; timeoutMs?: number }): Promise<string>;
  /** The command's exit code (script -e passes it through) and its whole output. */
  done: Promise<{ code: number | null; output: string }>;
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Runs `argv` inside `script`, so its stdin and stdout are a terminal; the environment is only `env` (and PATH). */
export function startInPty(argv: string[], env: NodeJS.ProcessEnv, options: { timeoutMs?: number } = {}): PtySession {
  const child = spawn('script', ['--quiet', '--return', '--command', argv.map(quote).join(' '), '/dev/null'], {
    env: childEnv({ TERM: 'dumb', ...env }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let text = '';
  const waiters = new Set<() => void>();
  const append = (chunk: Buffer) => {
    text += chunk.toString('utf8').replace(/\r/g, '');
    for (const check of waiters) check();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 90_000);
  const done = new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      for (const check of waiters) check();
      resolve({ code, output: text });
    });
  });
  let exited = false;
  void done.finally(() => (exited = true));
  return {
    output: () => text,
    type: (typed) => child.stdin.write(typed),
    done,
    waitFor: (pattern, { from = 0, timeoutMs = 60_000 } = {}) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(text.slice(from));
          if (match) {
            finish();
            resolve(match[0]);
          } else if (exited) {
            finish();
            reject(new Error(`the command ended before ${pattern} appeared; it showed:\n${text}`));
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`${pattern} did not appear within ${timeoutMs} ms; the terminal showed:\n${text}`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
  };
}
