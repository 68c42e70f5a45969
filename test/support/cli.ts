import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const amcBin = path.resolve('bin/amc.mjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `amc ...` as a user would (a real child process through bin/amc.mjs). */
export function runAmc(args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [amcBin, ...args], { env: { ...process.env, ...options.env }, cwd: options.cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts a long-running `amc ...` and resolves once a stdout line matches `ready`. */
export function startAmc(
  args: string[],
  ready: RegExp,
  options: { env?: NodeJS.ProcessEnv; cwd?: string; command?: string[] } = {},
): Promise<{ child: ChildProcess; match: RegExpMatchArray; output: () => string }> {
  return new Promise((resolve, reject) => {
    const [command, ...prefix] = options.command ?? [process.execPath, amcBin];
    const child = spawn(command!, [...prefix, ...args], { env: { ...process.env, ...options.env }, cwd: options.cwd });
    let output = '';
    const onData = (data: Buffer) => {
      output += data.toString();
      const match = output.match(ready);
      if (match) resolve({ child, match, output: () => output });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`exited with ${code} before becoming ready:\n${output}`)));
  });
}

/** Sends SIGINT and waits for the process to exit; returns its exit code. */
export function interrupt(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill('SIGINT');
  });
}
