import { twoDigits } from '../apps/common';
import type { PhoneLog } from '../log';
import type { PhoneData } from '../model';
import { SYSTEM_SERVER_PID } from '../system-processes';
import type { AppDefinition, Screen } from './app';
import { KEY, charForKeyCode, MAX_KEY_CODE } from './keys';
import { AppLayer } from './layers/app-layer';
import { KeyboardLayer } from './layers/keyboard';
import { LockScreenLayer } from './layers/lock-screen';
import type { Overlay } from './layers/overlay';
import { PopupLayer } from './layers/popup';
import { ShadeLayer } from './layers/shade';
import { navigationBarWindow, screenOffWindow, statusBarWindow } from './system-ui';
import { themeFor } from './theme';
import { contains, walk, type TextFieldBinding, type UiWindow, type ViewNode } from './view';

export { ADB_IME_ID, LATIN_IME_ID } from './layers/keyboard';
export { KEY } from './keys';

export interface ScreenSnapshot {
  /** Stable while nothing on screen changes: the render cache key. */
  key: string;
  windows: UiWindow[];
  foreground: string;
  activity: string;
  dialog: string | null;
}

const SWIPE_SLOP = 30;
const LONG_PRESS_MS = 500;
const POPUP_MESSAGE = '15% battery remaining. Turn on Battery Saver to extend battery life.';

/**
 * The phone's window manager and input dispatcher over a stack of layers: the app layer (tasks, home,
 * overview, app dialogs) at the bottom, then the overlays bottom to top (pop-up, keyboard, lock screen, shade),
 * then the system bars. BACK, HOME, typed text and swipes go to the overlays top-down (see `Overlay`), and
 * reach the app layer only when no overlay took them. Every input rebuilds the view tree from the phone data.
 */
export class PhoneUi {
  private readonly keyboard = new KeyboardLayer({
    hasFocusedField: () => this.appLayer.currentScreen()?.focusedField !== undefined,
    typeText: (text) => this.typeIntoField(text),
    deleteBackward: () => this.deleteBackward(),
    pressEnter: () => this.pressEnter(),
  });
  private readonly popup = new PopupLayer(POPUP_MESSAGE);
  private readonly lockScreen = new LockScreenLayer(() => this.data.lockPin);
  private readonly shade = new ShadeLayer(() => this.changed());
  /** Bottom to top. */
  private readonly overlays: readonly Overlay[] = [this.popup, this.keyboard, this.lockScreen, this.shade];
  private readonly appLayer: AppLayer;
  private screenOn = true;
  private version = 0;
  private snapshotCache: ScreenSnapshot | undefined;

  constructor(
    private data: PhoneData,
    apps: readonly AppDefinition[],
    private readonly log?: PhoneLog,
  ) {
    this.appLayer = new AppLayer(data, apps, {
      showKeyboard: () => this.keyboard.request(),
      hideKeyboard: () => this.keyboard.dismiss(),
      activityStarted: (component, pid, cold) => {
        this.log?.add({ pid: SYSTEM_SERVER_PID, priority: 'I', tag: 'ActivityTaskManager', message: `START u0 {act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10200000 cmp=${component}} from uid 2000` });
        if (cold) this.log?.add({ pid: SYSTEM_SERVER_PID, priority: 'I', tag: 'ActivityManager', message: `Start proc ${pid}:${component.split("/")[0]} for next-top-activity {${component}}` });
      },
      appLogged: (line, pid) => {
        // An app's own threads log next to its main thread: the tid differs from the pid, as on a phone.
        if (pid === undefined) this.log?.add({ pid: SYSTEM_SERVER_PID, tid: SYSTEM_SERVER_PID + 27, priority: line.priority, tag: line.tag, message: line.message });
        else this.log?.add({ pid, tid: pid + 31, priority: line.priority, tag: line.tag, message: line.message });
      },
    });
  }

  /** Replaces all data and returns to a fresh, unlocked home screen (optionally opening an app). */
  reset(data: PhoneData, foreground?: string): void {
    this.data = data;
    this.appLayer.reset(data);
    for (const overlay of this.overlays) overlay.reset();
    this.screenOn = true;
    if (foreground) this.startApp(foreground);
    this.changed();
  }

