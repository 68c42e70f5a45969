import { buildHomeScreen, buildRecentsScreen, LAUNCHER_ACTIVITY, LAUNCHER_PACKAGE } from '../../apps/launcher';
import type { PhoneData } from '../../model';
import { SCREEN_WIDTH } from '../../properties';
import { newScreen, type AppDefinition, type AppFrame, type AppLogLine, type Navigator, type Screen, type UiContext } from '../app';
import { themeFor } from '../theme';
import type { UiWindow } from '../view';
import { appWindowRoot, NAV_BAR_TOP, STATUS_BAR_BOTTOM } from '../widgets';

interface Task {
  app: AppDefinition;
  stack: Screen[];
  /** The pid of the app's process: a new one after each force-stop. */
  pid: number;
}

type Surface = { kind: 'home' } | { kind: 'recents' } | { kind: 'app'; task: Task };

/** What the app layer tells the rest of the phone: the keyboard above it, and the activity starts and app actions it logs. */
export interface AppLayerHost {
  showKeyboard(): void;
  hideKeyboard(): void;
  /** An activity came to the front; `cold` when its process had to start. */
  activityStarted(component: string, pid: number, cold: boolean): void;
  /** An app logged a line; `pid` is its process, undefined for lines from system_server. */
  appLogged(line: AppLogLine, pid: number | undefined): void;
}

export interface AppLayerView {
  windows: UiWindow[];
  foreground: string;
  activity: string;
  dialog: string | null;
}

const FIRST_APP_PID = 4012;

/**
 * The bottom of the window stack: app tasks and their back stacks, the home screen and the overview, and the
 * dialogs the apps open over their own screens.
 */
export class AppLayer {
  private tasks: Task[] = [];
  private surface: Surface = { kind: 'home' };
  private homeScreen = newScreen('home');
  private nextPid = FIRST_APP_PID;

  constructor(
    private data: PhoneData,
    readonly apps: readonly AppDefinition[],
    private readonly focus: AppLayerHost,
  ) {}

  reset(data: PhoneData): void {
    this.data = data;
    this.tasks = [];
    this.surface = { kind: 'home' };
    this.homeScreen = newScreen('home');
  }

  appFor(pkg: string): AppDefinition | undefined {
    return this.apps.find((app) => app.pkg === pkg);
  }

  /** Running app processes, most recent first. */
  processes(): Array<{ pkg: string; pid: number }> {
    return this.tasks.map((task) => ({ pkg: task.app.pkg, pid: task.pid }));
  }

  build(keyboardTop: number | undefined, now: Date): AppLayerView {
    let frame: AppFrame;
    let ctx: UiContext;
    if (this.surface.kind === 'app') {
      const task = this.surface.task;
      ctx = this.context(task.app.pkg, topScreen(task), keyboardTop, now);
      frame = task.app.build(ctx);
    } else {
      ctx = this.context(LAUNCHER_PACKAGE, this.homeScreen, undefined, now);
      const content =
        this.surface.kind === 'home'
          ? buildHomeScreen(ctx, this.apps)
          : buildRecentsScreen(ctx, this.tasks, { open: (target) => this.startApp(target), clearAll: () => this.clearRecents() });
      frame = { activity: LAUNCHER_ACTIVITY, content: [content], wallpaper: true };
    }
    const windows: UiWindow[] = [{ pkg: ctx.pkg, root: appWindowRoot(ctx, frame.content, frame.wallpaper) }];
    if (frame.dialog) windows.push({ pkg: frame.dialog.pkg ?? ctx.pkg, root: frame.dialog.root, modal: true });
    return { windows, foreground: ctx.pkg, activity: `${ctx.pkg}/${frame.activity}`, dialog: frame.dialog?.title ?? null };
  }

  /** The foreground package and activity, without drawing anything. */
  describe(): { foreground: string; activity: string } {
    if (this.surface.kind !== 'app') return { foreground: LAUNCHER_PACKAGE, activity: `${LAUNCHER_PACKAGE}/${LAUNCHER_ACTIVITY}` };
    const task = this.surface.task;
    const ctx = this.context(task.app.pkg, topScreen(task), undefined, new Date());
    return { foreground: task.app.pkg, activity: `${task.app.pkg}/${task.app.build(ctx).activity}` };
  }

  /** A context for system windows (pop-ups, the lock screen), drawn in the frame apps use. */
  systemContext(keyboardTop: number | undefined, now: Date): UiContext {
    return this.context('android', newScreen('system'), keyboardTop, now);
  }

