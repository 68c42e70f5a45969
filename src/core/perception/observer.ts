import { createHash } from 'node:crypto';
import type { DumpSource, Scene } from '../../shared/scene';
import type { AdbClient } from '../device/adb-client';
import { connectionOf } from '../device/device-info';
import { PhoneFacts } from '../device/android/phone-facts';
import { appProcess } from '../device/android/app-process';
import { dumpsys, FOCUS_LINES, INPUT_SHOWN_LINE, parseDisplayInfo } from '../device/android/dumpsys';
import { screencap } from '../device/android/screencap';
import { inTurn, shellLine, silenced, whileSucceeding } from '../device/android/shell-line';
import { uiautomator } from '../device/android/uiautomator';
import { parseWmSize, wm } from '../device/android/wm';
import { isAbortError, isPhoneUnreachable, sleep, throwIfAborted } from '../device/errors';
import { HELPERS } from '../device/helpers/catalog';
import type { PhoneHelpers } from '../device/helpers/phone-helpers';
import { buildScene } from './scene-builder';
import { screenFacts, type ScreenSizeSource } from './screen-facts';
import {
  DEFAULT_SCREENSHOT_ENCODING,
  encodeScreenshot,
  pngFromScreencap,
  rawFrameFromScreencap,
  type EncodedScreenshot,
  type ScreenshotEncoding,
} from './screenshot';
import { warmUpPngWorker } from './png-worker';
import { parseUiHierarchy, type UiHierarchy } from './ui-hierarchy';

export interface ObserverOptions {
  /** How a look's screenshot is downscaled and encoded when the look is not told (`ObserveOptions.screenshot`); `false`: none. */
  screenshot?: Partial<ScreenshotEncoding> | false;
  /**
   * `png` runs `screencap -p`: ~100 kB to move, but the phone spends up to seconds encoding it and the host
   * ~5-10 ms decoding it (in the PNG worker, see png-worker.ts). `raw` moves raw pixels (~10 MB at 1080x2400): quick for the phone, and received straight
   * into a reused buffer. `auto` (default) picks raw for USB and emulator serials, where the phone's PNG encoding
   * is the bottleneck, and png for network devices, where transfer size is.
   */
  screencap?: 'auto' | 'png' | 'raw';
  dumpTimeoutMs?: number;
  screenshotTimeoutMs?: number;
  /** Pause before the one retry of a failed dump, letting an animation settle. */
  retrySettleMs?: number;
  /** Where yadb is on the phone (pushed there for typing); its layout dump is the way round a screen that never goes idle. */
  yadbDevicePath?: string;
  /**
   * The phone helpers of this process: when uiautomator cannot read a screen that never goes idle, yadb is pushed
   * (once per phone) before its layout dump is tried, so a phone yadb was never pushed to is read too. Without them,
   * only a yadb already on the phone is tried.
   */
  helpers?: Pick<PhoneHelpers, 'ensure'>;
  /** Readings made while a phone waited (see idle-readings.ts): the first observation of a screen still showing one uses it. */
  readings?: ReadingSource;
}

/**
 * A phone's UI layout read while it waited, with the fingerprint of its screen: the layout still holds while a fresh
 * screenshot has the same fingerprint, and the 1-2 s `uiautomator dump` can be spared.
 */
export interface ScreenReading {
  fingerprint: string;
  layout: { read: UiHierarchy; source: DumpSource };
}

export interface ReadingSource {
  /** The reading of `serial` made while it waited, handed out once. */
  take(serial: string): ScreenReading | undefined;
}

export interface ObserveOptions {
  signal?: AbortSignal;
  /** The most tokens the Scene may take (Settings: `perception.sceneTokenBudget`); see `buildScene`. */
  sceneTokenBudget?: number;
  /**
   * Read the layout on a settled screen: between two equal screen fingerprints (the first taken while the layout is
   * read, the second after), read again while they differ, up to SETTLE_READS layout reads. Costs one screencap more
   * than a plain observation on a still screen, and never a fixed sleep.
   */
  settle?: boolean;
  /** This look's screenshot: how it is downscaled and encoded, or `false` for none; absent: the Observer's own choice. */
  screenshot?: Partial<ScreenshotEncoding> | false;
}

export interface ObservationTimings {
  totalMs: number;
  screenshotMs?: number;
  dumpMs?: number;
  /** The layout came from the reading made while the phone waited: no dump was waited for. */
  layoutReadAhead?: boolean;
}

