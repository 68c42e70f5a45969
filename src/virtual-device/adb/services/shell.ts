import type { AdbPhone } from '../../phone-contract';
import type { ShellRequest } from '../service-request';
import type { ServiceStream } from '../stream';
import { encodeShellOutput, ShellPacketId } from './shell-packets';
import { runInteractiveShell } from './interactive-shell';
import { runPhoneCommand } from './run-command';

/**
 * `shell:`/`exec:` (no protocol: stdout and stderr merged, the end of output is the CLSE) and `shell,v2`
 * (stdout and stderr packets, then the exit code).
 */
export async function runShellService(stream: ServiceStream, phone: AdbPhone, request: ShellRequest): Promise<void> {
  if (request.command.trim() === '') {
    await runInteractiveShell(stream, phone, request);
    return;
  }
  void discardInput(stream);
  const result = await runPhoneCommand(phone, request.command, stream.signal);
  if (!result || stream.signal.aborted) return;
  if (request.protocol === 'v2') {
    for (const packet of encodeShellOutput(ShellPacketId.stdout, result.stdout, stream.maxPayload)) await stream.write(packet);
    for (const packet of encodeShellOutput(ShellPacketId.stderr, result.stderr, stream.maxPayload)) await stream.write(packet);
    await stream.write(encodeShellOutput(ShellPacketId.exit, Buffer.of(result.exitCode & 0xff), stream.maxPayload)[0]!);
  } else {
    await stream.write(result.stdout);
    await stream.write(result.stderr);
  }
  stream.close();
}

/** A non-interactive command has no stdin; reading keeps the host's writes acknowledged (close-stdin included). */
async function discardInput(stream: ServiceStream): Promise<void> {
  while ((await stream.read()) !== undefined) {
    // discard
  }
}