  /** The screen on top of `pkg`'s task, in front or not; undefined when the app has no task. */
  topScreenOf(pkg: string): Screen | undefined {
    const task = this.tasks.find((candidate) => candidate.app.pkg === pkg);
    return task && topScreen(task);
  }

  currentScreen(): Screen | undefined {
    return this.surface.kind === 'app' ? topScreen(this.surface.task) : undefined;
  }

  /** The screen swipes scroll: the app's, or the home screen's. */
  scrollScreen(): Screen {
    return this.currentScreen() ?? this.homeScreen;
  }

  /** Brings the app's task to the front (creating it when needed), like a launcher tap. */
  startApp(pkg: string, options: { newInstance?: boolean; screen?: Screen } = {}): boolean {
    const app = this.appFor(pkg);
    if (!app) return false;
    let task = this.tasks.find((candidate) => candidate.app.pkg === pkg);
    const cold = task === undefined;
    if (task) {
      this.tasks.splice(this.tasks.indexOf(task), 1);
      if (options.newInstance) task.stack.push(app.rootScreen());
    } else {
      task = { app, stack: [app.rootScreen()], pid: this.nextPid++ };
    }
    if (options.screen) task.stack.push(options.screen);
    this.tasks.unshift(task);
    this.surface = { kind: 'app', task };
    this.focus.hideKeyboard();
    this.focus.activityStarted(`${pkg}/${app.mainActivity}`, task.pid, cold);
    return true;
  }

  forceStop(pkg: string): void {
    this.tasks = this.tasks.filter((task) => task.app.pkg !== pkg);
    if (this.surface.kind === 'app' && this.surface.task.app.pkg === pkg) this.goHome();
  }

  goHome(): void {
    this.surface = { kind: 'home' };
    this.focus.hideKeyboard();
  }

  toggleRecents(): void {
    if (this.surface.kind === 'recents') this.leaveRecents();
    else this.surface = { kind: 'recents' };
    this.focus.hideKeyboard();
  }

  /** BACK: the app handles it first, then its dialog closes or its screen pops. */
  back(): void {
    if (this.surface.kind === 'recents') {
      this.leaveRecents();
    } else if (this.surface.kind === 'app') {
      const task = this.surface.task;
      const screen = topScreen(task);
      const ctx = this.context(task.app.pkg, screen, undefined, new Date());
      if (!task.app.onBack?.(ctx)) {
        if (screen.dialog) ctx.nav.closeDialog();
        else this.popScreen();
      }
    }
  }

  private leaveRecents(): void {
    const last = this.tasks[0];
    this.surface = last ? { kind: 'app', task: last } : { kind: 'home' };
  }

  private clearRecents(): void {
    this.tasks = [];
    this.surface = { kind: 'home' };
  }

  private popScreen(): void {
    if (this.surface.kind !== 'app') return;
    const task = this.surface.task;
    this.focus.hideKeyboard();
    if (task.stack.length > 1) {
      task.stack.pop();
      return;
    }
    // Since Android 12, BACK on a task's root moves the task behind the home screen instead of finishing it.
    this.surface = { kind: 'home' };
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
      log: (line) => {
        const pid = line.process === 'system_server' ? undefined : this.tasks.find((task) => task.app.pkg === pkg)?.pid;
        this.focus.appLogged(line, pid);
      },
    };
  }

  private navigator(pkg: string, screen: Screen): Navigator {
    const task = (): Task | undefined => this.tasks.find((candidate) => candidate.app.pkg === pkg);
    return {
      push: (next) => {
        task()?.stack.push(next);
        this.focus.hideKeyboard();
      },
      replace: (next) => {
        const stack = task()?.stack;
        if (stack) stack[stack.length - 1] = next;
        this.focus.hideKeyboard();
      },
      pop: () => this.popScreen(),
      openDialog: (dialogId) => {
        screen.dialog = dialogId;
        screen.focusedField = undefined;
        this.focus.hideKeyboard();
      },
      closeDialog: () => {
        screen.dialog = undefined;
        screen.focusedField = undefined;
        this.focus.hideKeyboard();
      },
      focus: (fieldId) => {
        screen.focusedField = fieldId;
        this.focus.showKeyboard();
      },
      startApp: (target, next) => {
        this.startApp(target, { screen: next });
      },
      setField: (fieldId, value) => {
        screen.fields[fieldId] = value;
      },
    };
  }
}

function topScreen(task: Task): Screen {
  return task.stack[task.stack.length - 1] as Screen;
}
