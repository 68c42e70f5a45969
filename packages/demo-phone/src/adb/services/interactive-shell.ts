import type { AdbPhone } from '../../phone-contract';
import type { ShellRequest } from '../service-request';
import type { ServiceStream } from '../stream';
import { encodeShellPacket, readShellPacket, ShellPacketId } from './shell-packets';
import { runPhoneCommand } from './run-command';

/**
 * A minimal line-at-a-time shell for `adb shell` without a command: each line runs through the phone's
 * interpreter. With a pty it prints a prompt and echoes keys like a terminal; without one it just runs lines.
 */
export async function runInteractiveShell(stream: ServiceStream, phone: AdbPhone, request: ShellRequest): Promise<void> {
  const v2 = request.protocol === 'v2';
  const prompt = `${phone.identity.device}:/ $ `;
  const emit = async (data: Buffer | string): Promise<void> => {
    let bytes = typeof data === 'string' ? Buffer.from(data) : data;
    if (bytes.length === 0) return;
    if (request.pty) bytes = Buffer.from(bytes.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
    await stream.write(v2 ? encodeShellPacket(ShellPacketId.stdout, bytes) : bytes);
  };

  let exitCode = 0;
  let line = '';
  let previous = '';
  let exited = false;
  const runLine = async (): Promise<void> => {
    const command = line.trim();
    line = '';
    if (command === 'exit' || command.startsWith('exit ')) {
      exitCode = Number.parseInt(command.slice(5), 10) || 0;
      exited = true;
      return;
    }
    if (command !== '') {
      const result = await runPhoneCommand(phone, command, { signal: stream.signal });
      if (!result) return;
      exitCode = result.exitCode;
      await emit(Buffer.concat([result.stdout, result.stderr]));
    }
    if (request.pty) await emit(prompt);
  };

  if (request.pty) await emit(prompt);
  for (;;) {
    const chunk = await readInput(stream, v2);
    if (chunk === undefined) break;
    for (const char of chunk.toString('utf8')) {
      const afterCarriageReturn = previous === '\r';
      previous = char;
      if (char === '\n' && afterCarriageReturn) continue;
      if (char === '\r' || char === '\n') {
        if (request.pty) await emit('\n');
        await runLine();
      } else if (char === '\x7f' || char === '\b') {
        if (line.length > 0 && request.pty) await emit('\b \b');
        line = line.slice(0, -1);
      } else if (char === '\x03') {
        line = '';
        if (request.pty) await emit(`^C\n${prompt}`);
      } else if (char === '\x04' && line === '') {
        exited = true;
      } else {
        line += char;
        if (request.pty) await emit(char);
      }
      if (exited || stream.signal.aborted) break;
    }
    if (exited || stream.signal.aborted) break;
  }
  if (stream.signal.aborted) return;
  if (!exited && line.trim() !== '') await runLine();
  if (v2) await stream.write(encodeShellPacket(ShellPacketId.exit, Buffer.of(exitCode & 0xff)));
  stream.close();
}

/** The next stdin bytes; undefined once stdin is closed. */
async function readInput(stream: ServiceStream, v2: boolean): Promise<Buffer | undefined> {
  if (!v2) return stream.read();
  for (;;) {
    const packet = await readShellPacket(stream);
    if (!packet || packet.id === ShellPacketId.closeStdin) return undefined;
    if (packet.id === ShellPacketId.stdin) return packet.data;
  }
}
