import type { MirrorKey } from '../../shared/contract/devices';
import type { FrameMeta } from '../../shared/contract/frame';
import type { Said } from '../../shared/said';
import { KEY_CODES } from '../../core/tools/actions/keys';
import type { AdbClient } from '../../core/device/adb-client';
import { parseWmSize, wm } from '../../core/device/android/wm';
import type { HelperResolution } from '../../core/device/helpers/provision';
import { backOrScreenOnMessage, keycodeMessage, resetVideoMessage, touchMessage, type VideoPoint } from '../../core/device/scrcpy/control-messages';
import { avcCodecString } from '../../core/device/scrcpy/h264';
import { ScrcpySession, type VideoPacket } from '../../core/device/scrcpy/scrcpy-session';
import { PhoneFacts } from '../../core/device/android/phone-facts';

export interface VideoSourceOptions {
  adb: () => Promise<AdbClient>;
  /** scrcpy-server 3.3.3, provisioned (from Settings, an installation, the cache or the verified download). */
  server: () => Promise<HelperResolution>;
}

export interface VideoRunHandlers {
  /** One compressed packet (Annex B; key frames carry the SPS/PPS in front) with its metadata. */
  frame(meta: FrameMeta, bytes: Uint8Array): void;
  /** The stream ended without `stop`: `displayChanged` when a new configuration came (rotation, resize). */
  ended(reason: string, displayChanged: boolean): void;
}

/** Steps per second of a swipe sent as touch moves (the phone's frame rate). */
const MOVES_PER_SECOND = 60;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The video mirror of one phone: a scrcpy session whose packets become frames, and whose control socket takes the
 * person's gestures. Points arrive in device pixels and are scaled to the video, as the server expects.
 */
export class VideoRun {
  private config: Uint8Array | null = null;
  private codec: string | null = null;
  private seq = 0;
  private stopped = false;
  /** Maps the phone's presentation time to the host clock: the smallest arrival - pts seen. */
  private clockOffsetMs: number | null = null;

  constructor(
    private readonly session: ScrcpySession,
    readonly serial: string,
    private readonly device: { width: number; height: number },
    private readonly handlers: VideoRunHandlers,
  ) {
    session.listen(
      (packet) => this.onPacket(packet),
      (reason) => {
        if (!this.stopped) handlers.ended(reason, false);
      },
    );
  }

  get video(): { width: number; height: number } {
    return { width: this.session.video.width, height: this.session.video.height };
  }

  stop(): void {
    this.stopped = true;
    this.session.close();
  }

  get running(): boolean {
    return !this.stopped && this.session.isOpen;
  }

  /** Asks the server for a new configuration and key frame (a window joined or lost a packet). */
  requestKeyFrame(): void {
    this.session.send(resetVideoMessage());
  }

  async tap(x: number, y: number): Promise<void> {
    const point = this.toVideo(x, y);
    this.send(touchMessage('down', point), touchMessage('up', point));
  }

  async swipe(from: { x: number; y: number }, to: { x: number; y: number }, durationMs: number): Promise<void> {
    const steps = Math.max(1, Math.round((durationMs / 1000) * MOVES_PER_SECOND));
    this.send(touchMessage('down', this.toVideo(from.x, from.y)));
    for (let step = 1; step <= steps; step += 1) {
      await sleep(durationMs / steps);
      const along = step / steps;
      this.send(touchMessage('move', this.toVideo(from.x + (to.x - from.x) * along, from.y + (to.y - from.y) * along)));
    }
    this.send(touchMessage('up', this.toVideo(to.x, to.y)));
  }

  async pressKey(key: MirrorKey): Promise<void> {
    if (key === 'back') this.send(backOrScreenOnMessage('down'), backOrScreenOnMessage('up'));
    else this.send(keycodeMessage('down', KEY_CODES[key]), keycodeMessage('up', KEY_CODES[key]));
  }

  private send(...messages: Uint8Array[]): void {
    if (!this.session.send(...messages)) throw new Error(`the video mirror of ${this.serial} has stopped`);
  }

  private toVideo(x: number, y: number): VideoPoint {
    const { width, height } = this.video;
    return { x: (x * width) / this.device.width, y: (y * height) / this.device.height, width, height };
  }

  private onPacket(packet: VideoPacket): void {
    if (this.stopped) return;
    if (packet.config) {
      const changed = this.config !== null && !sameBytes(this.config, packet.data);
      this.config = packet.data;
      this.codec = avcCodecString(packet.data) ?? this.codec;
      if (changed) {
        // A new configuration means a new size (rotation, display change): the session restarts with its meta.
        this.stopped = true;
        this.session.close();
        this.handlers.ended('the display changed', true);
      }
      return;
    }
    if (!this.codec || !this.config) return;
    const arrival = Date.now();
    const ptsMs = packet.pts === null ? null : Number(packet.pts) / 1000;
    if (ptsMs !== null) this.clockOffsetMs = Math.min(this.clockOffsetMs ?? Infinity, arrival - ptsMs);
    const bytes = packet.keyFrame ? concat(this.config, packet.data) : packet.data;
    const meta: FrameMeta = {
      serial: this.serial,
      seq: this.seq++,
      width: this.video.width,
      height: this.video.height,
      mediaType: 'video/h264',
      codec: this.codec,
      keyFrame: packet.keyFrame,
      capturedAt: ptsMs === null || this.clockOffsetMs === null ? arrival : Math.round(ptsMs + this.clockOffsetMs),
      captureMs: 0,
      deviceWidth: this.device.width,
      deviceHeight: this.device.height,
    };
    this.handlers.frame(meta, bytes);
  }
}

/** The video mirror cannot start until the person changes a setting; `fix` says which, in plain words. */
export class VideoUnavailableError extends Error {
  constructor(
    reason: string,
    readonly fix: string,
    /** The codes of the reason and the fix, for a window in another language. */
    readonly said: { reason: Said; fix: Said },
  ) {
    super(reason);
    this.name = 'VideoUnavailableError';
  }
}

export class VideoSource {
  constructor(private readonly options: VideoSourceOptions) {}

  /**
   * Starts scrcpy-server on `serial` with the video's long edge at most `maxSize`. Throws an Error whose message is
   * the one-clause reason the video mirror is unavailable.
   */
  async start(serial: string, maxSize: number, handlers: VideoRunHandlers, signal: AbortSignal): Promise<VideoRun> {
    const server = await this.options.server();
    if (!server.available) throw new VideoUnavailableError(server.reason, server.fix, server.said);
    const adb = await this.options.adb();
    // Read afresh as the mirror starts (a size changed by `wm size WxH` shows at once); the phone's kept size follows it.
    const natural = parseWmSize(await adb.shell(serial, wm.size(), { signal, timeoutMs: 5000 }));
    if (natural) PhoneFacts.of(adb).learnSize(serial, natural);
    const session = await ScrcpySession.start({ adb, serial, server: server.bytes, maxSize, signal });
    if (signal.aborted) {
      session.close();
      throw new Error('the mirror was stopped');
    }
    const { width, height } = session.video;
    // `wm size` is the natural (portrait) size; the video tells the orientation.
    const long = natural ? Math.max(natural.width, natural.height) : Math.max(width, height);
    const short = natural ? Math.min(natural.width, natural.height) : Math.min(width, height);
    const device = width > height ? { width: long, height: short } : { width: short, height: long };
    return new VideoRun(session, serial, device, handlers);
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
