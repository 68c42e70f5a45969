import type { Duplex } from 'node:stream';

/** Reads exact byte counts from a socket-like stream (test side of scrcpy's sockets). */
export class StreamReader {
  private buffered: Buffer = Buffer.alloc(0);
  private ended = false;
  private wake: (() => void) | undefined;

  constructor(readonly stream: Duplex) {
    stream.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.wake?.();
    });
    const end = (): void => {
      this.ended = true;
      this.wake?.();
    };
    stream.on('end', end);
    stream.on('close', end);
    stream.on('error', end);
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** Exactly `size` bytes; rejects when the stream ends first or `timeoutMs` passes. */
  async read(size: number, timeoutMs = 20_000): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs;
    while (this.buffered.length < size) {
      if (this.ended) throw new Error(`the stream ended after ${this.buffered.length} of ${size} bytes`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${size} bytes within ${timeoutMs} ms (have ${this.buffered.length})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    const out = this.buffered.subarray(0, size);
    this.buffered = this.buffered.subarray(size);
    return out;
  }

  /** Resolves once the far end closed the stream. */
  async waitForEnd(timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      if (Date.now() > deadline) throw new Error(`the stream stayed open for ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }
}

export interface VideoPacket {
  config: boolean;
  keyFrame: boolean;
  ptsUs: bigint;
  data: Buffer;
}

/** One packet of scrcpy's video socket: the 12-byte header, then the payload. */
export async function readVideoPacket(reader: StreamReader, timeoutMs?: number): Promise<VideoPacket> {
  const header = await reader.read(12, timeoutMs);
  const ptsAndFlags = header.readBigUInt64BE(0);
  const size = header.readUInt32BE(8);
  return {
    config: (ptsAndFlags & (1n << 63n)) !== 0n,
    keyFrame: (ptsAndFlags & (1n << 62n)) !== 0n,
    ptsUs: ptsAndFlags & ((1n << 62n) - 1n),
    data: await reader.read(size, timeoutMs),
  };
}
