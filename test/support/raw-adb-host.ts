// A bare-bones adb host for protocol tests: speaks the message layer over TCP with no adb server in between,
// with its own header parsing so it checks the device's encoding independently.
import { connect, type Socket } from 'node:net';

export const A = {
  CNXN: 0x4e584e43,
  OPEN: 0x4e45504f,
  OKAY: 0x59414b4f,
  CLSE: 0x45534c43,
  WRTE: 0x45545257,
} as const;

export interface RawPacket {
  command: number;
  arg0: number;
  arg1: number;
  checksum: number;
  payload: Buffer;
}

export function byteSum(data: Buffer): number {
  let sum = 0;
  for (const byte of data) sum = (sum + byte) >>> 0;
  return sum;
}

export class RawAdbHost {
  private buffer = Buffer.alloc(0);
  private readonly queue: RawPacket[] = [];
  private waiter: (() => void) | undefined;
  readonly closed: Promise<void>;
  /** Set when the device sent bytes that are not a valid header. */
  malformed = false;

  private constructor(readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (data: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, data]);
      while (this.buffer.length >= 24) {
        const command = this.buffer.readUInt32LE(0);
        if (((command ^ 0xffffffff) >>> 0) !== this.buffer.readUInt32LE(20)) this.malformed = true;
        const length = this.buffer.readUInt32LE(12);
        if (this.buffer.length < 24 + length) break;
        this.queue.push({
          command,
          arg0: this.buffer.readUInt32LE(4),
          arg1: this.buffer.readUInt32LE(8),
          checksum: this.buffer.readUInt32LE(16),
          payload: Buffer.from(this.buffer.subarray(24, 24 + length)),
        });
        this.buffer = this.buffer.subarray(24 + length);
      }
      this.wake();
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.once('close', () => {
      this.wake();
      resolve();
    }));
  }

  static connect(port: number, host = '127.0.0.1'): Promise<RawAdbHost> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, host, () => resolve(new RawAdbHost(socket)));
      socket.once('error', reject);
    });
  }

  send(command: number, arg0: number, arg1: number, payload: Buffer | string = Buffer.alloc(0), withChecksum = false): void {
    const data = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const header = Buffer.alloc(24);
    header.writeUInt32LE(command, 0);
    header.writeUInt32LE(arg0, 4);
    header.writeUInt32LE(arg1, 8);
    header.writeUInt32LE(data.length, 12);
    header.writeUInt32LE(withChecksum ? byteSum(data) : 0, 16);
    header.writeUInt32LE((command ^ 0xffffffff) >>> 0, 20);
    this.socket.write(Buffer.concat([header, data]));
  }

  /** The CNXN handshake as the adb server starts it; returns the device's CNXN. */
  async handshake(version = 0x01000001, maxData = 1024 * 1024): Promise<RawPacket> {
    this.send(A.CNXN, version, maxData, 'host::features=shell_v2,cmd,stat_v2\0', true);
    return this.expect(A.CNXN);
  }

  /** The next packet, or undefined if none arrives within `ms` (or the socket closes). */
  async next(ms = 5_000): Promise<RawPacket | undefined> {
    const deadline = Date.now() + ms;
    while (this.queue.length === 0) {
      if (this.socket.destroyed || Date.now() >= deadline) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return this.queue.shift();
  }

  async expect(command: number, ms = 5_000): Promise<RawPacket> {
    const packet = await this.next(ms);
    if (!packet) throw new Error(`expected 0x${command.toString(16)} but nothing arrived`);
    if (packet.command !== command) {
      throw new Error(`expected 0x${command.toString(16)} but got 0x${packet.command.toString(16)} ${packet.payload.toString()}`);
    }
    return packet;
  }

  /** Opens a service; returns the device's stream id, or undefined if refused with CLSE. */
  async open(hostId: number, service: string): Promise<number | undefined> {
    this.send(A.OPEN, hostId, 0, `${service}\0`);
    const reply = await this.next();
    if (!reply) throw new Error(`no reply to OPEN ${service}`);
    if (reply.command === A.CLSE) return undefined;
    if (reply.command !== A.OKAY || reply.arg1 !== hostId) throw new Error(`unexpected reply to OPEN ${service}`);
    return reply.arg0;
  }

  /** Reads the stream until the device closes it, OKAYing each WRTE; returns the bytes. */
  async readUntilClose(hostId: number, deviceId: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    for (;;) {
      const packet = await this.next();
      if (!packet) throw new Error('stream did not close');
      if (packet.command === A.WRTE && packet.arg1 === hostId) {
        parts.push(packet.payload);
        this.send(A.OKAY, hostId, deviceId);
      } else if (packet.command === A.CLSE && packet.arg1 === hostId) {
        this.send(A.CLSE, hostId, deviceId);
        return Buffer.concat(parts);
      }
    }
  }

  /**
   * Sends `input` on a stream in WRTEs of `pieceSize` bytes (each after the device's OKAY, as the adb server
   * does) while collecting what the device writes, until the device closes the stream.
   */
  async exchange(hostId: number, deviceId: number, input: Buffer, pieceSize: number): Promise<Buffer> {
    const output: Buffer[] = [];
    let offset = 0;
    let canSend = true;
    for (;;) {
      if (canSend && offset < input.length) {
        this.send(A.WRTE, hostId, deviceId, input.subarray(offset, offset + pieceSize));
        offset += pieceSize;
        canSend = false;
      }
      const packet = await this.next();
      if (!packet) throw new Error(`stream stalled after ${offset} of ${input.length} input bytes`);
      if (packet.arg1 !== hostId) continue;
      if (packet.command === A.OKAY) canSend = true;
      else if (packet.command === A.WRTE) {
        output.push(packet.payload);
        this.send(A.OKAY, hostId, deviceId);
      } else if (packet.command === A.CLSE) {
        this.send(A.CLSE, hostId, deviceId);
        return Buffer.concat(output);
      }
    }
  }

  end(): void {
    this.socket.destroy();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }
}
