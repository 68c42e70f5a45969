import type { Duplex } from 'node:stream';
import { adbkit, type AdbkitClient, type AdbkitDevice, type AdbkitDeviceClient } from './adbkit';
import {
  adbMissingError,
  ensureAdbServer,
  resolveAdbServer,
  runAdbBinary,
  serverUnreachableError,
  type AdbServerAddress,
  type AdbServerOptions,
} from './adb-server';
import { readInto } from './read-into';
import { syncPushStream, type PushSource } from './sync-chunks';
import { AbortError, AdbError, throwIfAborted } from './errors';
import { say } from '../../shared/said';

/** Options every adb call accepts. */
export interface AdbCallOptions {
  /** Aborting closes the call's adb connection(s) at once and rejects with AbortError. */
  signal?: AbortSignal;
  /** Fails the call with an AdbError of kind `timeout` after this long. */
  timeoutMs?: number;
}

export interface AdbDeviceEntry {
  serial: string;
  /** The raw adb state string, e.g. `device`, `offline`, `unauthorized`. */
  state: string;
}

export type AdbDeviceTracker = Awaited<ReturnType<AdbkitClient['trackDevices']>>;

/**
 * Markers appended to commands run through `exec`: the legacy shell service adbkit uses loses exit codes and
 * ends a dropped stream like a finished one, so the command's own end is marked (`&&`/`||` work in every sh).
 */
const SUCCESS_MARKER = '__amc_ok__';
const FAILURE_MARKER = '__amc_failed__';
const markerPattern = /__amc_(ok|failed)__\r?\n?/g;

/**
 * The one adb client of the process: adbkit over one adb server (local or remote). Every operation names
 * its device serial and accepts an AbortSignal; adbkit's Bluebird promises never leak out.
 */
export class AdbClient {
  private constructor(
    private readonly client: AdbkitClient,
    readonly server: AdbServerAddress,
  ) {}

  /** Resolves the server address (options, ANDROID_ADB_SERVER_PORT, 127.0.0.1:5037) and makes sure it answers. */
  static async create(options: AdbServerOptions = {}): Promise<AdbClient> {
    const server = resolveAdbServer(options);
    await ensureAdbServer(server);
    return new AdbClient(adbkit.Adb.createClient({ host: server.host, port: server.port, bin: server.adbPath }), server);
  }

  get address(): string {
    return `${this.server.host}:${this.server.port}`;
  }

  /** Runs a shell command and returns its output (stdout and stderr merged) as text. */
  async shell(serial: string, command: string, options: AdbCallOptions = {}): Promise<string> {
    return (await this.shellBytes(serial, command, options)).toString('utf8');
  }

  /** Runs a shell command and returns its raw output bytes (e.g. `screencap -p`). */
  shellBytes(serial: string, command: string, options: AdbCallOptions = {}): Promise<Buffer> {
    return this.runShell(serial, command, command, options);
  }

  /**
   * Runs a command through `exec:` (raw bytes, no pty) and receives its output into `into`, returning the written
   * part of it (a new buffer only when the output did not fit). Reusing one buffer for a ~10 MB raw screencap spares
   * allocating, copying and collecting 10 MB on every call, which costs more host CPU than encoding the image.
   */
  execInto(serial: string, command: string, into: Buffer, options: AdbCallOptions = {}): Promise<Buffer> {
    return this.withConnections(`\`${command}\``, serial, options, (_client, signal) => readInto(this.server, serial, `exec:${command}`, into, signal));
  }

  /**
   * `shellBytes` received into `into` like `execInto` (a new buffer only when the output did not fit; `Buffer.alloc(0)`
   * for small outputs), on a connection of its own instead of adbkit's: half the host CPU per call, which the
   * Observer's every-turn commands (dump, screen facts, `screencap -p`) add up to. Unlike adbkit, it does not start
   * an adb server that is not running.
   */
  shellInto(serial: string, command: string, into: Buffer, options: AdbCallOptions = {}): Promise<Buffer> {
    return this.withConnections(`\`${command}\``, serial, options, (_client, signal) => readInto(this.server, serial, `shell:${command}`, into, signal));
  }

  /** `label` is the command as errors name it (without the markers `exec` adds). */
  private runShell(serial: string, command: string, label: string, options: AdbCallOptions): Promise<Buffer> {
    return this.withConnections(`\`${label}\``, serial, options, async (client, signal) => {
      const stream = await this.device(client, serial).shell(command);
      return readAll(stream, signal);
    });
  }

