import type { FrameMeta } from '../../shared/contract/frame';
import { say, type Said, type Saying } from '../../shared/said';
import { settingInForm } from '../../shared/settings-catalog';
import { isAbortError } from '../../core/device/errors';
import { move, type VideoSessionState } from './video-session-state';
import { VideoUnavailableError, type VideoRun, type VideoRunHandlers } from './video-source';

/** What the session needs of a running stream (a `VideoRun`). */
export type VideoStream = Pick<VideoRun, 'stop' | 'running' | 'requestKeyFrame' | 'tap' | 'swipe' | 'pressKey'>;

/** Gestures over the stream's control socket. */
export type VideoControl = Pick<VideoRun, 'tap' | 'swipe' | 'pressKey'>;

export interface VideoSessionOptions {
  /** Starts scrcpy on a phone (a `VideoSource`); throws with the one-clause reason video is unavailable. */
  source: { start(serial: string, maxSize: number, handlers: VideoRunHandlers, signal: AbortSignal): Promise<VideoStream> };
  /** Whether the video mirror is on in Settings, read at each start. */
  enabled: () => Promise<boolean>;
  /** How many windows receive frames now: one that just joined needs a key frame. */
  viewers: () => number;
  /** A packet of the live stream. */
  frame(meta: FrameMeta, bytes: Uint8Array): void;
  /** The state or the fallback reason changed by itself (not by `stop`). */
  changed(): void;
  /** Display changes in a row that may each restart the stream before it paints again (default 3). */
  maxRestarts?: number;
}

export interface VideoView {
  /** The mirror's long edge on screen: the video is not made larger. */
  maxSize: number;
  /** False when the window cannot decode video. */
  decodesVideo: boolean;
}

export interface VideoFallback {
  /** Why the picture comes from screenshots, in one clause the mirror line shows. */
  reason: string;
  /** What the person can change to get video, when a setting can. */
  fix: string | null;
  /** The codes of the reason and the fix, when main worded them (an error from elsewhere has none). */
  said?: { reason: Said; fix: Said | null };
}

/** A fallback main words itself: the English text, with the codes for a window in another language. */
const fallbackOf = (reason: Saying, fix: Saying | null): VideoFallback => ({
  reason: reason.text,
  fix: fix?.text ?? null,
  said: { reason: reason.said, fix: fix?.said ?? null },
});

const DEFAULT_MAX_RESTARTS = 3;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The video mirror of one phone through its states (video-session-state.ts): starts scrcpy, hands its packets on,
 * restarts it when the display changes, stops it when nobody watches, and falls back with a reason in plain words
 * when the video cannot run. It knows nothing of screenshots: the mirror pumps them while the session is not live.
 */
export class VideoSession {
  private current: VideoSessionState = 'idle';
  private serial: string | null = null;
  private view: VideoView = { maxSize: 0, decodesVideo: false };
  /** Bumped on every start and stop: callbacks of an earlier stream are ignored. */
  private generation = 0;
  private abort = new AbortController();
  private stream: VideoStream | null = null;
  private fallbackNow: VideoFallback | null = null;
  /** Settles when a restart ends (the new stream paints, or the session stops or falls back). */
  private restartSettled: { done: Promise<void>; settle: () => void } | null = null;
  private restartsInARow = 0;
  /** Stopped because nobody watched: starts again when someone does. */
  private unwatched = false;
  private viewersSeen = 0;

  constructor(private readonly options: VideoSessionOptions) {}

  get state(): VideoSessionState {
    return this.current;
  }

  get live(): boolean {
    return this.current === 'live';
  }

  get fallback(): VideoFallback | null {
    return this.fallbackNow;
  }

  /** Starts the video of `serial`, replacing any session before. */
  start(serial: string, view: VideoView): void {
    this.stop();
    this.serial = serial;
    this.view = view;
    this.fallbackNow = null;
    void this.begin();
  }

  /** A window (re)opened on a mirror that fell back: the video gets another try. */
  retry(decodesVideo: boolean): void {
    if (this.current !== 'fell-back' || !decodesVideo) return;
    this.view = { ...this.view, decodesVideo };
    void this.begin();
  }

