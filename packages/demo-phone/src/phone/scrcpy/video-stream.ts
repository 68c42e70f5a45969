import sharp from 'sharp';
import { H264ScreenEncoder } from '../../h264/encoder';
import type { PhoneSocket } from '../../phone-contract';
import type { FramePacing } from '../latency';
import { drawLoadingBar } from '../loading-bar';
import { pictureAngle, rotatedSize, type DisplayRotation } from '../display-rotation';
import { videoSize } from './options';

/** scrcpy's codec id for H.264: the ASCII bytes "h264". */
export const CODEC_ID_H264 = 0x68_32_36_34;
const PACKET_FLAG_CONFIG = 1n << 63n;
const PACKET_FLAG_KEY_FRAME = 1n << 62n;
/** Without pacing every interval, an unchanged screen is still sent this often, so a client can tell a still screen from a dead stream. */
export const REPEAT_UNCHANGED_MS = 1_000;
/** A fresh key frame this often, so a decoder that lost its state recovers on its own. */
export const KEY_FRAME_INTERVAL_MS = 5_000;

/** The screen's drawing: its pixels, a key that changes whenever they do, and the loading bar's time while it runs. */
export interface ScreenFrame {
  key: string;
  rgba: Buffer;
  loadingBarAt?: number;
}

/** What the video stream needs of the phone. */
export interface ScreenSource {
  readonly screenWidth: number;
  readonly screenHeight: number;
  screenFrame(): Promise<ScreenFrame>;
  /** The latency profile's frame pacing. */
  framePacing(): FramePacing;
  /** True once when the encoder is to fail (the `scrcpy-crash` fault). */
  takeCrash(): boolean;
  /** The display's rotation now (display-rotation.ts). */
  displayRotation(): DisplayRotation;
}

/** The encoder failed: the server logs it and exits, closing its sockets. */
export class EncoderCrash extends Error {}

export interface VideoStreamOptions {
  /** scrcpy's max_size: the longer side's limit (0: none). */
  maxSize: number;
  /** The display's rotation when the stream starts. */
  rotation: DisplayRotation;
  sendCodecMeta: boolean;
  sendFrameMeta: boolean;
  /** 0: no cap beyond the pacing. */
  maxFps: number;
}

/** The 12-byte frame header: PTS in microseconds with the config and key-frame flags in its top bits, then the size. */
export function frameHeader(ptsUs: bigint, flags: { config?: boolean; keyFrame?: boolean }, size: number): Buffer {
  const header = Buffer.alloc(12);
  const ptsAndFlags = flags.config ? PACKET_FLAG_CONFIG : ptsUs | (flags.keyFrame ? PACKET_FLAG_KEY_FRAME : 0n);
  header.writeBigUInt64BE(ptsAndFlags, 0);
  header.writeUInt32BE(size, 8);
  return header;
}

export function codecMeta(width: number, height: number): Buffer {
  const meta = Buffer.alloc(12);
  meta.writeUInt32BE(CODEC_ID_H264, 0);
  meta.writeUInt32BE(width, 4);
  meta.writeUInt32BE(height, 8);
  return meta;
}

/**
 * Streams the screen as scrcpy's server does on the video socket: codec meta, the config packet (SPS+PPS), a key
 * frame, then delta frames as the pacing says (a changed screen at the next interval). A key frame follows every
 * few seconds and after a reset request, which also sends the config again. When the display rotates, the encoder
 * starts over at the turned size, as scrcpy's does: a new config packet, then a key frame. Ends when `signal` aborts.
 */
export class ScreenVideoStream {
  private encoder: H264ScreenEncoder;
  private rotation: DisplayRotation;
  private size: { width: number; height: number };
  private lastKey: string | undefined;
  private lastSentAt = 0;
  private lastKeyFrameAt = Number.NEGATIVE_INFINITY;
  private resetRequested = false;
  private readonly startedAt = performance.now();
  /** The last drawing scaled to the video's size: the loading bar redraws over it every frame without scaling again. */
  private scaledDrawing: { key: string; pixels: Promise<Uint8Array> } | undefined;

  constructor(
    private readonly source: ScreenSource,
    private readonly socket: PhoneSocket,
    private readonly options: VideoStreamOptions,
  ) {
    this.rotation = options.rotation;
    this.size = this.sizeFor(options.rotation);
    this.encoder = new H264ScreenEncoder({ ...this.size, framesPerSecond: 60 });
  }