/**
 * One look at the phone. `screenshot` is for the AI planner only (Perception Boundary): every other
 * consumer reads `scene` and must not keep the bytes.
 */
export interface Observation {
  /** null when the UI could not be read even after the retry; `sceneError` says why. */
  scene: Scene | null;
  sceneError?: string;
  screenshot?: EncodedScreenshot;
  /** Why there is no screenshot (not an error: the Scene alone is enough to go on). */
  screenshotError?: string;
  /** The screen's fingerprint (see `screenFingerprint`) when the layout was read on it, for a later look to compare with. */
  fingerprint?: string;
  /** A settling observation read the layout between two equal fingerprints (the screen held still). */
  settled?: boolean;
  timings: ObservationTimings;
}

const DUMP_TO_TTY = uiautomator.dump('/dev/tty');
const DUMP_FILE = '/sdcard/window_dump.xml';
const DUMP_TO_FILE = whileSucceeding(silenced(uiautomator.dump(DUMP_FILE)), shellLine(['cat', DUMP_FILE]));
/**
 * After uiautomator could not get an idle state, the next observations go to yadb first, which does not wait for it
 * (not waiting out uiautomator's idle timeout again on every turn); then uiautomator is given another chance.
 */
const YADB_FIRST_TURNS = 4;
const YADB_LAYOUT_FILE = '/data/local/tmp/amc_layout.xml';
const yadbLayoutCommand = (devicePath: string) =>
  whileSucceeding(
    appProcess.run({ classPath: devicePath, mainClass: HELPERS.yadb.mainClass }, '/data/local/tmp', ['-layout', YADB_LAYOUT_FILE]),
    shellLine(['cat', YADB_LAYOUT_FILE]),
  );
/**
 * Layout reads a settling observation makes at most before it takes the last one as it is: a screen that keeps moving
 * (a loading bar, a video) does not hold a flow up; Maestro gives up its settle wait after ten 200 ms polls likewise.
 */
const SETTLE_READS = 4;
/**
 * What every observation asks besides the dump, in one shell: the focus, the keyboard and the natural size (`wm size`
 * is asked each time, so a size changed by `wm size WxH` is seen at once and the phone's kept facts follow it).
 */
const FACTS_COMMAND = inTurn(dumpsys.grepped(dumpsys.window(), FOCUS_LINES), dumpsys.grepped(dumpsys.inputMethod(), INPUT_SHOWN_LINE), wm.size());

const elapsed = (start: number) => Math.round((performance.now() - start) * 10) / 10;
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Reads the phone: UI dump (-> Scene), screen facts and screenshot, all in parallel. */
export class Observer {
  private readonly encoding: ScreenshotEncoding | null;
  /** What stays true of each phone on this adb connection, shared with the tools and the app. */
  private readonly facts: PhoneFacts;
  /**
   * Serials whose screen did not go idle and whose yadb read it: how many more observations go to yadb first before
   * uiautomator (which also sees the status bar and other windows) is tried first again.
   */
  private readonly yadbFirst = new Map<string, number>();
  /** Serials whose `uiautomator dump /dev/tty` prints no XML: they dump to a file instead. */
  private readonly dumpViaFile = new Set<string>();
  /**
   * Buffers that screencaps (~10 MB raw, ~0.1-1 MB PNG) are received into, reused from one observation to the next:
   * a fresh 10 MB of socket chunks per observation costs more host CPU (copies, page faults, garbage collection)
   * than encoding the image. One per observation running at a time, kept while the Observer lives. A raw frame's
   * pixels are rewritten in place by `encodeScreenshot`, which is why each is the Observer's own.
   */
  private readonly frameBuffers: Buffer[] = [];
  /** How long the last layout read and screencap took per serial: when a settling observation's closing screencap starts. */
  private readonly readTimes = new Map<string, { dumpMs: number; printMs: number }>();

  constructor(
    private readonly adb: Pick<AdbClient, 'shellInto' | 'execInto'>,
    private readonly options: ObserverOptions = {},
  ) {
    this.encoding = options.screenshot === false ? null : { ...DEFAULT_SCREENSHOT_ENCODING, ...options.screenshot };
    this.facts = PhoneFacts.of(adb);
  }

