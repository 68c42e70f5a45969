// The demo phone in a process of its own (`amc virtual-device`) with its own adb server, so a benchmark can tell
// the host's CPU from the phone's: on a real setup the phone's work (rendering, encoding) is not the computer's.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { LatencyProfileName } from '@amc/demo-phone';

const run = promisify(execFile);
const AMC = fileURLToPath(new URL('../bin/amc.mjs', import.meta.url));
const READY = /adb connect (\S+) \| control API (\S+)/;

export interface DemoPhoneProcess {
  serial: string;
  controlUrl: string;
  /** The environment of this phone's adb server (HOME, ANDROID_ADB_SERVER_PORT). */
  env: NodeJS.ProcessEnv;
  pid: number;
  /** POST a JSON body to the phone's control API. */
  control(route: string, body: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

export async function startDemoPhoneProcess(profile: LatencyProfileName): Promise<DemoPhoneProcess> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'amc-bench-phone-'));
  const child = spawn(process.execPath, [AMC, 'virtual-device', '--port', '0', '--control-port', '0', '--profile', profile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const cleanUp = async () => {
    child.kill('SIGTERM');
    await rm(home, { recursive: true, force: true });
  };
  try {
    const [, serial, controlUrl] = await readyLine(child);
    const env = { PATH: process.env.PATH, HOME: home, TMPDIR: home, ANDROID_ADB_SERVER_PORT: String(await freePort()) };
    await run('adb', ['start-server'], { env });
    await run('adb', ['connect', serial!], { env });
    await run('adb', ['-s', serial!, 'wait-for-device'], { env, timeout: 15_000 });
    return {
      serial: serial!,
      controlUrl: controlUrl!,
      env,
      pid: child.pid!,
      async control(route, body) {
        const response = await fetch(`${controlUrl}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
        return response.json();
      },
      async stop() {
        await run('adb', ['kill-server'], { env }).catch(() => undefined);
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/** Moves `phone` from its own adb server to the one of `env` (several phones on one host's server). */
export async function moveToAdbServer(phone: DemoPhoneProcess, env: NodeJS.ProcessEnv): Promise<void> {
  await run('adb', ['disconnect', phone.serial], { env: phone.env });
  await run('adb', ['connect', phone.serial], { env });
  await run('adb', ['-s', phone.serial, 'wait-for-device'], { env, timeout: 15_000 });
}

function readyLine(child: ChildProcess): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const ready = READY.exec(output);
      if (ready) resolve(ready);
    });
    child.once('exit', (code) => reject(new Error(`the demo phone process exited (${code}) before it was ready: ${output}`)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** CPU seconds (user + system) used so far by `pid` and every process under it, from /proc (Linux). */
export async function processTreeCpuSeconds(pid: number, except: ReadonlySet<number> = new Set()): Promise<number> {
  const children = new Map<number, number[]>();
  const cpu = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => null);
    if (!stat) continue;
    // After the command name in parentheses: state, ppid, ... utime (14th field) and stime (15th).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const parent = Number(fields[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    cpu.set(Number(entry), (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND);
  }
  let total = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (except.has(next)) continue;
    total += cpu.get(next) ?? 0;
    pending.push(...(children.get(next) ?? []));
  }
  return total;
}

/** Linux's USER_HZ: /proc reports CPU time in these. */
const CLOCK_TICKS_PER_SECOND = 100;