  private sizeFor(rotation: DisplayRotation): { width: number; height: number } {
    const screen = rotatedSize(this.source.screenWidth, this.source.screenHeight, rotation);
    return videoSize(screen.width, screen.height, this.options.maxSize);
  }

  /** A rotated display: a new encoder at the turned size, whose config goes out before the next (key) frame. */
  private async followRotation(): Promise<boolean> {
    const rotation = this.source.displayRotation();
    if (rotation === this.rotation) return false;
    this.rotation = rotation;
    this.size = this.sizeFor(rotation);
    this.encoder = new H264ScreenEncoder({ ...this.size, framesPerSecond: 60 });
    this.scaledDrawing = undefined;
    await this.writePacket(this.encoder.parameterSets(), { config: true });
    return true;
  }

  /** RESET_VIDEO: the client lost its decoder state. */
  requestReset(): void {
    this.resetRequested = true;
  }

  async run(signal: AbortSignal): Promise<void> {
    if (this.options.sendCodecMeta) await this.socket.write(codecMeta(this.size.width, this.size.height));
    await this.writePacket(this.encoder.parameterSets(), { config: true });
    // A fixed cadence: the time spent encoding and sending comes out of the interval, not on top of it.
    let nextAt = performance.now();
    while (!signal.aborted) {
      await this.sendFrame(performance.now());
      if (this.source.takeCrash()) throw new EncoderCrash('android.media.MediaCodec$CodecException: Error 0xfffffff4');
      nextAt = Math.max(nextAt + this.intervalMs(), performance.now() - this.intervalMs());
      await sleep(nextAt - performance.now(), signal);
    }
  }

  /** Sends what is due at `now`: a key frame, a delta frame, or nothing. */
  private async sendFrame(now: number): Promise<void> {
    const rotated = await this.followRotation();
    const frame = await this.source.screenFrame();
    const changed = frame.key !== this.lastKey || frame.loadingBarAt !== undefined;
    this.lastKey = frame.key;
    if (rotated || this.resetRequested || now - this.lastKeyFrameAt >= KEY_FRAME_INTERVAL_MS) {
      if (this.resetRequested) await this.writePacket(this.encoder.parameterSets(), { config: true });
      this.resetRequested = false;
      this.lastKeyFrameAt = now;
      await this.writePacket(this.encoder.encodeKeyFrame(await this.picture(frame)), { keyFrame: true }, now);
    } else if (changed) {
      await this.writePacket(this.encoder.encodeDeltaFrame(await this.picture(frame)), {}, now);
    } else if (this.source.framePacing().everyInterval || now - this.lastSentAt >= REPEAT_UNCHANGED_MS) {
      await this.writePacket(this.encoder.encodeDeltaFrame(), {}, now);
    } else {
      return;
    }
    this.lastSentAt = now;
  }

  private intervalMs(): number {
    const capped = this.options.maxFps > 0 ? 1000 / this.options.maxFps : 0;
    return Math.max(this.source.framePacing().intervalMs, capped);
  }

  private async writePacket(data: Uint8Array, flags: { config?: boolean; keyFrame?: boolean }, capturedAt = this.startedAt): Promise<void> {
    const ptsUs = BigInt(Math.round((capturedAt - this.startedAt) * 1000));
    if (this.options.sendFrameMeta) await this.socket.write(frameHeader(ptsUs, flags, data.length));
    await this.socket.write(Buffer.from(data.buffer, data.byteOffset, data.length));
  }

  /** The frame at the video's size, with the loading bar drawn over it while it runs. */
  private async picture(frame: ScreenFrame): Promise<Uint8Array> {
    if (this.scaledDrawing?.key !== frame.key) this.scaledDrawing = { key: frame.key, pixels: this.scaled(frame.rgba) };
    const pixels = await this.scaledDrawing.pixels;
    if (frame.loadingBarAt === undefined) return pixels;
    // A copy (Buffer.slice would share the cached pixels).
    const shown = new Uint8Array(pixels);
    drawLoadingBar(shown, this.size.width, this.size.height, frame.loadingBarAt);
    return shown;
  }

  /** The portrait drawing turned as the display is and scaled to the video's size. */
  private async scaled(rgba: Buffer): Promise<Uint8Array> {
    const { width, height } = this.size;
    if (this.rotation === 0 && width === this.source.screenWidth && height === this.source.screenHeight) return rgba;
    return sharp(rgba, { raw: { width: this.source.screenWidth, height: this.source.screenHeight, channels: 4 } })
      .rotate(pictureAngle(this.rotation))
      .resize(width, height, { fit: 'fill' })
      .raw()
      .toBuffer();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
