import sharp from 'sharp';
import { USER_APPS } from './apps/index';
import { amCommand, monkeyCommand, wmCommand } from './commands/activity';
import { bugreportzCommand } from './commands/bugreport';
import { svcCommand } from './commands/radios';
import { appProcessCommand, killCommand } from './commands/app-process';
import { cmdCommand } from './commands/cmd';
import { dateCommand } from './commands/date';
import { dumpsysCommand } from './commands/dumpsys';
import { logcatCommand } from './commands/logcat';
import { packageCommand } from './commands/packages';
import { pidofCommand, psCommand } from './commands/processes';
import { testCommand } from './commands/test';
import { echo, falseCommand, getprop, sleep, trueCommand } from './commands/basic';
import type { PhoneServices } from './commands/context';
import { catCommand, grepCommand, headCommand, lsCommand, mkdirCommand, rmCommand } from './commands/files';
import { imeCommand } from './commands/ime';
import { inputCommand } from './commands/input';
import { screencapCommand, uiautomatorCommand } from './commands/screen';
import { settingsCommand } from './commands/settings';
import { PhoneFaultSchema, type PhoneFault, type PhoneFaultKind } from './faults';
import { FsError, VirtualFileSystem } from './file-system';
import { HelperProcessTable } from './helper-processes';
import { LocalSocketNamespace } from './local-sockets';
import type { ScrcpyHost } from './scrcpy/server';
import type { ScreenFrame } from './scrcpy/video-stream';
import { abortableDelay, framePacing, latencyMs, waitForAbort, type LatencyKind, type LatencyProfileName } from './latency';
import { APP_PACKAGES, dataFromSeed, type PhoneData, type PhoneState } from './model';
import { browserShows } from './apps/browser';
import { PhoneLog } from './log';
import { drawLoadingBar } from './loading-bar';
import { displayRotation } from './display-rotation';
import { LoopbackNetwork } from './loopback';
import { netcatCommand } from './commands/netcat';
import { DEVICE_IDENTITY, SCREEN_HEIGHT, SCREEN_WIDTH, SYSTEM_PROPERTIES } from './properties';
import type { PhoneFramebuffer, ShellOptions } from '../phone-contract';
import { ShellInterpreter, type CommandHandler, type CommandOutput } from './shell/interpreter';
import { PhoneUi } from './ui/phone-ui';
import { drawWindows, encodePng, renderPng, renderRgba, type Drawing } from './ui/render';
import { hierarchyXml } from './ui/xml';

export type { PhoneState, PhoneStateView } from './model';

export interface VirtualPhoneOptions {
  profile?: LatencyProfileName;
  seed?: unknown;
}

type OneShotFault = Extract<PhoneFaultKind, 'hang' | 'idle-state-error' | 'corrupt-screencap' | 'push-refused' | 'scrcpy-crash'>;
const POPUP_TITLE = 'Battery is low';

/** The XML and drawing of one screen state (snapshot key), kept until the screen changes. */
interface RenderCache {
  key: string;
  xml?: string;
  drawing?: Drawing;
}

/**
 * Pixels of one drawing. Keyed by the drawing itself, not the screen state: an input that changes nothing visible
 * (Home on the home screen, a tap on a label) gives the same drawing, and composing it again would give the same
 * pixels for CPU spent in vain.
 */
interface PixelCache {
  drawing: Drawing;
  png?: Promise<Buffer>;
  rgba?: Promise<Buffer>;
}

/**
 * The simulated Android phone: shell, screen, apps and state. It knows nothing about adb; the transport
 * calls `shell()` and the file system, the control API calls `state()`, `reset()`, `injectFault()`.
 */
export class VirtualPhone {
  readonly fs = new VirtualFileSystem((path) => {
    if (this.takeFault('push-refused')) throw new FsError('EACCES', path);
  });
  readonly identity = DEVICE_IDENTITY;
  readonly log = new PhoneLog();
  readonly loopback = new LoopbackNetwork();
  readonly localSockets = new LocalSocketNamespace();
  private readonly helpers = new HelperProcessTable();
  private profile: LatencyProfileName;
  private data: PhoneData;
  private readonly ui: PhoneUi;
  private pendingFaults: OneShotFault[] = [];
  private readonly extraSettings = new Map<string, string>();
  private renderCache: RenderCache = { key: '' };
  private pixelCache?: PixelCache;
  private readonly interpreter: ShellInterpreter;
  private loadingBarRunning = false;

  constructor(options: VirtualPhoneOptions = {}) {
    this.profile = validProfile(options.profile ?? 'instant');
    const { data, foreground } = dataFromSeed(options.seed);
    this.data = data;
    this.ui = new PhoneUi(data, USER_APPS, this.log);
    if (foreground) this.ui.startApp(foreground);
    this.interpreter = new ShellInterpreter(this.commandTable(), this.fs);
  }

