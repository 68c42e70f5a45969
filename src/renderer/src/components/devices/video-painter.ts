import type { FrameMeta } from '../../../../shared/contract';

/**
 * The long edge, in device pixels of this screen, the mirror can take: the video is not encoded larger. The
 * mirror fits the window's height at most; scrcpy wants a multiple of 8.
 */
export function mirrorLongEdge(canvas: HTMLCanvasElement | null): number {
  const box = canvas?.parentElement?.getBoundingClientRect();
  const onScreen = Math.max(box?.width ?? 0, box?.height ?? 0, window.innerHeight);
  const pixels = Math.round(onScreen * (window.devicePixelRatio || 1));
  return Math.min(Math.max(Math.floor(pixels / 8) * 8, 320), 2048);
}

/** How often at most the painter asks main for a key frame while it waits for one. */
const KEY_FRAME_REQUEST_MS = 1000;

export interface VideoPainterOptions {
  canvas: () => HTMLCanvasElement | null;
  /** Called for each frame drawn, with the packet's metadata. */
  painted(meta: FrameMeta): void;
  /** Asks main for a key frame (after a gap, or on joining a running stream). */
  requestKeyFrame(): void;
}

/**
 * Decodes the video mirror's H.264 packets with WebCodecs (hardware where the browser has it) and draws each
 * frame on the canvas. A packet can only be decoded after the ones before it: after a gap (a dropped packet, a
 * decoder error) everything waits for the next key frame, which is asked for.
 */
export class VideoPainter {
  private decoder: VideoDecoder | null = null;
  private codec: string | null = null;
  private lastSeq: number | null = null;
  private needKeyFrame = true;
  private lastRequest = -Infinity;
  private readonly pending = new Map<number, FrameMeta>();
  private closed = false;

  constructor(private readonly options: VideoPainterOptions) {}

  /** Whether this page can decode video at all (WebCodecs needs a secure context such as http://127.0.0.1). */
  static supported(): boolean {
    return typeof VideoDecoder === 'function';
  }

  push(meta: FrameMeta, bytes: Uint8Array): void {
    if (this.closed || !meta.codec) return;
    if (meta.codec !== this.codec || !this.decoder || this.decoder.state === 'closed') this.configure(meta.codec);
    const gap = this.lastSeq !== null && meta.seq !== this.lastSeq + 1;
    this.lastSeq = meta.seq;
    if (gap) this.needKeyFrame = true;
    if (this.needKeyFrame && !meta.keyFrame) {
      this.askForKeyFrame();
      return;
    }
    this.needKeyFrame = false;
    this.pending.set(meta.seq, meta);
    try {
      this.decoder!.decode(new EncodedVideoChunk({ type: meta.keyFrame ? 'key' : 'delta', timestamp: meta.seq, data: bytes }));
    } catch {
      this.restart();
    }
  }

  close(): void {
    this.closed = true;
    if (this.decoder && this.decoder.state !== 'closed') this.decoder.close();
    this.decoder = null;
    this.pending.clear();
  }

  private configure(codec: string): void {
    if (this.decoder && this.decoder.state !== 'closed') this.decoder.close();
    this.codec = codec;
    this.needKeyFrame = true;
    this.pending.clear();
    this.decoder = new VideoDecoder({ output: (frame) => this.draw(frame), error: () => this.restart() });
    // Annex B packets with the SPS/PPS in front of key frames: no `description`.
    this.decoder.configure({ codec, optimizeForLatency: true });
  }

  /** A decoder error: start over from the next key frame. */
  private restart(): void {
    if (this.closed) return;
    this.codec = null;
    this.decoder = null;
    this.needKeyFrame = true;
    this.askForKeyFrame();
  }

  private askForKeyFrame(): void {
    const now = performance.now();
    if (now - this.lastRequest < KEY_FRAME_REQUEST_MS) return;
    this.lastRequest = now;
    this.options.requestKeyFrame();
  }

  private draw(frame: VideoFrame): void {
    const meta = this.pending.get(frame.timestamp);
    this.pending.delete(frame.timestamp);
    const canvas = this.options.canvas();
    if (!this.closed && canvas) {
      if (canvas.width !== frame.displayWidth || canvas.height !== frame.displayHeight) {
        canvas.width = frame.displayWidth;
        canvas.height = frame.displayHeight;
      }
      canvas.getContext('2d')?.drawImage(frame, 0, 0);
      if (meta) this.options.painted(meta);
    }
    frame.close();
  }
}