  /**
   * Runs a shell command and reports whether it succeeded (exit status 0). Because the command's end is
   * marked, a connection that drops mid-command is told apart from a command that printed nothing.
   */
  async exec(serial: string, command: string, options: AdbCallOptions = {}): Promise<{ output: string; succeeded: boolean }> {
    const marked = `${command} && echo ${SUCCESS_MARKER} || echo ${FAILURE_MARKER}`;
    const raw = (await this.runShell(serial, marked, command, options)).toString('utf8');
    const markers = [...raw.matchAll(markerPattern)];
    const last = markers.at(-1);
    if (!last) {
      throw new AdbError(
        `The connection to ${serial} dropped while it was running \`${command}\`; it may or may not have taken ` +
          'effect. Check that the phone is still connected and listed as ready (the device list, or `amc devices`).',
        'connection-dropped',
      );
    }
    return { output: raw.replace(markerPattern, ''), succeeded: last[1] === 'ok' };
  }

  /**
   * Writes `source` (bytes, or a stream such as a file's) to `devicePath` on the phone (sync push), with `mode` as
   * its permissions, in DATA messages adbd accepts whatever the size.
   */
  push(serial: string, source: PushSource, devicePath: string, options: AdbCallOptions & { mode?: number } = {}): Promise<void> {
    return this.withConnections(`push ${devicePath}`, serial, options, async (client) => {
      const transfer = await this.device(client, serial).push(syncPushStream(source), devicePath, options.mode ?? 0o644);
      await new Promise<void>((resolve, reject) => {
        transfer.once('end', () => resolve());
        transfer.once('error', reject);
      });
    });
  }

  /**
   * Opens a stream that outlives the call: a long-running shell command (`shell:`) or a socket on the phone
   * (`localabstract:NAME`, `tcp:PORT`). The caller owns it and destroys it to close.
   */
  async openStream(serial: string, target: { shell: string } | { socket: string }): Promise<Duplex> {
    const label = 'shell' in target ? `\`${target.shell}\`` : target.socket;
    try {
      const device = this.device(this.client, serial);
      return await ('shell' in target ? device.shell(target.shell) : device.openLocal(target.socket));
    } catch (error) {
      throw this.translate(error, label, serial);
    }
  }

  listDevices(options: AdbCallOptions = {}): Promise<AdbDeviceEntry[]> {
    return this.withConnections('list devices', undefined, options, async (client) => {
      const devices = await client.listDevices();
      return devices.map((d: AdbkitDevice) => ({ serial: d.id, state: d.type }));
    });
  }

  /** Opens adb's device tracking stream. The caller must `end()` the tracker. */
  async trackDevices(): Promise<AdbDeviceTracker> {
    try {
      return await this.client.trackDevices();
    } catch (error) {
      throw this.translate(error, 'track devices', undefined);
    }
  }

  /** `adb connect HOST:PORT`; resolves with the serial the device gets (`HOST:PORT`). */
  connectDevice(target: string, options: AdbCallOptions = {}): Promise<string> {
    const { host, port } = parseHostPort(target);
    return this.withConnections(`connect ${target}`, undefined, options, async (client) => {
      try {
        return await client.connect(host, port);
      } catch (error) {
        if (isFailure(error) || (error instanceof Error && !('code' in error))) {
          throw new AdbError(say('adb.connectFailed', { address: `${host}:${port}`, adbText: failureText(error) }), 'command-failed', { cause: error });
        }
        throw error;
      }
    });
  }

  /** `adb disconnect HOST:PORT`. */
  disconnectDevice(target: string, options: AdbCallOptions = {}): Promise<void> {
    const { host, port } = parseHostPort(target);
    return this.withConnections(`disconnect ${target}`, undefined, options, async (client) => {
      try {
        await client.disconnect(host, port);
      } catch (error) {
        if (isFailure(error)) {
          throw new AdbError(say('adb.disconnectFailed', { address: `${host}:${port}`, adbText: failureText(error) }), 'command-failed', { cause: error });
        }
        throw error;
      }
    });
  }

  /**
   * Wireless pairing (`adb pair HOST:PORT CODE`) through the adb binary, which adbkit lacks. Only works
   * against the local server the binary talks to.
   */
  async pair(target: string, code: string, options: AdbCallOptions = {}): Promise<string> {
    const { host, port } = parseHostPort(target);
    if (!/^\d{6}$/.test(code)) {
      throw new AdbError(say('adb.pairingCode'), 'command-failed');
    }
    const args = ['-H', this.server.host, '-P', String(this.server.port), 'pair', `${host}:${port}`, code];
    let output: string;
    try {
      const { stdout, stderr } = await runAdbBinary(this.server, args, {
        signal: options.signal,
        timeoutMs: options.timeoutMs ?? 30_000,
      });
      output = `${stdout}${stderr}`.trim();
    } catch (error) {
      if (options.signal?.aborted) throw new AbortError();
      const failure = error as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
      if (failure.code === 'ENOENT') throw adbMissingError(this.server.adbPath, error);
      output = `${failure.stdout ?? ''}${failure.stderr ?? ''}`.trim();
      if (/unknown command pair/i.test(output)) {
        const version = await adbVersion(this.server);
        throw new AdbError(say('adb.pairingNeedsNewerAdb', { version }), 'unsupported', { cause: error });
      }
    }
    if (!/successfully paired/i.test(output)) {
      const address = `${host}:${port}`;
      throw new AdbError(output ? say('adb.pairingFailed', { address, adbText: output }) : say('adb.pairingNoAnswer', { address }), 'command-failed');
    }
    return output;
  }