  /**
   * Runs one shell command line with adb's stdin, streaming stdout to `onStdout` when given. Rejects with the
   * signal's reason when aborted.
   */
  async shell(command: string, options: ShellOptions): Promise<CommandOutput> {
    options.signal.throwIfAborted();
    if (this.takeFault('hang')) return waitForAbort(options.signal);
    await abortableDelay(latencyMs(this.profile, 'command'), options.signal);
    return this.interpreter.run(command, options);
  }

  state(): PhoneState {
    const snapshot = this.ui.snapshot();
    const data = structuredClone(this.data);
    return {
      foreground: snapshot.foreground,
      activity: snapshot.activity,
      screenOn: this.ui.isScreenOn,
      locked: this.ui.isLocked,
      shadeExpanded: this.ui.isShadeExpanded,
      keyboardShown: this.ui.isKeyboardShown,
      focusedField: this.ui.focusedFieldResourceId(),
      dialog: snapshot.dialog,
      settings: data.settings,
      contactsPermission: data.contactsPermission,
      contacts: data.contacts,
      alarms: data.alarms,
      notes: data.notes,
      messages: { sent: data.sent, conversations: data.conversations },
      ime: { current: this.ui.imeId, adbKeyboardInstalled: data.adbKeyboardInstalled },
      browser: browserShows(this.ui.topScreenOf(APP_PACKAGES.browser), data.settings),
      profile: this.profile,
    };
  }

  /** Restores the phone to `seed` (or the defaults). Throws a readable Error, changing nothing, when the seed is invalid. */
  reset(seed?: unknown): void {
    const { data, foreground } = dataFromSeed(seed);
    this.data = data;
    this.pendingFaults = [];
    this.helpers.killAll();
    this.extraSettings.clear();
    this.fs.clear();
    this.log.clear();
    this.loadingBarRunning = false;
    this.ui.reset(data, foreground);
  }

  /** Starts or stops the loading bar the display redraws every frame (loading-bar.ts). */
  setLoadingBar(running: boolean): void {
    this.loadingBarRunning = running;
  }

  bringToFront(pkg: string | undefined): void {
    if (pkg) this.ui.startApp(pkg);
    else this.ui.goHome();
  }

  get loadingBar(): boolean {
    return this.loadingBarRunning;
  }

  setProfile(profile: LatencyProfileName): void {
    this.profile = validProfile(profile);
  }

  injectFault(fault: PhoneFault): void {
    const parsed = PhoneFaultSchema.safeParse(fault);
    if (!parsed.success) throw new Error(`Unknown phone fault: ${JSON.stringify(fault)}`);
    const kind = parsed.data.kind;
    if (kind === 'popup-dialog') this.ui.showSystemDialog(POPUP_TITLE);
    else if (kind === 'screen-off') this.ui.setScreenOn(false);
    else this.pendingFaults.push(kind);
  }

  /** Faults still pending or in effect (an undismissed pop-up, a screen that is still off). */
  faults(): Array<{ kind: PhoneFaultKind }> {
    const active: PhoneFaultKind[] = [...this.pendingFaults];
    if (this.ui.hasSystemDialog()) active.push('popup-dialog');
    if (!this.ui.isScreenOn) active.push('screen-off');
    return active.map((kind) => ({ kind }));
  }

  /** The current screen as PNG, rendered once per screen state (faults and latency do not apply). */
  async screenshotPng(): Promise<Buffer> {
    if (this.loadingBarRunning) {
      const raw = { width: SCREEN_WIDTH, height: SCREEN_HEIGHT, channels: 4 } as const;
      return sharp(await this.screenshotRgba(), { raw }).png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer();
    }
    const pixels = this.currentPixels();
    // Raw pixels already composed are encoded as they are; otherwise the PNG is composed in a reused buffer.
    pixels.png ??= pixels.rgba ? pixels.rgba.then(encodePng) : renderPng(pixels.drawing);
    return pixels.png;
  }

  /** The current screen as raw RGBA (the framebuffer service), rendered once per screen state. */
  async framebuffer(): Promise<PhoneFramebuffer> {
    return { width: SCREEN_WIDTH, height: SCREEN_HEIGHT, rgba: await this.screenshotRgba() };
  }

  /**
   * The drawing's pixels with its key (it changes exactly when they may), and while the loading bar runs the
   * capture time to draw it at: the video draws it at its own size, after scaling.
   */
  private async screenFrame(): Promise<ScreenFrame> {
    const pixels = this.currentPixels();
    pixels.rgba ??= renderRgba(pixels.drawing);
    return { key: pixels.drawing.key, rgba: await pixels.rgba, ...(this.loadingBarRunning && { loadingBarAt: Date.now() }) };
  }

