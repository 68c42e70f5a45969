import type { FrameMeta } from '../../shared/contract/frame';
import type { MirrorStatus } from '../../shared/contract/mirror';
import type { EventHub } from '../ipc/event-hub';
import { FrameRateMeter } from './frame-rate';
import type { MirrorEncoding } from './frame-encoder';
import { ScreenshotPump, type ScreenGrabber, type ScreenshotDemand } from './screenshot-pump';
import { VideoSession, type VideoControl, type VideoSessionOptions } from './video-session';

export interface DeviceMirrorOptions {
  events: Pick<EventHub, 'publish' | 'publishFrame' | 'frameSubscriberCount' | 'framesBusy'>;
  grab: ScreenGrabber;
  /** Window-friendly size and quality of the JPEG frames (default: 960 px long edge, quality 70). */
  encoding?: Partial<MirrorEncoding> | undefined;
  /** How often a resting mirror looks again for viewers (the hub has no subscribe notification). */
  idlePollMs?: number;
  /** Wait after a failed capture before the next attempt. */
  retryMs?: number;
  /** How often `mirror.status` is published while frames flow. */
  statusIntervalMs?: number;
  /** The video path (scrcpy); without it, or while it is off or unavailable, screenshots are pumped. */
  video?: Pick<VideoSessionOptions, 'source' | 'enabled' | 'maxRestarts'>;
}

/** The video's long edge when the window did not say how large the mirror is. */
const DEFAULT_VIDEO_MAX_SIZE = 1280;

/** How long a gesture made during a restart after a rotation waits for the new stream before going through adb. */
const RESTART_WAIT_MS = 3000;

/**
 * The live mirror of one device, as the window sees it: the video session's packets while it is live, the
 * screenshot pump's frames otherwise, one status saying which and why. Nothing is captured or streamed while the
 * window is hidden or nobody receives frames.
 */
