// What the adb side and the control API need from the simulated phone. `VirtualPhone` (./phone/phone.ts)
// satisfies these structurally; tests may pass a smaller stand-in.
import type { PhoneFaultKind } from './phone/faults';
import type { LatencyProfileName } from './phone/latency';
import type { PhoneState } from './phone/model';

export interface PhoneFileEntry {
  name: string;
  mode: number;
  size: number;
  mtimeSeconds: number;
  isDirectory: boolean;
}

/** Errors thrown by the file system carry an errno-style code ('ENOENT', 'EISDIR', 'EACCES', 'ENOTDIR', ...). */
export interface PhoneFileSystem {
  stat(path: string): PhoneFileEntry | undefined;
  list(path: string): PhoneFileEntry[] | undefined;
  read(path: string): Buffer;
  write(path: string, data: Buffer, mode: number, mtimeSeconds: number): void;
}

export interface ShellResult {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
}

export interface PhoneIdentity {
  name: string;
  model: string;
  device: string;
}

/** Bytes adb forwards to a running command: chunks until the host closes its stdin. */
export interface ShellInput {
  chunks(): AsyncIterable<Buffer>;
  readAll(): Promise<Buffer>;
}

export interface ShellOptions {
  signal: AbortSignal;
  /** The command's stdin (adb's stdin for a one-shot command); empty when absent. */
  stdin?: ShellInput;
  /** Receives stdout while the command runs (streaming commands like `logcat`); the result's stdout is then empty. */
  onStdout?: (data: Buffer) => Promise<void>;
}

/** One end of a TCP connection on the phone's loopback: bytes both ways until either side closes. */
export interface PhoneSocket {
  write(data: Buffer): Promise<void>;
  /** The next received bytes; undefined once the other side closed. */
  read(): Promise<Buffer | undefined>;
  close(): void;
}

/** A connection adbd made to a local socket server on the phone (`localabstract:NAME`): aborted once either side closed. */
export interface PhoneLocalConnection extends PhoneSocket {
  readonly signal: AbortSignal;
}

/** The abstract local socket names servers on the phone listen on (scrcpy's `scrcpy_<scid>`). */
export interface PhoneLocalSockets {
  /**
   * Hands `connection` to the server listening on `name`; resolves once the connection is over. Undefined when
   * nothing listens (adbd then refuses the stream).
   */
  acceptor(name: string): ((connection: PhoneLocalConnection) => Promise<void>) | undefined;
}

/** The phone's loopback ports that something outside the phone serves (`adb reverse`). */
export interface PhoneLoopback {
  /** Serves `port`; `connect` opens the far end for each connection made to it. False when the port is taken. */
  listen(port: number, connect: () => Promise<PhoneSocket>): boolean;
  unlisten(port: number): boolean;
  /** A free port for `tcp:0`. */
  freePort(): number;
}

/** The screen as raw RGBA pixels (the framebuffer service). */
export interface PhoneFramebuffer {
  width: number;
  height: number;
  rgba: Buffer;
}

/** The phone as the adb transport sees it. */
export interface AdbPhone {
  readonly identity: PhoneIdentity;
  readonly fs: PhoneFileSystem;
  /** Without it (a stand-in phone), `reverse:` is refused. */
  readonly loopback?: PhoneLoopback;
  /** Without it, `localabstract:` is refused. */
  readonly localSockets?: PhoneLocalSockets;
  /** Without it, `framebuffer:` is refused. */
  framebuffer?(): Promise<PhoneFramebuffer>;
  shell(command: string, options: ShellOptions): Promise<ShellResult>;
}

/** The phone as the control API sees it. */
export interface ControllablePhone extends AdbPhone {
  state(): PhoneState;
  reset(seed?: unknown): void;
  setProfile(profile: LatencyProfileName): void;
  injectFault(fault: { kind: PhoneFaultKind }): void;
  faults(): Array<{ kind: string }>;
  /** The loading bar redrawn every frame (loading-bar.ts), and whether it runs. */
  setLoadingBar(running: boolean): void;
  readonly loadingBar: boolean;
  /** Brings `pkg` to the front as its launcher icon does, or shows the home screen; nothing else changes. */
  bringToFront(pkg: string | undefined): void;
}