  /** What the screen shows now, the loading bar included. */
  private async screenshotRgba(): Promise<Buffer> {
    const pixels = this.currentPixels();
    pixels.rgba ??= renderRgba(pixels.drawing);
    if (!this.loadingBarRunning) return pixels.rgba;
    const shown = Buffer.from(await pixels.rgba);
    drawLoadingBar(shown, SCREEN_WIDTH, SCREEN_HEIGHT, Date.now());
    return shown;
  }

  private takeFault(kind: PhoneFaultKind): boolean {
    const index = this.pendingFaults.indexOf(kind as OneShotFault);
    if (index < 0) return false;
    this.pendingFaults.splice(index, 1);
    return true;
  }

  private currentRender(): RenderCache {
    const key = this.ui.snapshot().key;
    if (this.renderCache.key !== key) this.renderCache = { key };
    return this.renderCache;
  }

  private currentPixels(): PixelCache {
    const render = this.currentRender();
    const drawing = (render.drawing ??= drawWindows(this.ui.snapshot().windows));
    if (this.pixelCache?.drawing.key !== drawing.key) this.pixelCache = { drawing };
    return this.pixelCache;
  }

  private services(): PhoneServices {
    return {
      ui: this.ui,
      fs: this.fs,
      log: this.log,
      data: () => this.data,
      delay: (kind: LatencyKind, signal: AbortSignal) => abortableDelay(latencyMs(this.profile, kind), signal),
      takeFault: (kind) => this.takeFault(kind),
      screenshotPng: () => this.screenshotPng(),
      screenshotRgba: () => this.screenshotRgba(),
      hierarchyXml: () => {
        const cache = this.currentRender();
        cache.xml ??= hierarchyXml(this.ui.snapshot().windows);
        return cache.xml;
      },
      animating: () => this.loadingBarRunning,
      extraSettings: this.extraSettings,
      helpers: this.helpers,
    };
  }

  private scrcpyHost(): ScrcpyHost {
    return {
      ui: this.ui,
      localSockets: this.localSockets,
      screenWidth: SCREEN_WIDTH,
      screenHeight: SCREEN_HEIGHT,
      screenFrame: () => this.screenFrame(),
      framePacing: () => framePacing(this.profile),
      takeCrash: () => this.takeFault('scrcpy-crash'),
      displayRotation: () => displayRotation(this.extraSettings),
      rotateDevice: () => {
        // As Android's rotateDevice: portrait (0, 2) turns to 1, landscape (1, 3) to 0; auto-rotate frozen.
        this.extraSettings.set('system/accelerometer_rotation', '0');
        this.extraSettings.set('system/user_rotation', String((displayRotation(this.extraSettings) & 1) ^ 1));
      },
      build: {
        manufacturer: SYSTEM_PROPERTIES['ro.product.manufacturer'] ?? '',
        brand: SYSTEM_PROPERTIES['ro.product.brand'] ?? '',
        model: SYSTEM_PROPERTIES['ro.product.model'] ?? '',
        release: SYSTEM_PROPERTIES['ro.build.version.release'] ?? '',
      },
    };
  }

  private commandTable(): Map<string, CommandHandler> {
    const phone = this.services();
    const packageManager = packageCommand(phone);
    return new Map<string, CommandHandler>([
      ['echo', echo],
      ['getprop', getprop],
      ['sleep', sleep],
      ['true', trueCommand],
      ['false', falseCommand],
      ['cat', catCommand(this.fs)],
      ['ls', lsCommand(this.fs)],
      ['rm', rmCommand(this.fs)],
      ['mkdir', mkdirCommand(this.fs)],
      ['grep', grepCommand(this.fs)],
      ['head', headCommand(this.fs)],
      ['tail', headCommand(this.fs, true)],
      ['input', inputCommand(phone)],
      ['am', amCommand(phone)],
      ['monkey', monkeyCommand(phone)],
      ['pm', packageManager],
      ['cmd', cmdCommand(phone, packageManager)],
      ['ps', psCommand(phone)],
      ['pidof', pidofCommand(phone)],
      ['date', dateCommand],
      ['nc', netcatCommand(this.loopback)],
      ['logcat', logcatCommand(phone)],
      ['test', testCommand(this.fs, false)],
      ['[', testCommand(this.fs, true)],
      ['dumpsys', dumpsysCommand(phone)],
      ['wm', wmCommand(phone)],
      ['svc', svcCommand(phone)],
      ['bugreportz', bugreportzCommand(phone)],
      ['settings', settingsCommand(phone)],
      ['ime', imeCommand(phone)],
      ['uiautomator', uiautomatorCommand(phone)],
      ['screencap', screencapCommand(phone)],
      ['app_process', appProcessCommand(phone, this.scrcpyHost())],
      ['kill', killCommand(phone)],
    ]);
  }
}

function validProfile(profile: string): LatencyProfileName {
  if (profile !== 'instant' && profile !== 'realistic') {
    throw new Error(`Unknown latency profile "${profile}" (expected "instant" or "realistic")`);
  }
  return profile;
}