export class DeviceMirror {
  private readonly meter = new FrameRateMeter();
  private readonly screenshots: ScreenshotPump;
  private readonly video: VideoSession | null;
  private serial: string | null = null;
  /** How the mirrored phone is viewed (as the last start gave it), for a restart. */
  private view: { maxSize?: number | undefined; decodesVideo?: boolean | undefined } = {};
  private visible = true;
  private captureError: string | null = null;
  private lastFrame: FrameMeta | null = null;
  private lastPublished = '';
  private statusTimer: NodeJS.Timeout | undefined;
  private watchTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: DeviceMirrorOptions) {
    const { events } = options;
    this.screenshots = new ScreenshotPump({
      events,
      grab: options.grab,
      encoding: options.encoding,
      idlePollMs: options.idlePollMs,
      retryMs: options.retryMs,
      demand: () => this.screenshotDemand(),
      paused: () => {
        this.publishStatus(true);
        this.meter.reset();
      },
      published: (meta, captureMs) => this.record(meta, captureMs),
      failed: (reason) => {
        this.captureError = reason;
        this.publishStatus();
      },
    });
    this.video = options.video
      ? new VideoSession({
          ...options.video,
          viewers: () => events.frameSubscriberCount,
          frame: (meta, bytes) => {
            if (!this.visible || events.frameSubscriberCount === 0) return;
            events.publishFrame(meta, bytes);
            this.record(meta, 0);
          },
          changed: () => {
            if (this.video?.live) {
              this.captureError = null;
              this.meter.reset();
            }
            this.publishStatus();
            this.screenshots.wake();
          },
        })
      : null;
  }

  status(): MirrorStatus {
    const now = performance.now();
    const pausedBecause = this.serial === null ? null : !this.visible ? 'hidden' : this.options.events.frameSubscriberCount === 0 ? 'no-viewers' : null;
    const state = this.serial === null ? 'stopped' : pausedBecause ? 'paused' : this.captureError ? 'error' : 'running';
    const fallback = this.serial === null ? null : this.video?.fallback;
    return {
      serial: this.serial,
      state,
      pausedBecause,
      visible: this.visible,
      fps: state === 'running' ? this.meter.fps(now) : 0,
      captureMs: this.meter.meanDurationMs(now),
      lastFrame: this.lastFrame,
      error: this.captureError,
      source: this.video?.live ? 'video' : 'screenshots',
      fallbackReason: fallback?.reason ?? null,
      fallbackFix: fallback?.fix ?? null,
      fallbackSaid: fallback?.said ?? null,
    };
  }

  /**
   * Mirrors `serial`, replacing any device mirrored before. `maxSize` is the mirror's long edge on screen;
   * `decodesVideo: false` says the window cannot decode video, so screenshots are sent.
   */
  start(serial: string, view: { maxSize?: number | undefined; decodesVideo?: boolean | undefined } = {}): MirrorStatus {
    if (this.serial === serial) {
      this.video?.retry(view.decodesVideo ?? true);
      return this.status();
    }
    this.halt();
    this.serial = serial;
    this.view = view;
    this.lastFrame = null;
    this.screenshots.start(serial);
    this.video?.start(serial, { maxSize: view.maxSize ?? DEFAULT_VIDEO_MAX_SIZE, decodesVideo: view.decodesVideo ?? true });
    this.watchTimer = setInterval(() => this.video?.watch(this.options.events.frameSubscriberCount > 0), this.options.idlePollMs ?? 200);
    this.watchTimer.unref();
    this.statusTimer = setInterval(() => this.publishStatus(this.status().state !== 'running'), this.options.statusIntervalMs ?? 1000);
    this.statusTimer.unref();
    return this.publishStatus();
  }

  /**
   * Starts the mirrored phone's mirror afresh, as it was viewed: a helper or a mirror setting changed, so video is
   * tried again at once rather than when the phone is next selected. Nothing when no phone is mirrored.
   */
  restart(): MirrorStatus {
    const serial = this.serial;
    if (serial === null) return this.status();
    this.serial = null;
    return this.start(serial, this.view);
  }

  stop(): MirrorStatus {
    this.halt();
    this.serial = null;
    this.lastFrame = null;
    return this.publishStatus();
  }

  setVisible(visible: boolean): MirrorStatus {
    // Packets were dropped while hidden: decoding restarts from a fresh key frame.
    if (visible && !this.visible) this.video?.requestKeyFrame();
    this.visible = visible;
    this.screenshots.wake();
    return this.publishStatus();
  }

  /** A window lost video packets or joined late; false when no video runs. */
  requestKeyFrame(): boolean {
    return this.video?.requestKeyFrame() ?? false;
  }

  /**
   * The person's gestures over the video session's control socket when it runs for `serial`; null otherwise (the
   * caller then uses adb input).
   */
  videoControl(serial: string): VideoControl | null {
    return this.video?.control(serial) ?? null;
  }

  /**
   * `videoControl`, but a gesture made while the stream restarts after a rotation first waits (briefly) for the new
   * stream: its position is in the turned picture the person saw, so it must go where that picture came from.
   */
  async videoControlAfterRestart(serial: string): Promise<VideoControl | null> {
    if (this.serial === serial) await this.video?.restartEnded(RESTART_WAIT_MS);
    return this.videoControl(serial);
  }

  /** Runs `work` (the agent observing a phone) while the mirror starts no new capture of that phone. */
  yieldTo<T>(serial: string, work: () => Promise<T>): Promise<T> {
    return this.screenshots.yieldTo(serial, work);
  }

  /** Stops and waits for the capture loop to end. */
  async close(): Promise<void> {
    this.stop();
    await this.screenshots.closed();
  }

  private screenshotDemand(): ScreenshotDemand {
    if (this.video?.live) return 'video';
    return !this.visible || this.options.events.frameSubscriberCount === 0 ? 'paused' : 'wanted';
  }

  private record(meta: FrameMeta, captureMs: number): void {
    this.meter.record(performance.now(), captureMs);
    this.lastFrame = meta;
  }

  private halt(): void {
    this.video?.stop();
    this.screenshots.stop();
    clearInterval(this.statusTimer);
    clearInterval(this.watchTimer);
    this.captureError = null;
    this.meter.reset();
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
