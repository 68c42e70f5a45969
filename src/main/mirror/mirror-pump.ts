import type { FrameMeta } from '../../shared/contract/frame';
import type { MirrorStatus } from '../../shared/contract/mirror';
import { settingInForm } from '../../shared/settings-catalog';
import { isAbortError } from '../device/errors';
import type { EventHub } from '../ipc/event-hub';
import { FrameRateMeter } from './frame-rate';
import { DEFAULT_MIRROR_ENCODING, encodeMirrorFrame, type EncodedFrame, type MirrorEncoding } from './frame-encoder';
import type { CapturedScreen } from './screen-capture';
import { VideoUnavailableError, type VideoRun, type VideoSource } from './video-source';

export type ScreenGrabber = (serial: string, signal: AbortSignal) => Promise<CapturedScreen>;

export interface MirrorPumpOptions {
  events: Pick<EventHub, 'publish' | 'publishFrame' | 'frameSubscriberCount' | 'framesBusy'>;
  grab: ScreenGrabber;
  /** Window-friendly size and quality of the JPEG frames (default: 960 px long edge, quality 70). */
  encoding?: Partial<MirrorEncoding>;
  /** How often a paused pump looks again for viewers (the hub has no subscribe notification). */
  idlePollMs?: number;
  /** Wait after a failed capture before the next attempt. */
  retryMs?: number;
  /** How often `mirror.status` is published while frames flow. */
  statusIntervalMs?: number;
  /** The video path (scrcpy); without it, or while it is off or unavailable, screenshots are pumped. */
  video?: { source: VideoSource; enabled: () => Promise<boolean> };
}

/** The video's long edge when the window did not say how large the mirror is. */
const DEFAULT_VIDEO_MAX_SIZE = 1280;

const BUSY_POLL_MS = 8;
/** How long a gesture made during a restart after a rotation waits for the new stream before going through adb. */
const RESTART_WAIT_MS = 3000;

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
 * The live mirror of one device: captures the screen in a loop and publishes each frame as binary (never
 * base64). Capture and encode overlap, and the latest capture wins: a capture that finishes while the
 * previous frame is still encoding replaces any waiting one instead of queueing. Nothing is captured while
 * the window is hidden, nobody receives frames, or every receiver is still busy with earlier frames.
 */
export class MirrorPump {
  private readonly encoding: MirrorEncoding;
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
  private encodeStartedAt = 0;
  private waiting: Captured | null = null;
  /** Moving averages of the two stages, to time captures so they end as the encoder frees up. */
  private captureAverageMs: number | null = null;
  private encodeAverageMs: number | null = null;
  private lastPublished = '';
  private statusTimer: NodeJS.Timeout | undefined;
  /** How many observations of the mirrored phone are in flight: the mirror starts no capture meanwhile. */
  private yielding = 0;
  /** The running video session; frames come from it (and no screencap runs) once it delivered one. */
  private videoRun: VideoRun | null = null;
  private videoLive = false;
  /** Set while the stream restarts after a display change; settles when the new stream paints or the mirror gives up. */
  private videoRestart: { done: Promise<void>; settle: () => void } | null = null;
  /** Why the picture comes from screenshots, and what the person can change to get video (when a setting can). */
  private fallback: { reason: string; fix: string | null } | null = null;
  private maxSize = DEFAULT_VIDEO_MAX_SIZE;
  private decodesVideo = true;
  private videoViewers = 0;
  /** The video session was stopped because nobody watched; it starts again when someone does. */
  private videoIdle = false;
  private videoStarting = false;

