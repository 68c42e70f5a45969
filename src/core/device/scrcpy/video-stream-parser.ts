/**
 * The video socket of scrcpy-server 3.x, read incrementally whatever the TCP reads look like: an optional
 * dummy byte (the first socket of a forward tunnel), the device name (64 bytes, NUL-padded UTF-8), the codec
 * meta (u32 codec id, u32 width, u32 height; all big-endian), then packets of a 12-byte header (u64 PTS whose
 * top two bits flag a config packet and a key frame, u32 size) and the payload.
 */

export const SCRCPY_CODEC_IDS = { h264: 0x68_32_36_34, h265: 0x68_32_36_35, av1: 0x00_61_76_31 } as const;
export type ScrcpyCodec = keyof typeof SCRCPY_CODEC_IDS;

/** What the server sends instead of a codec id when it has no stream to give. */
const STREAM_DISABLED = 0;
const STREAM_ERROR = 1;

const DEVICE_NAME_BYTES = 64;
const CODEC_META_BYTES = 12;
const PACKET_HEADER_BYTES = 12;
const CONFIG_FLAG = 1n << 63n;
const KEY_FRAME_FLAG = 1n << 62n;
const PTS_MASK = KEY_FRAME_FLAG - 1n;
/** A packet larger than this is a broken stream, not a frame (scrcpy's own frames stay far below). */
const MAX_PACKET_BYTES = 32 * 1024 * 1024;

export type VideoStreamEvent =
  | { kind: 'device'; name: string }
  | { kind: 'codec'; codec: ScrcpyCodec; width: number; height: number }
  | { kind: 'packet'; config: boolean; keyFrame: boolean; pts: bigint | null; data: Uint8Array };

/** The stream broke the protocol: the session cannot go on. */
export class VideoStreamError extends Error {}

type Stage = 'dummy' | 'device' | 'codec' | 'header' | 'payload';

export class VideoStreamParser {
  private readonly chunks: Uint8Array[] = [];
  private buffered = 0;
  private stage: Stage;
  private packetHeader: { config: boolean; keyFrame: boolean; pts: bigint | null; size: number } | null = null;

  constructor(options: { dummyByte: boolean } = { dummyByte: true }) {
    this.stage = options.dummyByte ? 'dummy' : 'device';
  }

  /** Takes the next bytes read from the socket; returns every event they complete, in order. */
  push(chunk: Uint8Array): VideoStreamEvent[] {
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    const events: VideoStreamEvent[] = [];
    for (;;) {
      const event = this.step();
      if (event === undefined) return events;
      if (event !== null) events.push(event);
    }
  }

  /** One stage forward: an event, null for a stage without one, undefined when more bytes are needed. */
  private step(): VideoStreamEvent | null | undefined {
    switch (this.stage) {
      case 'dummy': {
        if (!this.take(1)) return undefined;
        this.stage = 'device';
        return null;
      }
      case 'device': {
        const bytes = this.take(DEVICE_NAME_BYTES);
        if (!bytes) return undefined;
        this.stage = 'codec';
        const end = bytes.indexOf(0);
        return { kind: 'device', name: new TextDecoder().decode(bytes.subarray(0, end < 0 ? bytes.length : end)) };
      }
      case 'codec': {
        const bytes = this.take(CODEC_META_BYTES);
        if (!bytes) return undefined;
        const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        const id = view.getUint32(0);
        if (id === STREAM_DISABLED) throw new VideoStreamError('the phone sent no video stream (disabled)');
        if (id === STREAM_ERROR) throw new VideoStreamError('the phone could not start its video encoder');
        const codec = (Object.keys(SCRCPY_CODEC_IDS) as ScrcpyCodec[]).find((name) => SCRCPY_CODEC_IDS[name] === id);
        if (!codec) throw new VideoStreamError(`unknown codec id 0x${id.toString(16)}`);
        this.stage = 'header';
        return { kind: 'codec', codec, width: view.getUint32(4), height: view.getUint32(8) };
      }
      case 'header': {
        const bytes = this.take(PACKET_HEADER_BYTES);
        if (!bytes) return undefined;
        const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        const ptsAndFlags = view.getBigUint64(0);
        const size = view.getUint32(8);
        if (size === 0 || size > MAX_PACKET_BYTES) throw new VideoStreamError(`a video packet of ${size} bytes is not a frame`);
        const config = (ptsAndFlags & CONFIG_FLAG) !== 0n;
        this.packetHeader = { config, keyFrame: (ptsAndFlags & KEY_FRAME_FLAG) !== 0n, pts: config ? null : ptsAndFlags & PTS_MASK, size };
        this.stage = 'payload';
        return null;
      }
      case 'payload': {
        const header = this.packetHeader!;
        const data = this.take(header.size);
        if (!data) return undefined;
        this.packetHeader = null;
        this.stage = 'header';
        return { kind: 'packet', config: header.config, keyFrame: header.keyFrame, pts: header.pts, data };
      }
    }
  }

  /** Removes and returns the next `count` bytes once they have all arrived (one copy only when they span reads). */
  private take(count: number): Uint8Array | null {
    if (this.buffered < count) return null;
    this.buffered -= count;
    const first = this.chunks[0]!;
    if (first.length >= count) {
      if (first.length === count) this.chunks.shift();
      else this.chunks[0] = first.subarray(count);
      return first.subarray(0, count);
    }
    const out = new Uint8Array(count);
    let filled = 0;
    while (filled < count) {
      const chunk = this.chunks[0]!;
      const part = Math.min(chunk.length, count - filled);
      out.set(chunk.subarray(0, part), filled);
      filled += part;
      if (part === chunk.length) this.chunks.shift();
      else this.chunks[0] = chunk.subarray(part);
    }
    return out;
  }
}