  get imeId(): string {
    return this.keyboard.imeId;
  }

  get isScreenOn(): boolean {
    return this.screenOn;
  }

  get isKeyboardShown(): boolean {
    return this.screenOn && this.keyboard.shown && !this.coveredAbove(this.keyboard);
  }

  get isLocked(): boolean {
    return this.lockScreen.shown;
  }

  get isShadeExpanded(): boolean {
    return this.shade.shown;
  }

  hasSystemDialog(): boolean {
    return this.popup.shown;
  }

  /** The screen on top of `pkg`'s task, in front or not (for state an app shows, like the browser's page). */
  topScreenOf(pkg: string): Screen | undefined {
    return this.appLayer.topScreenOf(pkg);
  }

  appFor(pkg: string): AppDefinition | undefined {
    return this.appLayer.appFor(pkg);
  }

  /** Running app processes (package and pid), most recent first. */
  processes(): Array<{ pkg: string; pid: number }> {
    return this.appLayer.processes();
  }

  /** Marks the screen as changed (after any mutation of the data or the UI state). */
  changed(): void {
    this.version++;
  }

  // ---- what is on screen ----

  snapshot(now = new Date()): ScreenSnapshot {
    const minute = `${twoDigits(now.getHours())}:${twoDigits(now.getMinutes())}`;
    const key = `${this.version}@${minute}`;
    if (this.snapshotCache?.key === key) return this.snapshotCache;
    this.snapshotCache = { key, ...this.compose(now, minute) };
    return this.snapshotCache;
  }

  focusedFieldResourceId(): string | null {
    return this.focusedFieldNode()?.resourceId ?? null;
  }

  private compose(now: Date, time: string): Omit<ScreenSnapshot, 'key'> {
    const { foreground, activity } = this.appLayer.describe();
    if (!this.screenOn) return { windows: [screenOffWindow()], foreground, activity, dialog: null };
    const theme = themeFor(this.data.settings.darkTheme);
    const keyboardTop = this.isKeyboardShown ? this.keyboard.top : undefined;
    const app = this.appLayer.build(keyboardTop, now);
    const systemContext = this.appLayer.systemContext(keyboardTop, now);
    let windows = app.windows;
    let dialog = app.dialog;
    let navigationBar = true;
    for (const overlay of this.overlays) {
      if (!overlay.shown || (overlay === this.keyboard && !this.isKeyboardShown)) continue;
      if (overlay.opaque) {
        windows = [];
        dialog = null;
        navigationBar = false;
      }
      windows = [...windows, ...overlay.windows(systemContext)];
      dialog = overlay.title() ?? dialog;
    }
    windows.push(statusBarWindow(theme, this.data.settings, time));
    if (navigationBar) {
      windows.push(navigationBarWindow(theme, { back: () => this.back(), home: () => this.goHome(), overview: () => this.toggleRecents() }));
    }
    return { windows, foreground: app.foreground, activity: app.activity, dialog };
  }

  /** True when an opaque overlay above `layer` is shown. */
  private coveredAbove(layer: Overlay): boolean {
    return this.overlays.slice(this.overlays.indexOf(layer) + 1).some((overlay) => overlay.shown && overlay.opaque);
  }

  /** The shown overlays, topmost first. */
  private shownOverlays(): Overlay[] {
    return this.overlays.filter((overlay) => overlay.shown).reverse();
  }

  private currentScreen(): Screen | undefined {
    return this.appLayer.currentScreen();
  }

  // ---- app lifecycle ----

  /** Brings the app's task to the front (creating it when needed), like a launcher tap. */
  startApp(pkg: string, options: { newInstance?: boolean; screen?: Screen } = {}): boolean {
    const started = this.appLayer.startApp(pkg, options);
    if (started) this.changed();
    return started;
  }

  forceStop(pkg: string): void {
    this.appLayer.forceStop(pkg);
    this.changed();
  }

  /** HOME: the topmost overlay may swallow it (the lock screen); the others close and the home screen shows. */
  goHome(): void {
    for (const overlay of this.shownOverlays()) {
      if (overlay.home()) {
        this.changed();
        return;
      }
    }
    this.appLayer.goHome();
    this.changed();
  }

