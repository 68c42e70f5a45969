import type { FrameMeta } from '../../shared/contract/frame';
import { isAbortError } from '../../core/device/errors';
import type { EventHub } from '../ipc/event-hub';
import { DEFAULT_MIRROR_ENCODING, encodeMirrorFrame, type EncodedFrame, type MirrorEncoding } from './frame-encoder';
import type { CapturedScreen } from './screen-capture';

export type ScreenGrabber = (serial: string, signal: AbortSignal) => Promise<CapturedScreen>;

/** Whether a screenshot is wanted now: not while the video delivers, nor while nobody could see it. */
export type ScreenshotDemand = 'wanted' | 'video' | 'paused';

export interface ScreenshotPumpOptions {
  events: Pick<EventHub, 'publishFrame' | 'framesBusy'>;
  grab: ScreenGrabber;
  /** Window-friendly size and quality of the JPEG frames (default: 960 px long edge, quality 70). */
  encoding?: Partial<MirrorEncoding> | undefined;
  /** How often a resting pump looks again (the hub has no subscribe notification). */
  idlePollMs?: number | undefined;
  /** Wait after a failed capture before the next attempt. */
  retryMs?: number | undefined;
  demand: () => ScreenshotDemand;
  /** The pump rests because nobody could see a frame. */
  paused(): void;
  /** A frame was published; `captureMs` is how long its screencap took. */
  published(meta: FrameMeta, captureMs: number): void;
  /** The last capture failed (`reason`), or the first good frame after a failure came (null). */
  failed(reason: string | null): void;
}

const BUSY_POLL_MS = 8;

interface Captured {
  screen: CapturedScreen;
  /** Wall-clock time the screencap started. */
  capturedAt: number;
  /** How long the screencap itself took (before encoding). */
  captureMs: number;
}

/** Exponential moving average (the newest sample weighs a fifth). */
const average = (previous: number | null, sample: number) => (previous === null ? sample : previous * 0.8 + sample * 0.2);

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Screenshots of one phone in a loop, each published as a binary frame (never base64). Capture and encode
 * overlap, and the latest capture wins: a capture that finishes while the previous frame is still encoding replaces
 * any waiting one instead of queueing. Nothing is captured while screenshots are not wanted, every receiver is still
 * busy with earlier frames, or the agent observes the same phone.
 */
export class ScreenshotPump {
  private readonly encoding: MirrorEncoding;
  private serial: string | null = null;
  private seq = 0;
  /** Bumped on every start/stop: a loop from an earlier generation ends at its next check. */
  private generation = 0;
  private loop: Promise<void> = Promise.resolve();
  private abort = new AbortController();
  private wakeUp: (() => void) | null = null;
  private encodingSince: number | null = null;
  private waiting: Captured | null = null;
  /** Moving averages of the two stages, to time captures so they end as the encoder frees up. */
  private captureAverageMs: number | null = null;
  private encodeAverageMs: number | null = null;
  private failing = false;
  /** How many observations of the phone are in flight: the pump starts no capture meanwhile. */
  private yielding = 0;

  constructor(private readonly options: ScreenshotPumpOptions) {
    this.encoding = { ...DEFAULT_MIRROR_ENCODING, ...options.encoding };
  }

  start(serial: string): void {
    this.stop();
    this.serial = serial;
    this.loop = this.run(serial, this.generation);
  }

  stop(): void {
    this.generation += 1;
    this.serial = null;
    this.abort.abort();
    this.abort = new AbortController();
    this.waiting = null;
    this.failing = false;
    this.wake();
  }

  /** Waits for the capture loop to end (after `stop`). */
  async closed(): Promise<void> {
    await this.loop;
  }

  /** Something the loop waits for changed (visibility, the video, the encoder): look again now. */
  wake(): void {
    this.wakeUp?.();
  }

  /**
   * Runs `work` (the agent observing a phone) while the pump starts no new capture of that phone: a phone
   * answers one screencap at a time faster than two, and the agent's turn is what the person waits for.
   */
  async yieldTo<T>(serial: string, work: () => Promise<T>): Promise<T> {
    if (serial !== this.serial) return work();
    this.yielding += 1;
    try {
      return await work();
    } finally {
      this.yielding -= 1;
      this.wake();
    }
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
    const idlePollMs = this.options.idlePollMs ?? 200;
    while (current()) {
      const demand = this.options.demand();
      if (demand !== 'wanted') {
        if (demand === 'paused') this.options.paused();
        // Woken when the video ends or the window shows again; the poll bounds a missed wake-up.
        await this.sleep(idlePollMs);
        continue;
      }
      if (this.options.events.framesBusy) {
        await this.sleep(BUSY_POLL_MS);
        continue;
      }
      if (this.yielding > 0) {
        await this.sleep(idlePollMs);
        continue;
      }
      const lead = this.captureLead();
      if (lead > 1) {
        await this.sleep(lead);
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
      const captureMs = Math.round((performance.now() - startedAt) * 10) / 10;
      this.captureAverageMs = average(this.captureAverageMs, captureMs);
      this.submit(serial, generation, { screen, capturedAt, captureMs });
    }
  }

  /**
   * How long to wait before the next capture. Capture and encode overlap, but a capture that ends long before
   * the encoder is free would only wait and grow stale (fast phones capture in a few ms): start it so that it
   * ends about when the current encode does. Slow captures start right away.
   */
  private captureLead(): number {
    if (this.waiting) return this.encodeAverageMs ?? BUSY_POLL_MS;
    if (this.encodingSince === null || this.encodeAverageMs === null || this.captureAverageMs === null) return 0;
    const remaining = this.encodeAverageMs - (performance.now() - this.encodingSince);
    return remaining - this.captureAverageMs;
  }

  /** Encodes and publishes; while an encode runs, only the newest capture waits for the next one. */
  private submit(serial: string, generation: number, captured: Captured): void {
    if (this.encodingSince !== null) {
      this.waiting = captured;
      return;
    }
    const since = performance.now();
    this.encodingSince = since;
    void this.encodeAndPublish(serial, generation, captured).finally(() => {
      this.encodingSince = null;
      this.encodeAverageMs = average(this.encodeAverageMs, performance.now() - since);
      const next = this.waiting;
      this.waiting = null;
      if (next && this.generation === generation) this.submit(serial, generation, next);
      // The capture loop may be holding back for the encoder.
      this.wake();
    });
  }

  private async encodeAndPublish(serial: string, generation: number, captured: Captured): Promise<void> {
    let encoded: EncodedFrame;
    try {
      encoded = await encodeMirrorFrame(captured.screen, this.encoding);
    } catch (error) {
      if (this.generation === generation) this.fail(`A frame from ${serial} could not be decoded: ${message(error)}`);
      return;
    }
    // Hidden or stopped meanwhile: the frame is dropped, so nothing reaches a window after it said so. Video took
    // over meanwhile: an older screenshot must not be painted over the live picture.
    if (this.generation !== generation || this.options.demand() !== 'wanted') return;
    const meta: FrameMeta = {
      serial,
      seq: this.seq++,
      width: encoded.width,
      height: encoded.height,
      mediaType: encoded.mediaType,
      capturedAt: captured.capturedAt,
      captureMs: captured.captureMs,
      deviceWidth: encoded.deviceWidth,
      deviceHeight: encoded.deviceHeight,
    };
    this.options.events.publishFrame(meta, encoded.bytes);
    this.options.published(meta, captured.captureMs);
    if (this.failing) {
      this.failing = false;
      this.options.failed(null);
    }
  }

  private fail(reason: string): void {
    this.failing = true;
    this.options.failed(reason);
  }
}
