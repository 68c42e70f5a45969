import { execFile } from 'node:child_process';
import net from 'node:net';
import { say } from '../../shared/said';
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

/** What answers at an address: an adb server, nothing, or something else (with what it said, if anything). */
type ProbeResult = { kind: 'adb' } | { kind: 'nothing' } | { kind: 'other'; answer: string };

/**
 * Asks for the server's version (`host:version`): an adb server answers OKAY at once. A bare TCP check would
 * also accept a web server or a phone's own adbd port and leave every later call failing cryptically or hanging.
 */
function probe(host: string, port: number, timeoutMs = 3000): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let connected = false;
    let received = Buffer.alloc(0);
    const done = (result: ProbeResult) => {
      socket.destroy();
      resolve(result);
    };
    const other = () => ({ kind: 'other' as const, answer: received.toString('latin1').replace(/[^\x20-\x7e]+/g, ' ').trim().slice(0, 40) });
    socket.setTimeout(timeoutMs, () => done(connected ? other() : { kind: 'nothing' }));
    socket.once('connect', () => {
      connected = true;
      socket.write('000chost:version');
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 4) done(received.subarray(0, 4).toString('latin1') === 'OKAY' ? { kind: 'adb' } : other());
    });
    socket.once('end', () => done(connected ? other() : { kind: 'nothing' }));
    socket.once('error', () => done(connected ? other() : { kind: 'nothing' }));
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
  return new AdbError(say('adb.missing', { adbPath }), 'adb-missing', { cause });
}

export function serverUnreachableError(address: AdbServerAddress, cause?: unknown): AdbError {
  const values = { where: `${address.host}:${address.port}`, port: address.port };
  return new AdbError(say(address.local ? 'adb.noLocalServer' : 'adb.noRemoteServer', values), 'server-unreachable', { cause });
}

export function notAnAdbServerError(address: AdbServerAddress, answer: string): AdbError {
  const where = `${address.host}:${address.port}`;
  return new AdbError(answer ? say('adb.notAServerAnswered', { where, answer }) : say('adb.notAServerSilent', { where }), 'server-unreachable');
}

/**
 * Makes sure an adb server answers at the address: a local one is started with the adb binary when none
 * runs; a remote one must already run. Throws an actionable AdbError otherwise.
 */
export async function ensureAdbServer(address: AdbServerAddress): Promise<void> {
  const found = await probe(address.host, address.port);
  if (found.kind === 'adb') return;
  if (found.kind === 'other') throw notAnAdbServerError(address, found.answer);
  if (!address.local) throw serverUnreachableError(address);
  try {
    await runAdbBinary(address, ['-P', String(address.port), 'start-server']);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw adbMissingError(address.adbPath, error);
    throw serverUnreachableError(address, error);
  }
  const started = await probe(address.host, address.port);
  if (started.kind === 'other') throw notAnAdbServerError(address, started.answer);
  if (started.kind === 'nothing') throw serverUnreachableError(address);
}
