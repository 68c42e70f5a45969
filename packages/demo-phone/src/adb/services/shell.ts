import type { AdbPhone } from '../../phone-contract';
import type { ShellRequest } from '../service-request';
import type { ServiceStream } from '../stream';
import { LiveInput } from './live-input';
import { encodeShellOutput, readShellPacket, ShellPacketId } from './shell-packets';
import { runInteractiveShell } from './interactive-shell';
import { runPhoneCommand } from './run-command';

/**
 * `shell:`/`exec:` (no protocol: stdout and stderr merged, the end of output is the CLSE) and `shell,v2`
 * (stdout and stderr packets, then the exit code). What the host writes is the command's stdin; stdout
 * streams back while the command runs.
 */
export async function runShellService(stream: ServiceStream, phone: AdbPhone, request: ShellRequest): Promise<void> {
  if (request.command.trim() === '') {
    await runInteractiveShell(stream, phone, request);
    return;
  }
  const v2 = request.protocol === 'v2';
  const stdin = new LiveInput();
  void forwardInput(stream, v2, stdin);
  const send = async (id: number, data: Buffer): Promise<void> => {
    if (data.length === 0 || stream.signal.aborted) return;
    if (!v2) return stream.write(data);
    for (const packet of encodeShellOutput(id, data, stream.maxPayload)) await stream.write(packet);
  };
  const result = await runPhoneCommand(phone, request.command, {
    signal: stream.signal,
    stdin,
    onStdout: (data) => send(ShellPacketId.stdout, data),
  });
  if (!result || stream.signal.aborted) return;
  await send(ShellPacketId.stdout, result.stdout);
  await send(ShellPacketId.stderr, result.stderr);
  if (v2) await stream.write(encodeShellOutput(ShellPacketId.exit, Buffer.of(result.exitCode & 0xff), stream.maxPayload)[0]!);
  stream.close();
}

/** Feeds the host's bytes to the command until it closes stdin (shell v2) or the stream (no protocol). */
async function forwardInput(stream: ServiceStream, v2: boolean, stdin: LiveInput): Promise<void> {
  for (;;) {
    if (!v2) {
      const chunk = await stream.read();
      if (chunk === undefined) break;
      stdin.push(chunk);
      continue;
    }
    const packet = await readShellPacket(stream);
    if (!packet || packet.id === ShellPacketId.closeStdin) break;
    if (packet.id === ShellPacketId.stdin) stdin.push(packet.data);
  }
  stdin.end();
  // Keep reading so the host's writes stay acknowledged after stdin is closed.
  while ((await stream.read()) !== undefined) {
    // discard
  }
}