  private toggleRecents(): void {
    if (this.lockScreen.shown) return;
    this.shade.dismiss();
    this.appLayer.toggleRecents();
    this.changed();
  }

  // ---- system state ----

  showSystemDialog(title: string): void {
    this.popup.show(title);
    this.keyboard.dismiss();
    this.changed();
  }

  expandShade(): void {
    if (this.screenOn) this.shade.expand();
    this.changed();
  }

  collapseShade(): void {
    this.shade.dismiss();
    this.changed();
  }

  /** Turns the screen on or off; the power key also locks (`lock`), a screen timeout does not yet. */
  setScreenOn(on: boolean, options: { lock?: boolean } = {}): void {
    if (!on) {
      for (const overlay of this.overlays) overlay.screenOff();
      if (options.lock) this.lockScreen.lock();
    }
    this.screenOn = on;
    this.changed();
  }

  setIme(id: string): void {
    this.keyboard.imeId = id;
    this.changed();
  }

  // ---- input ----

  tap(x: number, y: number): void {
    if (!this.screenOn) return;
    this.dispatch(x, y, (target) => target.onClick);
  }

  longPress(x: number, y: number): void {
    if (!this.screenOn) return;
    this.dispatch(x, y, (target) => target.onLongClick ?? target.onClick);
  }

  swipe(x1: number, y1: number, x2: number, y2: number, durationMs: number): void {
    if (!this.screenOn) return;
    if (Math.hypot(x2 - x1, y2 - y1) < SWIPE_SLOP) {
      if (durationMs >= LONG_PRESS_MS) this.longPress(x1, y1);
      else this.tap(x1, y1);
      return;
    }
    // Topmost first; a hidden shade still takes a pull down from the status bar.
    for (const overlay of [...this.overlays].reverse()) {
      if (overlay.swipe({ x: x1, y: y1 }, { x: x2, y: y2 })) {
        this.changed();
        return;
      }
    }
    if (this.shownOverlays().some((overlay) => overlay.opaque)) return;
    const screen = this.appLayer.scrollScreen();
    const scroller = this.findTarget(x1, y1, (candidate) => candidate.scroller !== undefined)?.scroller;
    if (!scroller || Math.abs(y2 - y1) < Math.abs(x2 - x1)) return;
    const offset = screen.scroll[scroller.id] ?? this.currentOffset(scroller.id);
    screen.scroll[scroller.id] = Math.min(scroller.max, Math.max(0, offset + (y1 - y2)));
    this.changed();
  }

  /** The offset a list is drawn at before the first swipe (chat threads start at their end). */
  private currentOffset(scrollerId: string): number {
    for (const window of this.snapshot().windows) {
      for (const candidate of walk(window.root)) {
        if (candidate.scroller?.id !== scrollerId) continue;
        const first = candidate.children[0];
        if (!first) return 0;
        const firstTop = first.drawBounds?.top ?? first.bounds.top;
        return Math.max(0, candidate.bounds.top - firstTop);
      }
    }
    return 0;
  }

  /**
   * Types text (what `input text` and the IME broadcast do): into the topmost overlay holding the focus (the
   * PIN pad takes it, a pop-up swallows it), else into the focused field. False when nothing took it.
   */
  typeText(text: string): boolean {
    if (!this.screenOn) return false;
    const holder = this.focusHolder();
    if (holder) {
      const taken = holder.typeText(text);
      if (taken) this.changed();
      return taken;
    }
    return this.typeIntoField(text);
  }

  private typeIntoField(text: string): boolean {
    const screen = this.currentScreen();
    const field = this.focusedFieldNode()?.field;
    if (!screen || !field) return false;
    const accepted = [...text].filter((char) => acceptsChar(field, char)).join('');
    let value = (screen.fields[field.id] ?? '') + accepted;
    if (field.maxLength !== undefined) value = [...value].slice(0, field.maxLength).join('');
    screen.fields[field.id] = value;
    this.changed();
    return true;
  }

