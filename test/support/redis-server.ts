/** A real redis-server (the Debian package) for one test file: a free port, no persistence, its own folder. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** Stops the server; with `saveFirst` it writes a snapshot that the next start loads (a restart keeps the data). */
  stop(options?: { saveFirst?: boolean }): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  dispose(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Sends one inline command and waits for the connection to close (SHUTDOWN closes it). */
function sendCommand(port: number, command: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(`${command}\r\n`));
    socket.on('data', () => undefined);
    socket.on('close', () => resolve());
    socket.on('error', () => resolve());
  });
}

export async function startTestRedis(): Promise<TestRedis> {
  const dir = await mkdtemp(path.join(tmpdir(), 'amc-redis-'));
  const port = await freePort();
  let child: ChildProcess | null = null;

  const start = async () => {
    // No automatic persistence; the dump file is written only when a test asks for a restart that keeps data.
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const started = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const onData = (data: Buffer) => {
        output += data.toString();
        if (output.includes('Ready to accept connections')) {
          started.stdout!.off('data', onData);
          started.stdout!.resume();
          resolve();
        }
      };
      started.stdout!.on('data', onData);
      started.stderr!.resume();
      started.once('exit', (code) => reject(new Error(`redis-server exited with ${code} before it was ready:\n${output}`)));
      started.once('error', (error) => reject(new Error(`cannot start redis-server (install the Debian package redis-server): ${error.message}`)));
    });
  };

  const stop = async (options: { saveFirst?: boolean } = {}) => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    if (options.saveFirst) await sendCommand(port, 'SHUTDOWN SAVE');
    else running.kill('SIGKILL');
    await exited;
    child = null;
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async dispose() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