  /**
   * Rejects with AbortError when aborted, and with the AdbError when the phone cannot be reached at all
   * (not found, offline, unauthorised, no adb server); an unreadable screen is `sceneError` instead.
   */
  async observe(serial: string, { signal, sceneTokenBudget, settle, screenshot: told }: ObserveOptions = {}): Promise<Observation> {
    throwIfAborted(signal);
    const encoding = told === undefined ? this.encoding : told === false ? null : { ...DEFAULT_SCREENSHOT_ENCODING, ...told };
    const start = performance.now();
    const timings: ObservationTimings = { totalMs: 0 };
    const ahead = this.options.readings?.take(serial);
    let fingerprint: ((print: string) => void) | undefined;
    let printed: Promise<string> | undefined;
    if ((ahead || settle) && encoding) printed = new Promise<string>((resolve) => (fingerprint = resolve));
    // No screenshot for the planner: one screencap only to compare with the reading (or the layout read after it).
    else if (ahead || settle) printed = this.screenFingerprint(serial, signal).catch(rethrowAbort(() => ''));
    const screenshotTask = encoding ? this.captureScreenshot(serial, encoding, signal, timings, fingerprint) : undefined;
    const hierarchyTask =
      ahead && printed
        ? this.layoutUnlessUnchanged(serial, ahead, printed, signal, timings)
        : settle && printed
          ? this.settledLayout(serial, printed, signal, timings)
          : this.dumpWithRetry(serial, signal, timings);
    const factsTask = this.shellText(serial, FACTS_COMMAND, { signal, timeoutMs: 10_000 }).catch(rethrowAbort(() => ''));
    const sizeTask = factsTask.then((factsOutput) => this.screenSizeSource(serial, factsOutput, signal));

    const [screenshot, hierarchy, factsOutput, sizeSource] = await Promise.all([
      screenshotTask,
      hierarchyTask,
      factsTask,
      sizeTask,
    ]).catch((error: unknown) => {
      // A phone that cannot be reached may come back as another (a reconnect, another phone at its address): its facts go.
      if (isPhoneUnreachable(error)) this.facts.forget(serial);
      throw error;
    });
    throwIfAborted(signal);
    const observation: Observation = { scene: null, timings };
    if (screenshot && 'bytes' in screenshot) observation.screenshot = screenshot;
    else if (screenshot) observation.screenshotError = screenshot.error;
    const print = 'fingerprint' in hierarchy ? hierarchy.fingerprint : undefined;
    if (typeof print === 'string') observation.fingerprint = print;
    if ('settled' in hierarchy && hierarchy.settled) observation.settled = true;
    if ('error' in hierarchy) observation.sceneError = hierarchy.error;
    else {
      const facts = screenFacts(hierarchy.read, factsOutput, sizeSource);
      const scene = buildScene(hierarchy.read, facts, sceneTokenBudget === undefined ? {} : { tokenBudget: sceneTokenBudget });
      observation.scene = { ...scene, dump: hierarchy.source };
    }
    timings.totalMs = elapsed(start);
    return observation;
  }

  /**
   * The layout of the reading made while the phone waited when a fresh screenshot shows the same screen; otherwise a
   * dump, after the screenshot: a dump begun alongside would slow the screencap on the phone in the usual case, to
   * spare a screencap's time in the rare one.
   */
  private async layoutUnlessUnchanged(
    serial: string,
    ahead: ScreenReading,
    printed: Promise<string>,
    signal: AbortSignal | undefined,
    timings: ObservationTimings,
  ): Promise<{ read: UiHierarchy; source: DumpSource } | { error: string }> {
    if ((await printed) !== ahead.fingerprint) return this.dumpWithRetry(serial, signal, timings);
    timings.layoutReadAhead = true;
    return ahead.layout;
  }

