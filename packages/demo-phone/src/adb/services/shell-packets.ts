import type { ServiceStream } from '../stream';

/** Packet ids of the shell protocol (`shell,v2`): `[u8 id][u32 LE length][data]`. */
export const ShellPacketId = { stdin: 0, stdout: 1, stderr: 2, exit: 3, closeStdin: 4, windowSize: 5 } as const;

const SHELL_HEADER_SIZE = 5;

export function encodeShellPacket(id: number, data: Buffer): Buffer {
  const header = Buffer.alloc(SHELL_HEADER_SIZE);
  header.writeUInt8(id, 0);
  header.writeUInt32LE(data.length, 1);
  return Buffer.concat([header, data]);
}

/** Splits output into shell packets that each fit one WRTE, as adbd does. */
export function encodeShellOutput(id: number, data: Buffer, maxPayload: number): Buffer[] {
  const room = Math.max(1, maxPayload - SHELL_HEADER_SIZE);
  const packets: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += room) {
    packets.push(encodeShellPacket(id, data.subarray(offset, offset + room)));
  }
  return packets;
}

export async function readShellPacket(stream: ServiceStream): Promise<{ id: number; data: Buffer } | undefined> {
  const header = await stream.readExactly(SHELL_HEADER_SIZE);
  if (!header) return undefined;
  const length = header.readUInt32LE(1);
  const data = length === 0 ? Buffer.alloc(0) : await stream.readExactly(length);
  if (!data) return undefined;
  return { id: header.readUInt8(0), data };
}
