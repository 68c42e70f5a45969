// An isolated real-adb setup for one test file: its own adb server (own port, HOME and log) connected to its
// own virtual device. Test files run in parallel, each with its own harness.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { callControlApi, type PhoneSeed, type PhoneState, startVirtualDevice, type VirtualDevice, type VirtualDeviceOptions } from '@amc/demo-phone';

export interface AdbResult {
  stdout: string;
  stderr: string;
  /** Exit code; -1 when the process was killed by the timeout. */
  code: number;
  timedOut: boolean;
}

export interface AdbRawResult extends Omit<AdbResult, 'stdout' | 'stderr'> {
  stdout: Buffer;
  stderr: Buffer;
}

export interface AdbRunOptions {
  /** Kill adb after this long (default 20 s). */
  timeoutMs?: number;
  /** Bytes for adb's stdin (closed right away when absent). */
  input?: string | Buffer;
}

export interface ControlInit {
  /** Defaults to POST when there is a body, GET otherwise. */
  method?: string;
  /** Sent as JSON. */
  body?: unknown;
}

export interface AdbHarness {
  /** `adb -P <adbPort> ...args` with the harness environment (no `-s`: the server knows only this device). */
  adb(args: string[], options?: AdbRunOptions): Promise<AdbResult>;
  /** Like `adb` but with stdout/stderr as bytes (for `exec-out screencap -p`). */
  adbRaw(args: string[], options?: AdbRunOptions): Promise<AdbRawResult>;
  /** `adb -s <serial> shell <command>`. */
  shell(command: string, options?: AdbRunOptions): Promise<AdbResult>;
  /** `adb connect <serial>` and wait until the device is in `device` state. */
  connect(): Promise<AdbResult>;
  /** Polls `adb get-state` until it prints `state`. */
  waitForState(state?: 'device' | 'offline', timeoutMs?: number): Promise<void>;
  /** Resolves once a command has run into the armed `hang` fault: the fault is used up and a stream is open. */
  waitForHang(timeoutMs?: number): Promise<void>;
  /** JSON request to the device's control API; `path` starts with `/`. */
  control<T = unknown>(path: string, init?: ControlInit): Promise<{ status: number; body: T }>;
  /** The phone's state (`GET /state`), typed. */
  state(): Promise<PhoneState>;
  /** Restores the phone to `seed` (`POST /reset`) and returns its state. */
  reset(seed?: PhoneSeed): Promise<PhoneState>;
  /** `127.0.0.1:<devicePort>`: the address given to `adb connect` and the serial adb lists. */
  readonly serial: string;
  /** Port of this harness's adb server (for adbkit: `Adb.createClient({ port: adbPort })`). */
  readonly adbPort: number;
  /** Environment the harness runs adb with (HOME, ANDROID_ADB_SERVER_PORT, ANDROID_ADB_LOG_PATH, TMPDIR). */
  readonly env: NodeJS.ProcessEnv;
  /** The harness's temporary directory (HOME and the adb log live here); removed by stop(). */
  readonly tmpDir: string;
  /** The running virtual device (phone, control URL, adb endpoint stats). */
  readonly device: VirtualDevice;
  /**
   * `adb disconnect`, `adb kill-server`, closes the device (unless it was passed in), removes the temporary
   * directory. Safe to call twice.
   */
  stop(): Promise<void>;
}

export interface AdbHarnessOptions extends Pick<VirtualDeviceOptions, 'profile' | 'seed'> {
  /** Run `adb connect` during start (default true). */
  connect?: boolean;
  /** Use this already running device instead of starting one (stop() then leaves it running). */
  device?: VirtualDevice;
}

const DEFAULT_TIMEOUT_MS = 20_000;