  /**
   * The layout read between two equal fingerprints of the screen. `before` is taken as the read starts; more follow it
   * one after another while the layout is read, and the closing one is timed to end as the read does (from this
   * phone's last read times; at once when the read ends sooner; without times yet, the first to end after the read
   * closes it). A fingerprint that differs from the one before it means the screen moved: the read is stopped at once
   * (its dump ended, not waited out) and begun again with that fingerprint as its first, so a dialog that shows late
   * costs the time until it shows plus one read. Up to SETTLE_READS reads, the last taken as it is. A failed screencap
   * ('') cannot tell: the layout stands as read.
   */
  private async settledLayout(
    serial: string,
    before: Promise<string>,
    signal: AbortSignal | undefined,
    timings: ObservationTimings,
  ): Promise<({ read: UiHierarchy; source: DumpSource } | { error: string }) & { fingerprint?: string; settled?: boolean }> {
    let first = before;
    for (let reads = 1; ; reads++) {
      const lastRead = reads >= SETTLE_READS;
      const stopRead = new AbortController();
      const readSignal = signal ? AbortSignal.any([signal, stopRead.signal]) : stopRead.signal;
      const started = performance.now();
      let read: { layout: { read: UiHierarchy; source: DumpSource } | { error: string }; dumpMs: number } | undefined;
      // Settles (to the error, if any) without rejecting: an abort met while a fingerprint is taken is not left unhandled.
      const dumped = this.dumpWithRetry(serial, readSignal, timings).then(
        (layout) => void (read = { layout, dumpMs: performance.now() - started }),
        (error: unknown) => error,
      );
      const known = this.readTimes.get(serial);
      const readFailed = () => read !== undefined && 'error' in read.layout;
      let closingStarted = false;
      const closing = known
        ? Promise.race([sleep(Math.max(0, known.dumpMs - known.printMs), readSignal).catch(() => undefined), dumped]).then(() => {
            if (readSignal?.aborted) return { print: '', printMs: 0 };
            closingStarted = true;
            return this.timedFingerprint(serial, readSignal);
          })
        : undefined;
      // Handled where it is awaited; until then, a stopped closing fingerprint is not an unhandled rejection.
      closing?.catch(() => undefined);
      const settle = async (): Promise<{ print: string; moved: boolean; printMs: number }> => {
        let print = await first;
        let printMs = known?.printMs ?? 0;
        let endedAfterRead = false;
        /** Takes the next fingerprint: whether it shows a screen other than the one before it. */
        const next = async (taking: Promise<{ print: string; printMs: number }>) => {
          const seen = await taking;
          const moved = Boolean(seen.print) && seen.print !== print;
          ({ print, printMs } = seen);
          endedAfterRead = read !== undefined;
          return moved;
        };
        const moved = () => ({ print, printMs, moved: true });
        // Watching while the layout is read, until the closing fingerprint starts (without times, until the read ends).
        while (print && !readFailed() && !endedAfterRead && !(known && closingStarted)) if (await next(this.timedFingerprint(serial, signal))) return moved();
        if (print && closing && !readFailed() && !endedAfterRead && (await next(closing))) return moved();
        // The closing fingerprint ended before the read did (it ran longer than last time): one more closes it.
        while (print && !readFailed() && !endedAfterRead) if (await next(this.timedFingerprint(serial, signal))) return moved();
        return { print, printMs, moved: false };
      };
      const seen = await settle().catch(async (error: unknown) => {
        stopRead.abort();
        await Promise.all([dumped, closing?.catch(() => undefined)]);
        throw error;
      });
      const again = seen.moved && !lastRead;
      // Stops the dump when it is read again, and a closing fingerprint no longer needed (the last read is waited out).
      if (again || read) stopRead.abort();
      const failure = await dumped;
      await closing?.catch(() => undefined);
      if (failure && !(again && isAbortError(failure) && !signal?.aborted)) throw failure;
      if (read && 'error' in read.layout) return read.layout;
      if (read && !failure) this.readTimes.set(serial, { dumpMs: read.dumpMs, printMs: seen.printMs });
      if (again) {
        first = Promise.resolve(seen.print);
        continue;
      }
      return { ...read!.layout, ...(seen.print && { fingerprint: seen.print, settled: !seen.moved }) };
    }
  }

  /** `screenFingerprint` and how long it took; '' when the screencap failed (an abort is let through). */
  private async timedFingerprint(serial: string, signal: AbortSignal | undefined): Promise<{ print: string; printMs: number }> {
    const started = performance.now();
    const print = await this.screenFingerprint(serial, signal).catch(rethrowAbort(() => ''));
    return { print, printMs: performance.now() - started };
  }

  /** The fingerprint of what the phone shows now (one screencap, not decoded). */
  async screenFingerprint(serial: string, signal?: AbortSignal): Promise<string> {
    const into = this.frameBuffers.pop() ?? Buffer.alloc(0);
    let output = into;
    try {
      output = await this.screencap(serial, into, signal);
      return fingerprintOf(output);
    } finally {
      this.frameBuffers.push(output.buffer === into.buffer ? into : output);
    }
  }

