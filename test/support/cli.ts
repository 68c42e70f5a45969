import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { FAKE_ANTHROPIC_KEY } from '../fakes/index';
import type { AdbHarness } from './adb-harness';
import { TaskEventSchema, type TaskEvent } from '../../src/shared/task';
import { MODEL_PLANS_EVERY_STEP } from './planner-env';

export const amcBin = path.resolve('bin/amc.mjs');

/**
 * A child's whole environment: PATH (to find adb and node) plus what the test gives, never the developer's
 * shell (an OPENAI_API_KEY or AI_PLANNER_ENABLED there would change what the child does).
 */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, ...extra };
}

/** A user whose AI planner talks to Anthropic directly (here: the fake at `baseURL`), on the harness's adb server. */
export function anthropicDirectEnv(harness: Pick<AdbHarness, 'adbPort' | 'env'>, amcHome: string, baseURL: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ANDROID_ADB_SERVER_PORT: String(harness.adbPort),
    HOME: harness.env.HOME,
    AMC_HOME: amcHome,
    AI_PLANNER_ENABLED: 'true',
    AI_PLANNER_TRANSPORT: 'direct',
    AI_PLANNER_PROVIDER: 'anthropic',
    ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: baseURL,
    ...MODEL_PLANS_EVERY_STEP,
    ...extra,
  };
}

/** Keys a developer's shell often holds that change what `amc` does; tests plant them to prove isolation. */
export const DEVELOPER_SHELL_ENV: Readonly<Record<string, string>> = {
  OPENAI_API_KEY: 'sk-developer-shell-key',
  ANTHROPIC_API_KEY: 'sk-ant-developer-shell-key',
  CONTROL_PLANE_TOKEN: 'developer-shell-token',
  AI_PLANNER_ENABLED: 'true',
  AI_PLANNER_PROVIDER: 'openai',
  AI_PLANNER_TRANSPORT: 'direct',
  AI_PLANNER_MAX_STEPS: '7',
  OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
  ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
  ANDROID_SERIAL: 'developer-phone',
  AMC_HOME: '/nonexistent/developer-amc-home',
};

/** Sets DEVELOPER_SHELL_ENV in this process's environment; returns the function that restores it. */
export function plantDeveloperShellEnv(): () => void {
  const saved = Object.fromEntries(Object.keys(DEVELOPER_SHELL_ENV).map((key) => [key, process.env[key]]));
  Object.assign(process.env, DEVELOPER_SHELL_ENV);
  return () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `amc ...` as a user would (a real child process through bin/amc.mjs). */
export function runAmc(args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [amcBin, ...args], { env: childEnv(options.env), cwd: options.cwd });
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
    const child = spawn(command!, [...prefix, ...args], { env: childEnv(options.env), cwd: options.cwd });
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

/** The task events `amc … --json` printed, one JSON line each (other lines, such as a launch's, left out). */
export const jsonEvents = (stdout: string): TaskEvent[] =>
  stdout
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => TaskEventSchema.parse(JSON.parse(line)));
