import { buildHomeScreen, buildRecentsScreen, LAUNCHER_ACTIVITY, LAUNCHER_PACKAGE } from '../apps/launcher';
import { twoDigits } from '../apps/common';
import type { PhoneData } from '../model';
import { SCREEN_WIDTH } from '../properties';
import { newScreen, type AppDefinition, type AppFrame, type Navigator, type Screen, type UiContext } from './app';
import {
  ADB_KEYBOARD_PACKAGE,
  adbKeyboardWindow,
  latinKeyboardWindow,
  LATIN_IME_PACKAGE,
  navigationBarWindow,
  screenOffWindow,
  statusBarWindow,
} from './system-ui';
import { themeFor } from './theme';
import { contains, walk, type TextFieldBinding, type UiWindow, type ViewNode } from './view';
import { ADB_KEYBOARD_TOP, appWindowRoot, dialogWindow, KEYBOARD_TOP, NAV_BAR_TOP, STATUS_BAR_BOTTOM } from './widgets';

export const LATIN_IME_ID = `${LATIN_IME_PACKAGE}/.LatinIME`;
export const ADB_IME_ID = `${ADB_KEYBOARD_PACKAGE}/.AdbIME`;

interface Task {
  app: AppDefinition;
  stack: Screen[];
}

type Surface = { kind: 'home' } | { kind: 'recents' } | { kind: 'app'; task: Task };

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

/**
 * The phone's window manager and input dispatcher: app tasks and their back stacks, the home and overview
 * screens, dialogs, focus and the soft keyboard. Every input rebuilds the view tree from the phone data.
 */
export class PhoneUi {
  private tasks: Task[] = [];
  private surface: Surface = { kind: 'home' };
  private homeScreen = newScreen('home');
  private keyboardShown = false;
  private shifted = false;
  private systemDialog: string | undefined;
  private screenOn = true;
  private version = 0;
  private snapshotCache: ScreenSnapshot | undefined;
  imeId = LATIN_IME_ID;

  constructor(
    private data: PhoneData,
    private readonly apps: readonly AppDefinition[],
  ) {}

  /** Replaces all data and returns to a fresh home screen (optionally opening an app). */
  reset(data: PhoneData, foreground?: string): void {
    this.data = data;
    this.tasks = [];
    this.surface = { kind: 'home' };
    this.homeScreen = newScreen('home');
    this.keyboardShown = false;
    this.shifted = false;
    this.systemDialog = undefined;
    this.screenOn = true;
    this.imeId = LATIN_IME_ID;
    if (foreground) this.startApp(foreground);
    this.changed();
  }

  get isScreenOn(): boolean {
    return this.screenOn;
  }

  get isKeyboardShown(): boolean {
    return this.keyboardShown && this.focusedField() !== undefined && this.screenOn;
  }

  hasSystemDialog(): boolean {
    return this.systemDialog !== undefined;
  }

  appFor(pkg: string): AppDefinition | undefined {
    return this.apps.find((app) => app.pkg === pkg);
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
    const field = this.focusedFieldNode();
    return field?.resourceId ?? null;
  }

  private compose(now: Date, time: string): Omit<ScreenSnapshot, 'key'> {
    if (!this.screenOn) {
      const { foreground, activity } = this.describeSurface();
      return { windows: [screenOffWindow()], foreground, activity, dialog: null };
    }
    const theme = themeFor(this.data.settings.darkTheme);
    const keyboardTop = this.isKeyboardShown ? (this.imeId === ADB_IME_ID ? ADB_KEYBOARD_TOP : KEYBOARD_TOP) : undefined;
    const windows: UiWindow[] = [];
    let frame: AppFrame;
    let pkg: string;
    let dialog: string | null = null;
    let ctx: UiContext;
    if (this.surface.kind === 'app') {
      const task = this.surface.task;
      pkg = task.app.pkg;
      ctx = this.context(task.app.pkg, this.topScreen(task), keyboardTop, now);
      frame = task.app.build(ctx);
    } else {
      pkg = LAUNCHER_PACKAGE;
      ctx = this.context(LAUNCHER_PACKAGE, this.homeScreen, undefined, now);
      const content =
        this.surface.kind === 'home'
          ? buildHomeScreen(ctx, this.apps)
          : buildRecentsScreen(ctx, this.tasks, { open: (target) => this.startApp(target), clearAll: () => this.clearRecents() });
      frame = { activity: LAUNCHER_ACTIVITY, content: [content], wallpaper: true };
    }
    windows.push({ pkg, root: appWindowRoot(ctx, frame.content, frame.wallpaper) });
    if (frame.dialog) {
      windows.push({ pkg: frame.dialog.pkg ?? pkg, root: frame.dialog.root, modal: true });
      dialog = frame.dialog.title;
    }
    if (this.systemDialog) {
      windows.push({ pkg: 'android', root: this.systemDialogRoot(ctx), modal: true });
      dialog = this.systemDialog;
    }
    if (keyboardTop !== undefined) {
      windows.push(
        this.imeId === ADB_IME_ID
          ? adbKeyboardWindow(theme)
          : latinKeyboardWindow(theme, this.shifted, {
              type: (text) => {
                this.typeText(text);
                this.shifted = false;
              },
              shift: () => (this.shifted = !this.shifted),
              delete: () => this.deleteBackward(),
              enter: () => this.pressEnter(),
            }),
      );
    }
    windows.push(statusBarWindow(theme, this.data.settings, time));
    windows.push(navigationBarWindow(theme, { back: () => this.back(), home: () => this.goHome(), overview: () => this.toggleRecents() }));
    return { windows, foreground: pkg, activity: `${pkg}/${frame.activity}`, dialog };
  }