  /**
   * The phone's layout with the fingerprint of its screen, for a later observation to use (see ReadingSource): null
   * when the layout could not be read or the screen changed while it was read (the fingerprints before and after differ).
   */
  async readAhead(serial: string, signal?: AbortSignal): Promise<ScreenReading | null> {
    const before = await this.screenFingerprint(serial, signal);
    let read: UiHierarchy;
    try {
      read = await this.dump(serial, signal);
    } catch (error) {
      if (isAbortError(error) || isPhoneUnreachable(error)) throw error;
      return null;
    }
    const after = await this.screenFingerprint(serial, signal);
    return before === after ? { fingerprint: after, layout: { read, source: 'uiautomator' } } : null;
  }

  private screencap(serial: string, into: Buffer, signal: AbortSignal | undefined): Promise<Buffer> {
    const options = { signal, timeoutMs: this.options.screenshotTimeoutMs ?? 10_000 };
    return takesRawScreencaps(serial, this.options.screencap) ? this.adb.execInto(serial, screencap.raw(), into, options) : this.adb.shellInto(serial, screencap.png(), into, options);
  }

  private async captureScreenshot(
    serial: string,
    encoding: ScreenshotEncoding,
    signal: AbortSignal | undefined,
    timings: ObservationTimings,
    fingerprint?: (print: string) => void,
  ): Promise<EncodedScreenshot | { error: string }> {
    const start = performance.now();
    const raw = takesRawScreencaps(serial, this.options.screencap);
    const into = this.frameBuffers.pop() ?? Buffer.alloc(0);
    let output = into;
    if (!raw) warmUpPngWorker();
    try {
      output = await this.screencap(serial, into, signal);
      // Before encoding: a raw frame's pixels are rewritten in place.
      fingerprint?.(fingerprintOf(output));
      return await encodeScreenshot(raw ? rawFrameFromScreencap(output) : { png: pngFromScreencap(output) }, encoding);
    } catch (error) {
      if (isAbortError(error)) throw error;
      return { error: `No screenshot: ${message(error)}` };
    } finally {
      // No fingerprint when the screencap failed: the layout is read afresh.
      fingerprint?.('');
      // The buffer received into, or the larger one made when the capture did not fit, serves the next capture.
      this.frameBuffers.push(output.buffer === into.buffer ? into : output);
      timings.screenshotMs = elapsed(start);
    }
  }

  /**
   * `uiautomator dump` waits for the screen to go idle, and fails ("could not get idle state") or times out on a
   * screen with a video, an animation or a ticking clock. Then yadb's layout dump, which does not wait, is tried at
   * once (when yadb is on the phone), and first for the next few observations; failing that, uiautomator once more
   * after a short settle.
   */
  private async dumpWithRetry(
    serial: string,
    signal: AbortSignal | undefined,
    timings: ObservationTimings,
  ): Promise<{ read: UiHierarchy; source: DumpSource } | { error: string }> {
    const start = performance.now();
    try {
      const yadbTurns = this.yadbFirst.get(serial) ?? 0;
      if (yadbTurns > 0) {
        const viaYadb = await this.yadbDump(serial, signal);
        if (viaYadb) {
          this.yadbFirst.set(serial, yadbTurns - 1);
          return { read: viaYadb, source: 'yadb' };
        }
        this.yadbFirst.delete(serial);
      }
      let unreachable = false;
      try {
        return { read: await this.dump(serial, signal), source: 'uiautomator' };
      } catch (error) {
        if (isAbortError(error)) throw error;
        unreachable = isPhoneUnreachable(error);
      }
      // A dropped connection is not a screen that never goes idle: only the retry after a settle can help it.
      let yadbSaid = 'yadb is not on the phone';
      if (!unreachable) {
        const onPhone = await this.yadbOnPhone(serial, signal);
        if (onPhone.ready) {
          const viaYadb = await this.yadbDump(serial, signal, onPhone.devicePath);
          if (viaYadb) {
            this.yadbFirst.set(serial, YADB_FIRST_TURNS);
            return { read: viaYadb, source: 'yadb' };
          }
          yadbSaid = "yadb's layout dump failed too";
        } else yadbSaid = onPhone.reason;
      }
      await sleep(this.options.retrySettleMs ?? 300, signal);
      try {
        return { read: await this.dump(serial, signal), source: 'uiautomator' };
      } catch (error) {
        if (isAbortError(error) || isPhoneUnreachable(error)) throw error;
        throw new Error(`${message(error)}; ${yadbSaid}`);
      }
    } catch (error) {
      if (isAbortError(error) || isPhoneUnreachable(error)) throw error;
      return { error: `The screen's UI could not be read (uiautomator dump failed twice, and yadb could not read it either): ${message(error)}` };
    } finally {
      timings.dumpMs = elapsed(start);
    }
  }

