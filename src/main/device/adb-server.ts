import { execFile } from 'node:child_process';
import net from 'node:net';
import { AdbError } from './errors';

export const DEFAULT_ADB_PORT = 5037;

export interface AdbServerOptions {
  /** Host of the adb server; default 127.0.0.1. A non-loopback host means a remote server we never start. */
  host?: string;
  /** Default: ANDROID_ADB_SERVER_PORT, else 5037. */
  port?: number;
  /** The adb binary used to start a local server and for `adb pair`; default `adb` on PATH. */
  adbPath?: string;
  /** Environment to read ANDROID_ADB_SERVER_PORT from and to run the adb binary with; default process.env. */
  env?: NodeJS.ProcessEnv;
}

export interface AdbServerAddress {
  host: string;
  port: number;
  /** True for loopback hosts: only then do we start a server ourselves. */
  local: boolean;
  adbPath: string;
  /** Environment the adb binary runs with (start-server, pair). */
  env: NodeJS.ProcessEnv;
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '::1']);

export function resolveAdbServer(options: AdbServerOptions = {}): AdbServerAddress {
  const env = options.env ?? process.env;
  const host = options.host ?? '127.0.0.1';
  let port = options.port;
  if (port === undefined && env.ANDROID_ADB_SERVER_PORT) {
    port = Number(env.ANDROID_ADB_SERVER_PORT);
    if (!Number.isInteger(port) || port <= 0 || port > 65535) {
      throw new AdbError(
        `ANDROID_ADB_SERVER_PORT must be a TCP port (1-65535), got "${env.ANDROID_ADB_SERVER_PORT}"`,
        'server-unreachable',
      );
    }
  }
  return { host, port: port ?? DEFAULT_ADB_PORT, local: loopbackHosts.has(host), adbPath: options.adbPath ?? 'adb', env };
}

function probe(host: string, port: number, timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Runs the adb binary; resolves with stdout+stderr, or rejects with the spawn/exit error (output attached). */
export function runAdbBinary(
  server: Pick<AdbServerAddress, 'adbPath' | 'env'>,
  args: string[],
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      server.adbPath,
      args,
      { signal: options.signal, timeout: options.timeoutMs ?? 30_000, encoding: 'utf8', env: server.env },
      (error, stdout, stderr) => {
        if (error) reject(Object.assign(error, { stdout, stderr }));
        else resolve({ stdout, stderr });
      },
    );
  });
}

export function adbMissingError(adbPath: string, cause?: unknown): AdbError {
  return new AdbError(
    `The adb program was not found ("${adbPath}"). Install Android platform-tools ` +
      '(Debian/Ubuntu: `sudo apt install adb`, macOS: `brew install android-platform-tools`, Windows: ' +
      'https://developer.android.com/tools/releases/platform-tools) or point --adb-path at it.',
    'adb-missing',
    { cause },
  );
}

export function serverUnreachableError(address: AdbServerAddress, cause?: unknown): AdbError {
  const where = `${address.host}:${address.port}`;
  const fix = address.local
    ? `Start it with \`adb -P ${address.port} start-server\`.`
    : `Check that the other machine runs \`adb -a -P ${address.port} nodaemon server\` and that this machine can reach it.`;
  return new AdbError(`No adb server answers at ${where}. ${fix}`, 'server-unreachable', { cause });
}

/**
 * Makes sure an adb server answers at the address: a local one is started with the adb binary when none
 * runs; a remote one must already run. Throws an actionable AdbError otherwise.
 */
export async function ensureAdbServer(address: AdbServerAddress): Promise<void> {
  if (await probe(address.host, address.port)) return;
  if (!address.local) throw serverUnreachableError(address);
  try {
    await runAdbBinary(address, ['-P', String(address.port), 'start-server']);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw adbMissingError(address.adbPath, error);
    throw serverUnreachableError(address, error);
  }
  if (!(await probe(address.host, address.port))) throw serverUnreachableError(address);
}
