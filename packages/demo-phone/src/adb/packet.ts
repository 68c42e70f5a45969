// The adb transport message layer: 24-byte little-endian headers followed by an optional payload.

export const Command = {
  CNXN: 0x4e584e43,
  OPEN: 0x4e45504f,
  OKAY: 0x59414b4f,
  CLSE: 0x45534c43,
  WRTE: 0x45545257,
  AUTH: 0x48545541,
} as const;

/** The oldest protocol version; packets of this version carry a payload checksum. */
export const VERSION_MIN = 0x01000000;
/** From this version on checksums are omitted (sent as 0). */
export const VERSION_SKIP_CHECKSUM = 0x01000001;
/** The largest payload this device accepts and advertises in its CNXN. */
export const DEVICE_MAX_PAYLOAD = 1024 * 1024;

export const HEADER_SIZE = 24;

export interface Packet {
  command: number;
  arg0: number;
  arg1: number;
  payload: Buffer;
}

/** The adb checksum is a plain byte sum, not a CRC. */
export function payloadChecksum(payload: Buffer): number {
  let sum = 0;
  for (const byte of payload) sum = (sum + byte) >>> 0;
  return sum;
}

export function encodePacket(packet: Packet, withChecksum: boolean): Buffer {
  const header = Buffer.alloc(HEADER_SIZE);
  header.writeUInt32LE(packet.command >>> 0, 0);
  header.writeUInt32LE(packet.arg0 >>> 0, 4);
  header.writeUInt32LE(packet.arg1 >>> 0, 8);
  header.writeUInt32LE(packet.payload.length, 12);
  header.writeUInt32LE(withChecksum ? payloadChecksum(packet.payload) : 0, 16);
  header.writeUInt32LE((packet.command ^ 0xffffffff) >>> 0, 20);
  return packet.payload.length === 0 ? header : Buffer.concat([header, packet.payload]);
}

export class PacketFormatError extends Error {
  override name = 'PacketFormatError';
}

/** Splits a TCP byte stream into packets; throws PacketFormatError on a header no real host would send. */
export class PacketParser {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor(private readonly maxPayload: number) {}

  push(data: Buffer): Packet[] {
    this.chunks.push(data);
    this.buffered += data.length;
    const packets: Packet[] = [];
    for (;;) {
      if (this.buffered < HEADER_SIZE) break;
      const head = this.peek(HEADER_SIZE);
      const command = head.readUInt32LE(0);
      const length = head.readUInt32LE(12);
      if (((command ^ 0xffffffff) >>> 0) !== head.readUInt32LE(20)) {
        throw new PacketFormatError(`bad magic for command 0x${command.toString(16)}`);
      }
      if (length > this.maxPayload) {
        throw new PacketFormatError(`payload of ${length} bytes exceeds the maximum of ${this.maxPayload}`);
      }
      if (this.buffered < HEADER_SIZE + length) break;
      const whole = this.take(HEADER_SIZE + length);
      packets.push({
        command,
        arg0: whole.readUInt32LE(4),
        arg1: whole.readUInt32LE(8),
        payload: whole.subarray(HEADER_SIZE),
      });
    }
    return packets;
  }

  private peek(size: number): Buffer {
    this.gather(size);
    return this.chunks[0]!.subarray(0, size);
  }

  private take(size: number): Buffer {
    this.gather(size);
    const first = this.chunks[0]!;
    if (first.length === size) this.chunks.shift();
    else this.chunks[0] = first.subarray(size);
    this.buffered -= size;
    return first.subarray(0, size);
  }

  /** Makes the first chunk hold at least `size` bytes. */
  private gather(size: number): void {
    if (this.chunks[0]!.length < size) this.chunks = [Buffer.concat(this.chunks)];
  }
}

export function commandName(command: number): string {
  const entry = Object.entries(Command).find(([, value]) => value === command);
  return entry ? entry[0] : `0x${command.toString(16)}`;
}