  stop(): void {
    this.generation += 1;
    this.abort.abort();
    this.abort = new AbortController();
    this.unwatched = false;
    this.stopStream();
    // Whoever stops the session knows it stopped: no `changed` for it.
    if (this.current !== 'idle') this.enter('idle', { quietly: true });
  }

  /** No server stays on the phone while nobody receives frames; it starts again when someone does. */
  watch(watched: boolean): void {
    if (!watched && this.stream) {
      this.stop();
      this.unwatched = true;
    } else if (watched && this.unwatched) {
      this.unwatched = false;
      void this.begin();
    }
  }

  /** A window lost packets or joined late; false when no stream runs. */
  requestKeyFrame(): boolean {
    if (!this.stream?.running) return false;
    this.stream.requestKeyFrame();
    return true;
  }

  /** The control socket of the live stream of `serial`; null otherwise (the caller uses adb input). */
  control(serial: string): VideoControl | null {
    return this.serial === serial && this.live && this.stream?.running ? this.stream : null;
  }

  /** Resolves when a restart under way ends, or after `waitMs`; at once when none runs. */
  async restartEnded(waitMs: number): Promise<void> {
    if (this.restartSettled) await Promise.race([this.restartSettled.done, new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
  }

  private async begin(): Promise<void> {
    const serial = this.serial;
    if (serial === null) return;
    if (this.current !== 'restarting') this.enter('starting');
    const generation = this.generation;
    const stillCurrent = () => this.generation === generation;
    if (!this.view.decodesVideo) {
      this.fellBack(fallbackOf(say('video.cannotDecode'), say('video.fixCannotDecode')));
      return;
    }
    if (!(await this.options.enabled())) {
      if (!stillCurrent()) return;
      this.fellBack(fallbackOf(say('video.off'), say('video.fixOff', { videoSetting: 'helpers.videoMirror', videoSection: settingInForm('helpers', 'videoMirror').section })));
      return;
    }
    try {
      const stream = await this.options.source.start(
        serial,
        this.view.maxSize,
        {
          frame: (meta, bytes) => {
            if (stillCurrent()) this.onFrame(meta, bytes);
          },
          ended: (reason, displayChanged) => {
            if (stillCurrent()) this.onEnded(reason, displayChanged);
          },
        },
        this.abort.signal,
      );
      if (stillCurrent()) this.stream = stream;
      else stream.stop();
    } catch (error) {
      if (stillCurrent() && !isAbortError(error)) {
        this.fellBack(error instanceof VideoUnavailableError ? { reason: error.message, fix: error.fix, said: error.said } : { reason: message(error), fix: null });
      }
    }
  }

  private onFrame(meta: FrameMeta, bytes: Uint8Array): void {
    if (!this.live) {
      this.restartsInARow = 0;
      this.fallbackNow = null;
      this.enter('live');
    }
    const viewers = this.options.viewers();
    // A window that just subscribed cannot decode before a key frame.
    if (viewers > this.viewersSeen) this.stream?.requestKeyFrame();
    this.viewersSeen = viewers;
    this.options.frame(meta, bytes);
  }

  private onEnded(reason: string, displayChanged: boolean): void {
    this.stream = null;
    this.viewersSeen = 0;
    if (!displayChanged) {
      this.fellBack({ reason, fix: null });
      return;
    }
    this.restartsInARow += 1;
    const limit = this.options.maxRestarts ?? DEFAULT_MAX_RESTARTS;
    if (this.restartsInARow > limit) {
      this.fellBack(fallbackOf(say('video.displayKeptChanging', { times: this.restartsInARow }), null));
      return;
    }
    this.enter('restarting');
    void this.begin();
  }

  private fellBack(fallback: VideoFallback): void {
    this.stopStream();
    this.fallbackNow = fallback;
    this.enter('fell-back');
  }

  private stopStream(): void {
    this.stream?.stop();
    this.stream = null;
    this.viewersSeen = 0;
  }

  private enter(next: VideoSessionState, { quietly = false } = {}): void {
    this.current = move(this.current, next);
    if (next === 'restarting') {
      if (!this.restartSettled) {
        let settle = () => {};
        const done = new Promise<void>((resolve) => (settle = resolve));
        this.restartSettled = { done, settle };
      }
    } else {
      this.restartSettled?.settle();
      this.restartSettled = null;
    }
    if (!quietly) this.options.changed();
  }
}