  private describeSurface(): { foreground: string; activity: string } {
    if (this.surface.kind !== 'app') return { foreground: LAUNCHER_PACKAGE, activity: `${LAUNCHER_PACKAGE}/${LAUNCHER_ACTIVITY}` };
    const task = this.surface.task;
    const ctx = this.context(task.app.pkg, this.topScreen(task), undefined, new Date());
    return { foreground: task.app.pkg, activity: `${task.app.pkg}/${task.app.build(ctx).activity}` };
  }

  private systemDialogRoot(ctx: UiContext): ViewNode {
    return dialogWindow(ctx, {
      title: this.systemDialog ?? '',
      message: '15% battery remaining. Turn on Battery Saver to extend battery life.',
      buttons: [{ text: 'OK', onClick: () => this.dismissSystemDialog() }],
    });
  }

  private context(pkg: string, screen: Screen, keyboardTop: number | undefined, now: Date): UiContext {
    return {
      pkg,
      data: this.data,
      theme: themeFor(this.data.settings.darkTheme),
      screen,
      nav: this.navigator(pkg, screen),
      frame: { left: 0, top: STATUS_BAR_BOTTOM, right: SCREEN_WIDTH, bottom: NAV_BAR_TOP },
      keyboardTop,
      now,
    };
  }

  private navigator(pkg: string, screen: Screen): Navigator {
    const task = (): Task | undefined => this.tasks.find((candidate) => candidate.app.pkg === pkg);
    return {
      push: (next) => {
        task()?.stack.push(next);
        this.keyboardShown = false;
      },
      replace: (next) => {
        const stack = task()?.stack;
        if (stack) stack[stack.length - 1] = next;
        this.keyboardShown = false;
      },
      pop: () => this.popScreen(),
      openDialog: (id) => {
        screen.dialog = id;
        screen.focusedField = undefined;
        this.keyboardShown = false;
      },
      closeDialog: () => {
        screen.dialog = undefined;
        screen.focusedField = undefined;
        this.keyboardShown = false;
      },
      focus: (fieldId) => {
        screen.focusedField = fieldId;
        this.keyboardShown = true;
      },
      startApp: (target, next) => {
        this.startApp(target);
        if (next && this.surface.kind === 'app') this.surface.task.stack.push(next);
      },
      setField: (fieldId, value) => {
        screen.fields[fieldId] = value;
      },
    };
  }

  private topScreen(task: Task): Screen {
    return task.stack[task.stack.length - 1] as Screen;
  }

  private currentScreen(): Screen | undefined {
    return this.surface.kind === 'app' ? this.topScreen(this.surface.task) : undefined;
  }

  // ---- app lifecycle ----

  /** Brings the app's task to the front (creating it when needed), like a launcher tap. */
  startApp(pkg: string, options: { newInstance?: boolean } = {}): boolean {
    const app = this.appFor(pkg);
    if (!app) return false;
    let task = this.tasks.find((candidate) => candidate.app.pkg === pkg);
    if (task) {
      this.tasks.splice(this.tasks.indexOf(task), 1);
      if (options.newInstance) task.stack.push(app.rootScreen());
    } else {
      task = { app, stack: [app.rootScreen()] };
    }
    this.tasks.unshift(task);
    this.surface = { kind: 'app', task };
    this.keyboardShown = false;
    this.changed();
    return true;
  }

