import type { AdbPhone, ShellOptions, ShellResult } from '../../phone-contract';

/** Runs one command line on the phone; undefined when the stream went away first. */
export async function runPhoneCommand(phone: AdbPhone, command: string, options: ShellOptions): Promise<ShellResult | undefined> {
  try {
    return await phone.shell(command, options);
  } catch (error) {
    if (options.signal.aborted) return undefined;
    // A phone bug must not take the transport down: report it like a failing command.
    const message = error instanceof Error ? error.message : String(error);
    return { stdout: Buffer.alloc(0), stderr: Buffer.from(`virtual device: ${message}\n`), exitCode: 1 };
  }
}
