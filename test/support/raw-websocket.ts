// A WebSocket client at the byte level, for frames no well-behaved library would send (invalid UTF-8, lying
// lengths, fragments out of order) and for a client that stops reading.
import { randomBytes } from 'node:crypto';
import net from 'node:net';

export const OPCODE = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

export interface FrameOptions {
  /** Default true. */
  fin?: boolean;
  /** Claimed payload length when it differs from the bytes sent (a lying header). */
  claimedLength?: number;
  /** Client frames must be masked; false sends an unmasked one (a protocol error). */
  masked?: boolean;
  rsv?: number;
}

/** One client frame as bytes. */
export function encodeClientFrame(opcode: number, payload: Uint8Array, options: FrameOptions = {}): Buffer {
  const length = options.claimedLength ?? payload.length;
  const masked = options.masked ?? true;
  const head: number[] = [((options.fin ?? true) ? 0x80 : 0) | ((options.rsv ?? 0) << 4) | opcode];
  const maskBit = masked ? 0x80 : 0;
  if (length < 126) head.push(maskBit | length);
  else if (length < 0x10000) head.push(maskBit | 126, length >> 8, length & 0xff);
  else {
    head.push(maskBit | 127);
    const big = Buffer.alloc(8);
    big.writeBigUInt64BE(BigInt(length));
    head.push(...big);
  }
  if (!masked) return Buffer.concat([Buffer.from(head), payload]);
  const mask = randomBytes(4);
  const body = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
  return Buffer.concat([Buffer.from(head), mask, body]);
}

export interface ServerClose {
  code: number | null;
  reason: string;
}

export interface RawWebSocket {
  readonly socket: net.Socket;
  send(opcode: number, payload: Uint8Array | string, options?: FrameOptions): void;
  /** Writes bytes as they are (a frame split in pieces, garbage). */
  write(bytes: Uint8Array): void;
  /** Resolves when the connection ends, with the close frame the server sent (code null when none came). */
  readonly closed: Promise<ServerClose>;
  /** Text messages received so far (only while reading). */
  readonly texts: string[];
}

/** Opens `ws://127.0.0.1:port/path` with the given Origin, doing the HTTP upgrade by hand. */
export function openRawWebSocket(port: number, path: string, origin: string): Promise<RawWebSocket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const key = randomBytes(16).toString('base64');
    let buffer = Buffer.alloc(0);
    let upgraded = false;
    let serverClose: ServerClose = { code: null, reason: '' };
    const texts: string[] = [];
    let resolveClosed!: (close: ServerClose) => void;
    const closed = new Promise<ServerClose>((r) => (resolveClosed = r));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      resolveClosed(serverClose);
      if (!upgraded) reject(new Error('connection closed before the upgrade'));
    });
    socket.on('connect', () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${origin}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString();
        buffer = buffer.subarray(end + 4);
        if (!head.startsWith('HTTP/1.1 101')) {
          reject(new Error(`upgrade refused: ${head.split('\r\n')[0]}`));
          socket.destroy();
          return;
        }
        upgraded = true;
        resolve(raw);
      }
      // Server frames are unmasked: FIN/opcode, length, payload.
      while (buffer.length >= 2) {
        const opcode = buffer[0]! & 0x0f;
        let length = buffer[1]! & 0x7f;
        let offset = 2;
        if (length === 126) {
          if (buffer.length < 4) return;
          length = buffer.readUInt16BE(2);
          offset = 4;
        } else if (length === 127) {
          if (buffer.length < 10) return;
          length = Number(buffer.readBigUInt64BE(2));
          offset = 10;
        }
        if (buffer.length < offset + length) return;
        const payload = buffer.subarray(offset, offset + length);
        buffer = buffer.subarray(offset + length);
        if (opcode === OPCODE.text) texts.push(payload.toString());
        if (opcode === OPCODE.close) {
          serverClose = { code: payload.length >= 2 ? payload.readUInt16BE(0) : null, reason: payload.subarray(2).toString() };
        }
      }
    });
    const raw: RawWebSocket = {
      socket,
      send: (opcode, payload, options) =>
        socket.write(encodeClientFrame(opcode, typeof payload === 'string' ? Buffer.from(payload) : payload, options)),
      write: (bytes) => socket.write(bytes),
      closed,
      texts,
    };
  });
}