/** Starts a virtual device on a free port (>= 5586, outside the emulator probe range) and an isolated adb server. */
export async function startAdbHarness(options: AdbHarnessOptions = {}): Promise<AdbHarness> {
  const tmpDir = await mkdtemp(path.join(tmpdir(), 'amc-adb-'));
  const ownsDevice = options.device === undefined;
  const device = options.device ?? (await startVirtualDevice({ port: 0, controlPort: 0, profile: options.profile, seed: options.seed }));
  if (device.adbPort < 5586) {
    if (ownsDevice) await device.close();
    throw new Error(`virtual device got port ${device.adbPort}, inside the adb emulator probe range`);
  }
  const adbPort = await pickAdbServerPort();
  // Built from nothing but PATH: the developer's shell (keys, ANDROID_SERIAL, planner switches) stays out.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: tmpDir,
    TMPDIR: tmpDir,
    ANDROID_ADB_SERVER_PORT: String(adbPort),
    ANDROID_ADB_LOG_PATH: path.join(tmpDir, 'adb.log'),
    ADB_EMU: '0',
  };
  const serial = device.adbAddress;

  const adbRaw = (args: string[], runOptions: AdbRunOptions = {}) => runAdb(['-P', String(adbPort), ...args], env, runOptions);
  const adb = async (args: string[], runOptions?: AdbRunOptions): Promise<AdbResult> => {
    const result = await adbRaw(args, runOptions);
    return { ...result, stdout: result.stdout.toString('utf8'), stderr: result.stderr.toString('utf8') };
  };
  const waitForState = async (state: 'device' | 'offline' = 'device', timeoutMs = 15_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      const result = await adb(['-s', serial, 'get-state'], { timeoutMs: 5_000 });
      last = (result.stdout.trim() || result.stderr.trim()).split('\n').pop() ?? '';
      if (result.stdout.trim() === state) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${serial} did not reach state "${state}" within ${timeoutMs} ms (last: ${last})`);
  };
  const control = async <T>(requestPath: string, init: ControlInit = {}) => {
    const hasBody = init.body !== undefined;
    const response = await fetch(`${device.controlUrl}${requestPath}`, {
      method: init.method ?? (hasBody ? 'POST' : 'GET'),
      headers: hasBody ? { 'content-type': 'application/json' } : undefined,
      body: hasBody ? JSON.stringify(init.body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
  };
  const waitForHang = async (timeoutMs = 15_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { body } = await control<{ faults: Array<{ kind: string }> }>('/faults');
      if (!body.faults.some((f) => f.kind === 'hang') && device.adb.stats().streams > 0) return;
      if (Date.now() > deadline) throw new Error(`no command ran into the hang fault within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const connect = async (): Promise<AdbResult> => {
    const result = await adb(['connect', serial]);
    if (result.code !== 0 || !/connected to/.test(result.stdout)) {
      throw new Error(`adb connect ${serial} failed: ${result.stdout}${result.stderr}`);
    }
    await waitForState('device');
    return result;
  };

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      await adb(['disconnect', serial], { timeoutMs: 5_000 }).catch(() => undefined);
      await adb(['kill-server'], { timeoutMs: 5_000 }).catch(() => undefined);
      if (ownsDevice) await device.close();
      await rm(tmpDir, { recursive: true, force: true });
    })());

  try {
    const started = await adb(['start-server']);
    if (started.code !== 0) throw new Error(`adb start-server failed: ${started.stderr}`);
    if (options.connect !== false) await connect();
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    adb,
    adbRaw,
    shell: (command, runOptions) => adb(['-s', serial, 'shell', command], runOptions),
    connect,
    waitForState,
    waitForHang,
    control,
    state: () => callControlApi(device.controlUrl, 'GET /state'),
    reset: (seed = {}) => callControlApi(device.controlUrl, 'POST /reset', seed),
    serial,
    adbPort,
    env,
    tmpDir,
    device,
    stop,
  };
}

function runAdb(args: string[], env: NodeJS.ProcessEnv, options: AdbRunOptions): Promise<AdbRawResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('adb', args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on('error', () => undefined); // adb may exit before reading its stdin
    child.stdin.end(options.input);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr), code: timedOut ? -1 : (code ?? -1), timedOut });
    });
  });
}

/**
 * A port for this harness's adb server, drawn from below the kernel's ephemeral range so it cannot collide with
 * ports handed out by `listen(0)`, and checked free right before use.
 */
async function pickAdbServerPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await isPortFree(port)) return port;
  }
  throw new Error('no free port found for the adb server');
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
