import type { LogPriority } from '../log';
import type { PhoneData } from '../model';
import type { Theme } from './theme';
import type { Rect, ViewNode } from './view';

/** One activity instance on a task's back stack. */
export interface Screen {
  route: string;
  params: Record<string, string | number>;
  /** Text field contents by field id. */
  fields: Record<string, string>;
  /** Scroll offsets by scroller id. */
  scroll: Record<string, number>;
  /** An app dialog open over this screen. */
  dialog?: string;
  focusedField?: string;
}

export function newScreen(route: string, params: Screen['params'] = {}, fields: Screen['fields'] = {}): Screen {
  return { route, params, fields, scroll: {} };
}

/** What a screen may do in response to input. */
export interface Navigator {
  push(screen: Screen): void;
  /** Replaces the current screen (e.g. an editor becoming the saved item's details). */
  replace(screen: Screen): void;
  /** Goes back one screen (to the home screen from a task's root). */
  pop(): void;
  openDialog(id: string): void;
  closeDialog(): void;
  focus(fieldId: string): void;
  /** Brings an app to the front, optionally opening a screen on top of its task. */
  startApp(pkg: string, screen?: Screen): void;
  setField(fieldId: string, value: string): void;
}

export interface UiContext {
  pkg: string;
  data: PhoneData;
  theme: Theme;
  screen: Screen;
  nav: Navigator;
  /** The app's content area: below the status bar, above the navigation bar. */
  frame: Rect;
  /** Top of the soft keyboard when it is shown; screens that resize for it lay out above this line. */
  keyboardTop: number | undefined;
  now: Date;
  /** Writes a logcat line from the app's process, or from system_server for what the framework logs. */
  log(line: AppLogLine): void;
}

export interface AppLogLine {
  priority: LogPriority;
  tag: string;
  message: string;
  process?: 'app' | 'system_server';
}

export interface AppDialog {
  title: string;
  root: ViewNode;
  /** Package of the dialog window when it is not the app's own (the permission controller). */
  pkg?: string;
}

export interface AppFrame {
  /** Short activity name, e.g. `.Settings`. */
  activity: string;
  /** Children of `android:id/content`. */
  content: ViewNode[];
  /** Draw the wallpaper behind the content (home screen, overview). */
  wallpaper?: boolean;
  dialog?: AppDialog;
}

export interface AppDefinition {
  pkg: string;
  label: string;
  /** Short name of the launcher activity (`am start -n PKG/<mainActivity>`). */
  mainActivity: string;
  icon: { letter: string; color: string };
  rootScreen(): Screen;
  build(ctx: UiContext): AppFrame;
  /** Handles BACK for the current screen; returns false to let the system pop the screen. */
  onBack?(ctx: UiContext): boolean;
}
