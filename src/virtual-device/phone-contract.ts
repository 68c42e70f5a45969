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

/** The phone as the adb transport sees it. */
export interface AdbPhone {
  readonly identity: PhoneIdentity;
  readonly fs: PhoneFileSystem;
  shell(command: string, options: ShellOptions): Promise<ShellResult>;
}

/** The phone as the control API sees it. */
export interface ControllablePhone extends AdbPhone {
  state(): PhoneState;
  reset(seed?: unknown): void;
  setProfile(profile: LatencyProfileName): void;
  injectFault(fault: { kind: PhoneFaultKind }): void;
  faults(): Array<{ kind: string }>;
}
