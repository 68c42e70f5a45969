import type { FrameMeta } from '../../shared/contract/frame';
import type { MirrorStatus } from '../../shared/contract/mirror';
import { isAbortError } from '../device/errors';
import type { EventHub } from '../ipc/event-hub';
import { encodeScreenshot, type ScreenshotEncoding } from '../perception/screenshot';
import { FrameRateMeter } from './frame-rate';
import type { CapturedScreen } from './screen-capture';

export type ScreenGrabber = (serial: string, signal: AbortSignal) => Promise<CapturedScreen>;

export interface MirrorPumpOptions {
  events: Pick<EventHub, 'publish' | 'publishFrame' | 'frameSubscriberCount' | 'framesBusy'>;
  grab: ScreenGrabber;
  /** Window-friendly size and format of the frames (default: 960 px long edge, JPEG 70). */
  encoding?: Partial<ScreenshotEncoding>;
  /** How often a paused pump looks again for viewers (the hub has no subscribe notification). */
  idlePollMs?: number;
  /** Wait after a failed capture before the next attempt. */
  retryMs?: number;
  /** How often `mirror.status` is published while frames flow. */
  statusIntervalMs?: number;
}

const DEFAULT_ENCODING: ScreenshotEncoding = { longEdge: 960, format: 'jpeg', quality: 70 };
const BUSY_POLL_MS = 8;

interface Captured {
  screen: CapturedScreen;
  startedAt: number;
  capturedAt: number;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The live mirror of one device: captures the screen in a loop and publishes each frame as binary (never
 * base64). Capture and encode overlap, and the latest capture wins: a capture that finishes while the
 * previous frame is still encoding replaces any waiting one instead of queueing. Nothing is captured while
 * the window is hidden, nobody receives frames, or every receiver is still busy with earlier frames.
 */
export class MirrorPump {
  private readonly encoding: ScreenshotEncoding;
  private readonly meter = new FrameRateMeter();
  private serial: string | null = null;
  private visible = true;
  private error: string | null = null;
  private lastFrame: FrameMeta | null = null;
  private seq = 0;
  /** Bumped on every start/stop: a loop from an earlier generation ends at its next check. */
  private generation = 0;
  private loop: Promise<void> = Promise.resolve();
  private abort = new AbortController();
  private wakeUp: (() => void) | null = null;
  private encodingBusy = false;
  private waiting: Captured | null = null;
  private lastPublished = '';
  private statusTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: MirrorPumpOptions) {
    this.encoding = { ...DEFAULT_ENCODING, ...options.encoding };
  }

  status(): MirrorStatus {
    const now = performance.now();
    const pausedBecause = this.serial === null ? null : !this.visible ? 'hidden' : this.options.events.frameSubscriberCount === 0 ? 'no-viewers' : null;
    const state = this.serial === null ? 'stopped' : pausedBecause ? 'paused' : this.error ? 'error' : 'running';
    return {
      serial: this.serial,
      state,
      pausedBecause,
      visible: this.visible,
      fps: state === 'running' ? this.meter.fps(now) : 0,
      captureMs: this.meter.meanDurationMs(now),
      lastFrame: this.lastFrame,
      error: this.error,
    };
  }

  /** Mirrors `serial`, replacing any device mirrored before. */
  start(serial: string): MirrorStatus {
    if (this.serial === serial) return this.status();
    this.halt();
    this.serial = serial;
    this.lastFrame = null;
    const generation = this.generation;
    this.loop = this.run(serial, generation);
    this.statusTimer = setInterval(() => this.publishStatus(this.status().state !== 'running'), this.options.statusIntervalMs ?? 1000);
    this.statusTimer.unref();
    return this.publishStatus();
  }

  stop(): MirrorStatus {
    this.halt();
    this.serial = null;
    this.lastFrame = null;
    return this.publishStatus();
  }

  setVisible(visible: boolean): MirrorStatus {
    this.visible = visible;
    this.wake();
    return this.publishStatus();
  }

  /** Stops and waits for the capture loop to end. */
  async close(): Promise<void> {
    this.stop();
    await this.loop;
  }

  private halt(): void {
    this.generation += 1;
    this.abort.abort();
    this.abort = new AbortController();
    clearInterval(this.statusTimer);
    this.waiting = null;
    this.error = null;
    this.meter.reset();
    this.wake();
  }

  private wake(): void {
    this.wakeUp?.();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wakeUp === done) this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  private async run(serial: string, generation: number): Promise<void> {
    const current = () => this.generation === generation;
    const signal = this.abort.signal;
    while (current()) {
      if (!this.visible || this.options.events.frameSubscriberCount === 0) {
        this.publishStatus(true);
        this.meter.reset();
        await this.sleep(this.options.idlePollMs ?? 200);
        continue;
      }
      if (this.options.events.framesBusy) {
        await this.sleep(BUSY_POLL_MS);
        continue;
      }
      const startedAt = performance.now();
      const capturedAt = Date.now();
      let screen: CapturedScreen;
      try {
        screen = await this.options.grab(serial, signal);
      } catch (error) {
        if (!current() || isAbortError(error)) return;
        this.fail(`Could not capture the screen of ${serial}: ${message(error)}`);
        await this.sleep(this.options.retryMs ?? 1000);
        continue;
      }
      if (!current()) return;
      this.submit(serial, generation, { screen, startedAt, capturedAt });
    }
  }

  /** Encodes and publishes; while an encode runs, only the newest capture waits for the next one. */
  private submit(serial: string, generation: number, captured: Captured): void {
    if (this.encodingBusy) {
      this.waiting = captured;
      return;
    }
    this.encodingBusy = true;
    void this.encodeAndPublish(serial, generation, captured).finally(() => {
      this.encodingBusy = false;
      const next = this.waiting;
      this.waiting = null;
      if (next && this.generation === generation) this.submit(serial, generation, next);
    });
  }

  private async encodeAndPublish(serial: string, generation: number, captured: Captured): Promise<void> {
    let encoded;
    try {
      encoded = await encodeScreenshot(captured.screen, this.encoding);
    } catch (error) {
      if (this.generation === generation) this.fail(`A frame from ${serial} could not be decoded: ${message(error)}`);
      return;
    }
    // Hidden or stopped meanwhile: the frame is dropped, so nothing reaches a window after it said so.
    if (this.generation !== generation || !this.visible) return;
    const captureMs = Math.round((performance.now() - captured.startedAt) * 10) / 10;
    const meta: FrameMeta = {
      serial,
      seq: this.seq++,
      width: encoded.width,
      height: encoded.height,
      mediaType: encoded.mediaType,
      capturedAt: captured.capturedAt,
      captureMs,
      deviceWidth: Math.round(encoded.width * encoded.scale),
      deviceHeight: Math.round(encoded.height * encoded.scale),
    };
    this.options.events.publishFrame(meta, encoded.bytes);
    this.meter.record(performance.now(), captureMs);
    this.lastFrame = meta;
    if (this.error) {
      this.error = null;
      this.publishStatus();
    }
  }

  private fail(reason: string): void {
    this.error = reason;
    this.publishStatus();
  }

  /** Publishes the status; with `onlyIfChanged`, only when it changed beyond the numbers that move every frame. */
  private publishStatus(onlyIfChanged = false): MirrorStatus {
    const status = this.status();
    const key = JSON.stringify({ ...status, fps: null, captureMs: null, lastFrame: null });
    if (onlyIfChanged && key === this.lastPublished) return status;
    this.lastPublished = key;
    this.options.events.publish('mirror.status', status);
    return status;
  }
}
