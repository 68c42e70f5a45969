// `amc worker` as the fleet tests start it: a child process that has joined the fleet once it says what it offers.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { amcBin } from './cli';

export interface AmcWorker {
  readonly child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
}

/** Starts `amc worker ARGS…` and waits (at most 30 s) until it has joined the fleet. */
export async function startAmcWorker(args: string[], env: NodeJS.ProcessEnv): Promise<AmcWorker> {
  const child = spawn(process.execPath, [amcBin, 'worker', ...args], { env });
  let output = '';
  child.stdout.on('data', (data) => (output += data));
  child.stderr.on('data', (data) => (output += data));
  // Polled by hand: expect.poll belongs to a test, and this also runs in beforeAll.
  // Its line saying what it offers ends with how to stop it, in any language.
  for (const deadline = Date.now() + 30_000; !/Ctrl-C/.test(output); ) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the worker did not join the fleet: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, output: () => output };
}

/** Stops the worker (SIGTERM: it leaves the fleet; SIGKILL: it vanishes) and waits for it to exit. */
export async function stopAmcWorker(worker: AmcWorker | null | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!worker || worker.child.exitCode !== null) return;
  const exited = new Promise((resolve) => worker.child.once('exit', resolve));
  worker.child.kill(signal);
  await exited;
}

/** A file of `text` in `dir`, for a test that hands a flow file to a command; its path. */
export async function writeFileIn(dir: string, name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}