  /** Empties the focused field (ADBKeyBoard's ADB_CLEAR_TEXT). */
  clearFocusedField(): void {
    const screen = this.currentScreen();
    const field = this.focusedFieldNode()?.field;
    if (!screen || !field || this.focusHolder()) return;
    screen.fields[field.id] = '';
    this.changed();
  }

  /** Handles a key code; returns false for codes the phone does not know. */
  key(code: number): boolean {
    if (code === KEY.POWER) {
      this.setScreenOn(!this.screenOn, { lock: true });
      return true;
    }
    if (code === KEY.WAKEUP) {
      if (!this.screenOn) this.setScreenOn(true);
      return true;
    }
    if (code === KEY.SLEEP) {
      if (this.screenOn) this.setScreenOn(false, { lock: true });
      return true;
    }
    if (!this.screenOn) return true;
    if (this.focusHolder()?.key(code)) {
      this.changed();
      return true;
    }
    switch (code) {
      case KEY.HOME:
        this.goHome();
        return true;
      case KEY.BACK:
        this.back();
        return true;
      case KEY.APP_SWITCH:
        this.toggleRecents();
        return true;
      case KEY.ENTER:
        if (!this.focusHolder()) this.pressEnter();
        return true;
      case KEY.DEL:
        if (!this.focusHolder()) this.deleteBackward();
        return true;
      case KEY.SPACE:
        this.typeText(' ');
        return true;
      default: {
        const char = charForKeyCode(code);
        if (char !== undefined) this.typeText(char);
        return code > 0 && code <= MAX_KEY_CODE;
      }
    }
  }

  /** BACK goes to the topmost shown overlay; with none shown, to the app layer. */
  private back(): void {
    const top = this.shownOverlays().find((overlay) => overlay !== this.keyboard || this.isKeyboardShown);
    if (top) top.back();
    else this.appLayer.back();
    this.changed();
  }

  /** The topmost shown overlay that keeps keys from the app, if any. */
  private focusHolder(): Overlay | undefined {
    return this.shownOverlays().find((overlay) => overlay.holdsFocus);
  }

  private pressEnter(): void {
    const field = this.focusedFieldNode()?.field;
    if (field?.multiline) this.typeIntoField('\n');
    else if (field) this.keyboard.dismiss();
    this.changed();
  }

  private deleteBackward(): void {
    const screen = this.currentScreen();
    const field = this.focusedFieldNode()?.field;
    if (!screen || !field) return;
    screen.fields[field.id] = [...(screen.fields[field.id] ?? '')].slice(0, -1).join('');
    this.changed();
  }

  private focusedFieldNode(): ViewNode | undefined {
    const fieldId = this.currentScreen()?.focusedField;
    if (fieldId === undefined) return undefined;
    for (const window of this.snapshot().windows) {
      for (const candidate of walk(window.root)) if (candidate.field?.id === fieldId) return candidate;
    }
    return undefined;
  }

  private dispatch(x: number, y: number, handlerOf: (target: ViewNode) => (() => void) | undefined): void {
    const target = this.findTarget(x, y, (candidate) => Boolean(candidate.clickable || candidate.longClickable));
    if (!target) return;
    const handler = handlerOf(target);
    if (target.enabled === false || !handler) return;
    handler();
    this.changed();
  }

  /**
   * The topmost, deepest node matching `accepts` under the point. A modal window swallows touches outside
   * itself, so what lies below a dialog cannot be reached.
   */
  private findTarget(x: number, y: number, accepts: (candidate: ViewNode) => boolean): ViewNode | undefined {
    const windows = this.snapshot().windows;
    for (let index = windows.length - 1; index >= 0; index--) {
      const window = windows[index] as UiWindow;
      let found: ViewNode | undefined;
      for (const candidate of walk(window.root)) {
        if (accepts(candidate) && contains(candidate.bounds, x, y)) found = candidate;
      }
      if (found) return found;
      // Dialogs are modal; the keyboard and system bars are opaque to touches that miss their buttons.
      if (window.modal || (index > 0 && contains(window.root.bounds, x, y))) return undefined;
    }
    return undefined;
  }
}

function acceptsChar(field: TextFieldBinding, char: string): boolean {
  if (char === '\n') return field.multiline === true;
  return field.accept ? field.accept.test(char) : true;
}