  constructor(private readonly options: MirrorPumpOptions) {
    this.encoding = { ...DEFAULT_MIRROR_ENCODING, ...options.encoding };
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
      source: this.videoLive ? 'video' : 'screenshots',
      fallbackReason: this.serial === null ? null : (this.fallback?.reason ?? null),
      fallbackFix: this.serial === null ? null : (this.fallback?.fix ?? null),
    };
  }

  /**
   * Mirrors `serial`, replacing any device mirrored before. `maxSize` is the mirror's long edge on screen;
   * `decodesVideo: false` says the window cannot decode video, so screenshots are sent.
   */
  start(serial: string, view: { maxSize?: number | undefined; decodesVideo?: boolean | undefined } = {}): MirrorStatus {
    if (this.serial === serial) {
      // A window (re)opened on a mirror that fell back: the video path gets another try.
      if (!this.videoRun && !this.videoStarting && !this.videoIdle && view.decodesVideo !== false) {
        this.decodesVideo = true;
        void this.startVideo(serial, this.generation);
      }
      return this.status();
    }
    this.halt();
    this.serial = serial;
    this.lastFrame = null;
    this.maxSize = view.maxSize ?? DEFAULT_VIDEO_MAX_SIZE;
    this.decodesVideo = view.decodesVideo ?? true;
    this.fallback = null;
    const generation = this.generation;
    this.loop = this.run(serial, generation);
    void this.startVideo(serial, generation);
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
    // Packets were dropped while hidden: decoding restarts from a fresh key frame.
    if (visible && !this.visible) this.videoRun?.requestKeyFrame();
    this.visible = visible;
    this.wake();
    return this.publishStatus();
  }

  /** A window lost video packets or joined late; false when no video runs. */
  requestKeyFrame(): boolean {
    if (!this.videoRun?.running) return false;
    this.videoRun.requestKeyFrame();
    return true;
  }

  /**
   * The person's gestures over the video session's control socket when it runs for `serial`; null otherwise (the
   * caller then uses adb input).
   */
  videoControl(serial: string): Pick<VideoRun, 'tap' | 'swipe' | 'pressKey'> | null {
    return this.serial === serial && this.videoLive && this.videoRun?.running ? this.videoRun : null;
  }

  /**
   * `videoControl`, but a gesture made while the stream restarts after a rotation first waits (briefly) for the new
   * stream: its position is in the turned picture the person saw, so it must go where that picture came from.
   */
  async videoControlAfterRestart(serial: string): Promise<ReturnType<MirrorPump['videoControl']>> {
    const restart = this.serial === serial ? this.videoRestart : null;
    if (restart) await Promise.race([restart.done, new Promise((resolve) => setTimeout(resolve, RESTART_WAIT_MS).unref())]);
    return this.videoControl(serial);
  }

  /**
   * Runs `work` (the agent observing a phone) while the mirror starts no new capture of that phone: a phone
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

  /** Stops and waits for the capture loop to end. */
  async close(): Promise<void> {
    this.stop();
    await this.loop;
  }

  private halt(): void {
    this.generation += 1;
    this.stopVideo();
    this.videoIdle = false;
    this.videoStarting = false;
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
      const watched = this.options.events.frameSubscriberCount > 0;
      if (!watched && this.videoRun) {
        // Nobody receives frames (the window closed): no server stays on the phone meanwhile.
        this.stopVideo();
        this.videoIdle = true;
      } else if (watched && this.videoIdle) {
        this.videoIdle = false;
        void this.startVideo(serial, generation);
      }
      if (this.videoLive) {
        // The video path delivers; woken when it ends.
        await this.sleep(this.options.idlePollMs ?? 200);
        continue;
      }
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
      if (this.yielding > 0) {
        // Woken when the observation ends; the poll only bounds a missed wake-up.
        await this.sleep(this.options.idlePollMs ?? 200);
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
    if (!this.encodingBusy || this.encodeAverageMs === null || this.captureAverageMs === null) return 0;
    const remaining = this.encodeAverageMs - (performance.now() - this.encodeStartedAt);
    return remaining - this.captureAverageMs;
  }

  /** Encodes and publishes; while an encode runs, only the newest capture waits for the next one. */
  private submit(serial: string, generation: number, captured: Captured): void {
    if (this.encodingBusy) {
      this.waiting = captured;
      return;
    }
    this.encodingBusy = true;
    this.encodeStartedAt = performance.now();
    void this.encodeAndPublish(serial, generation, captured).finally(() => {
      this.encodingBusy = false;
      this.encodeAverageMs = average(this.encodeAverageMs, performance.now() - this.encodeStartedAt);
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
    if (this.generation !== generation || !this.visible || this.videoLive) return;
    const { captureMs } = captured;
    const meta: FrameMeta = {
      serial,
      seq: this.seq++,
      width: encoded.width,
      height: encoded.height,
      mediaType: encoded.mediaType,
      capturedAt: captured.capturedAt,
      captureMs,
      deviceWidth: encoded.deviceWidth,
      deviceHeight: encoded.deviceHeight,
    };
    this.options.events.publishFrame(meta, encoded.bytes);
    this.meter.record(performance.now(), captureMs);
    this.lastFrame = meta;
    if (this.error) {
      this.error = null;
      this.publishStatus();
    }
  }

  private async startVideo(serial: string, generation: number): Promise<void> {
    const video = this.options.video;
    if (!video) return;
    const current = () => this.generation === generation;
    if (!this.decodesVideo) {
      this.fellBack('this window cannot decode video', 'Open the app, or this page at http://127.0.0.1 (WebCodecs decodes video there).');
      return;
    }
    if (!(await video.enabled())) {
      if (current()) {
        const videoMirror = settingInForm('helpers', 'videoMirror');
        this.fellBack('the video mirror is off in Settings', `Turn on "${videoMirror.label}" in Settings \u2192 ${videoMirror.section}.`);
      }
      return;
    }
    this.videoStarting = true;
    try {
      const run = await video.source.start(
        serial,
        this.maxSize,
        {
          frame: (meta, bytes) => {
            if (current()) this.publishVideoFrame(meta, bytes);
          },
          ended: (reason, displayChanged) => {
            if (!current()) return;
            this.videoRun = null;
            this.videoLive = false;
            if (displayChanged) {
              this.beginRestart();
              void this.startVideo(serial, generation);
            } else this.fellBack(reason, null);
            this.wake();
          },
        },
        this.abort.signal,
      );
      if (!current()) run.stop();
      else this.videoRun = run;
    } catch (error) {
      if (current() && !isAbortError(error)) this.fellBack(message(error), error instanceof VideoUnavailableError ? error.fix : null);
    } finally {
      if (current()) this.videoStarting = false;
    }
  }

  private publishVideoFrame(meta: FrameMeta, bytes: Uint8Array): void {
    if (!this.videoLive) {
      this.videoLive = true;
      this.endRestart();
      this.fallback = null;
      this.error = null;
      this.meter.reset();
      this.publishStatus();
    }
    const viewers = this.options.events.frameSubscriberCount;
    // A window that just subscribed cannot decode before a key frame.
    if (viewers > this.videoViewers) this.videoRun?.requestKeyFrame();
    this.videoViewers = viewers;
    if (!this.visible || viewers === 0) return;
    this.options.events.publishFrame(meta, bytes);
    this.meter.record(performance.now(), 0);
    this.lastFrame = meta;
  }

  private beginRestart(): void {
    if (this.videoRestart) return;
    let settle = () => {};
    const done = new Promise<void>((resolve) => (settle = resolve));
    this.videoRestart = { done, settle };
  }

  private endRestart(): void {
    this.videoRestart?.settle();
    this.videoRestart = null;
  }

  private stopVideo(): void {
    this.endRestart();
    this.videoRun?.stop();
    this.videoRun = null;
    this.videoLive = false;
    this.videoViewers = 0;
  }

  private fellBack(reason: string, fix: string | null): void {
    this.endRestart();
    this.fallback = { reason, fix };
    this.publishStatus();
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