  forceStop(pkg: string): void {
    this.tasks = this.tasks.filter((task) => task.app.pkg !== pkg);
    if (this.surface.kind === 'app' && this.surface.task.app.pkg === pkg) this.goHome();
    this.changed();
  }

  private popScreen(): void {
    if (this.surface.kind !== 'app') return;
    const task = this.surface.task;
    this.keyboardShown = false;
    if (task.stack.length > 1) {
      task.stack.pop();
      return;
    }
    // Since Android 12, BACK on a task's root moves the task behind the home screen instead of finishing it.
    this.surface = { kind: 'home' };
  }

  goHome(): void {
    this.surface = { kind: 'home' };
    this.keyboardShown = false;
    this.changed();
  }

  private toggleRecents(): void {
    if (this.surface.kind === 'recents') {
      const last = this.tasks[0];
      this.surface = last ? { kind: 'app', task: last } : { kind: 'home' };
    } else {
      this.surface = { kind: 'recents' };
    }
    this.keyboardShown = false;
    this.changed();
  }

  private clearRecents(): void {
    this.tasks = [];
    this.surface = { kind: 'home' };
  }

  // ---- system state ----

  showSystemDialog(title: string): void {
    this.systemDialog = title;
    this.keyboardShown = false;
    this.changed();
  }

  private dismissSystemDialog(): void {
    this.systemDialog = undefined;
    this.changed();
  }

  setScreenOn(on: boolean): void {
    this.screenOn = on;
    if (!on) this.keyboardShown = false;
    this.changed();
  }

  setIme(id: string): void {
    this.imeId = id;
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
    const screen = this.currentScreen() ?? this.homeScreen;
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

  /** Types text into the focused field (what `input text` and the IME broadcast do). Returns false when nothing is focused. */
  typeText(text: string): boolean {
    // A system dialog holds the input focus: keys do not reach the app below it.
    if (!this.screenOn || this.systemDialog) return false;
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
    if (!screen || !field) return;
    screen.fields[field.id] = '';
    this.changed();
  }

  /** Handles a key code; returns false for codes the phone does not know. */
  key(code: number): boolean {
    if (code === KEY.POWER) {
      this.setScreenOn(!this.screenOn);
      return true;
    }
    if (code === KEY.WAKEUP) {
      this.setScreenOn(true);
      return true;
    }
    if (code === KEY.SLEEP) {
      this.setScreenOn(false);
      return true;
    }
    if (!this.screenOn) return true;
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
        this.pressEnter();
        return true;
      case KEY.DEL:
        this.deleteBackward();
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

  private back(): void {
    if (this.isKeyboardShown) {
      this.keyboardShown = false;
    } else if (this.systemDialog) {
      this.systemDialog = undefined;
    } else if (this.surface.kind === 'recents') {
      const last = this.tasks[0];
      this.surface = last ? { kind: 'app', task: last } : { kind: 'home' };
    } else if (this.surface.kind === 'app') {
      const task = this.surface.task;
      const screen = this.topScreen(task);
      const ctx = this.context(task.app.pkg, screen, undefined, new Date());
      if (!task.app.onBack?.(ctx)) {
        if (screen.dialog) ctx.nav.closeDialog();
        else this.popScreen();
      }
    }
    this.changed();
  }

  private pressEnter(): void {
    const field = this.focusedFieldNode()?.field;
    if (field?.multiline) this.typeText('\n');
    else if (field) this.keyboardShown = false;
    this.changed();
  }

  private deleteBackward(): void {
    const screen = this.currentScreen();
    const field = this.focusedFieldNode()?.field;
    if (!screen || !field) return;
    screen.fields[field.id] = [...(screen.fields[field.id] ?? '')].slice(0, -1).join('');
    this.changed();
  }

  private focusedField(): string | undefined {
    return this.currentScreen()?.focusedField;
  }

  private focusedFieldNode(): ViewNode | undefined {
    const fieldId = this.focusedField();
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

export const KEY = {
  HOME: 3,
  BACK: 4,
  SPACE: 62,
  ENTER: 66,
  DEL: 67,
  POWER: 26,
  APP_SWITCH: 187,
  SLEEP: 223,
  WAKEUP: 224,
} as const;
const MAX_KEY_CODE = 316;

/** KEYCODE_0..9 (7..16) and KEYCODE_A..Z (29..54) type their character. */
function charForKeyCode(code: number): string | undefined {
  if (code >= 7 && code <= 16) return String(code - 7);
  if (code >= 29 && code <= 54) return String.fromCharCode(97 + code - 29);
  if (code === 55) return ',';
  if (code === 56) return '.';
  return undefined;
}