  private device(client: AdbkitClient, serial: string): AdbkitDeviceClient {
    return new adbkit.DeviceClient(client, serial);
  }

  /**
   * Runs `work` against a view of the adbkit client that records every adb connection it opens, so that an
   * abort or timeout can destroy them (adbkit itself has no cancellation that closes sockets).
   */
  private async withConnections<T>(
    label: string,
    serial: string | undefined,
    options: AdbCallOptions,
    work: (client: AdbkitClient, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    throwIfAborted(options.signal);
    const timeout = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
    const signals = [options.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length === 1 ? signals[0]! : AbortSignal.any(signals);

    const sockets = new Set<{ destroy(): void }>();
    const closeAll = () => sockets.forEach((socket) => socket.destroy());
    const tracking: AdbkitClient = Object.create(this.client);
    tracking.connection = () =>
      this.client.connection().then((connection: { getSocket(): { destroy(): void } }) => {
        const socket = connection.getSocket();
        sockets.add(socket);
        if (signal.aborted) socket.destroy();
        return connection;
      });

    let onAbort: () => void = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        closeAll();
        reject(
          options.signal?.aborted
            ? new AbortError()
            : new AdbError(
                `${label}${serial ? ` on ${serial}` : ''} did not finish within ${((options.timeoutMs ?? 0) / 1000).toFixed(1)} s`,
                'timeout',
              ),
        );
      };
    });
    aborted.catch(() => {});
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await Promise.race([Promise.resolve(work(tracking, signal)), aborted]);
    } catch (error) {
      if (signal.aborted) return aborted;
      throw this.translate(error, label, serial);
    } finally {
      signal.removeEventListener('abort', onAbort);
      closeAll();
    }
  }

  /** Turns adbkit/socket failures into AdbErrors with a message a person can act on. */
  private translate(error: unknown, label: string, serial: string | undefined): Error {
    if (error instanceof AdbError || error instanceof AbortError) return error;
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT' || code === 'ENOTFOUND') {
      return serverUnreachableError(this.server, error);
    }
    if (code === 'ENOENT' && this.server.local) return adbMissingError(this.server.adbPath, error);
    const text = failureText(error);
    const device = serial ?? 'the device';
    if (/device '.*' not found|device not found/i.test(text)) {
      return new AdbError(say('adb.notConnected', { device, address: this.address }), 'device-not-found', { cause: error });
    }
    if (/unauthorized/i.test(text)) return new AdbError(say('adb.notAuthorised', { device }), 'device-unauthorized', { cause: error });
    if (/offline|still authorizing|still connecting/i.test(text)) {
      return new AdbError(say('adb.notAnswering', { device, state: text.replace(/^device /, '') }), 'device-offline', { cause: error });
    }
    if (code === 'ECONNRESET' || code === 'EPIPE' || /premature end|closed/i.test(text)) {
      return new AdbError(say('adb.connectionDropped', { device, operation: label }), 'connection-dropped', { cause: error });
    }
    return new AdbError(`${label}${serial ? ` on ${serial}` : ''} failed: ${text}`, 'command-failed', { cause: error });
  }
}

/** Collects a stream to its end; rejects on stream errors. Aborts are handled by the caller destroying it. */
function readAll(stream: Duplex, signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onAbort = () => stream.destroy();
    signal.addEventListener('abort', onAbort, { once: true });
    const finish = (error?: Error) => {
      signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks));
    };
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => finish());
    stream.once('error', (error) => finish(error));
    stream.once('close', () => finish());
  });
}

function isFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'FailError';
}

/** adbkit wraps server failures as `Failure: 'text'`; return the inner text. */
function failureText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return /^Failure: '([\s\S]*)'$/.exec(message)?.[1]?.trim() ?? message;
}

/** Parses `HOST:PORT` (IPv6 in brackets allowed); the port defaults to 5555 as in `adb connect`. */
export function parseHostPort(target: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:\s]+)(?::(\d{1,5}))?$/.exec(target.trim());
  const port = match?.[2] === undefined ? 5555 : Number(match[2]);
  if (!match || port < 1 || port > 65535) {
    throw new AdbError(`"${target}" is not an address; use HOST:PORT, e.g. 192.168.1.20:5555.`, 'command-failed');
  }
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

async function adbVersion(server: AdbServerAddress): Promise<string> {
  try {
    const { stdout } = await runAdbBinary(server, ['version'], { timeoutMs: 5000 });
    return /Version (\S+)/.exec(stdout)?.[1] ?? 'older';
  } catch {
    return 'older';
  }
}