  /**
   * yadb on the phone: pushed there by the phone helpers when this process has them (a phone it was never pushed to,
   * a fresh phone), else wherever it was put before.
   */
  private async yadbOnPhone(serial: string, signal: AbortSignal | undefined): Promise<{ ready: true; devicePath: string } | { ready: false; reason: string }> {
    if (!this.options.helpers) return { ready: true, devicePath: this.options.yadbDevicePath ?? HELPERS.yadb.devicePath };
    return this.options.helpers.ensure(serial, 'yadb', signal);
  }

  /** yadb's layout dump, or undefined when yadb is not on the phone or could not read the screen. */
  private async yadbDump(serial: string, signal: AbortSignal | undefined, devicePath = this.options.yadbDevicePath ?? HELPERS.yadb.devicePath): Promise<UiHierarchy | undefined> {
    try {
      const output = await this.shellText(serial, yadbLayoutCommand(devicePath), { signal, timeoutMs: this.options.dumpTimeoutMs ?? 20_000 });
      return parseUiHierarchy(output);
    } catch (error) {
      if (isAbortError(error) || isPhoneUnreachable(error)) throw error;
      return undefined;
    }
  }

  private async dump(serial: string, signal: AbortSignal | undefined): Promise<UiHierarchy> {
    const options = { signal, timeoutMs: this.options.dumpTimeoutMs ?? 20_000 };
    if (!this.dumpViaFile.has(serial)) {
      const output = await this.shellText(serial, DUMP_TO_TTY, options);
      if (output.includes('<hierarchy') || /ERROR/.test(output)) return parseUiHierarchy(output);
      this.dumpViaFile.add(serial);
    }
    return parseUiHierarchy(await this.shellText(serial, DUMP_TO_FILE, options));
  }

  /**
   * The natural size the facts command's `wm size` said (the phone's kept size follows it), else the size kept for the
   * phone, else `dumpsys display` (asked each time: its current size turns with the screen), else nothing.
   */
  private async screenSizeSource(serial: string, factsOutput: string, signal: AbortSignal | undefined): Promise<ScreenSizeSource> {
    const said = parseWmSize(factsOutput);
    if (said) {
      this.facts.learnSize(serial, said);
      return { natural: said };
    }
    const options = { signal, timeoutMs: 10_000 };
    const natural = await this.facts.naturalSize(serial, (command) => this.shellText(serial, command, options).catch(rethrowAbort(() => '')));
    if (natural) return { natural };
    return parseDisplayInfo(await this.shellText(serial, dumpsys.display(), options).catch(rethrowAbort(() => '')));
  }

  /** A shell command's output as text, through the adb client's lean path (every observation runs two or three). */
  private async shellText(serial: string, command: string, options: { signal: AbortSignal | undefined; timeoutMs: number }): Promise<string> {
    return (await this.adb.shellInto(serial, command, Buffer.alloc(0), options)).toString('utf8');
  }
}

/** Whether `serial`'s screenshots come as raw pixels; otherwise as `screencap -p`, decoded in the PNG worker. */
export function takesRawScreencaps(serial: string, mode: ObserverOptions['screencap'] = 'auto'): boolean {
  return mode === 'raw' || (mode === 'auto' && (connectionOf(serial) === 'usb' || /^emulator-\d+$/.test(serial)));
}

/** Same bytes from the phone's screencap, same screen. */
function fingerprintOf(screencap: Buffer): string {
  return createHash('sha1').update(screencap).digest('base64');
}

/** A catch handler that lets aborts through and turns other failures into a fallback value. */
function rethrowAbort<T>(fallback: () => T): (error: unknown) => T {
  return (error) => {
    if (isAbortError(error)) throw error;
    return fallback();
  };
}
