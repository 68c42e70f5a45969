import { piped, shellLine } from './shell-line';

/** `dumpsys SERVICE`: a system service's state as text, and the few lines of it that are read. */
export const dumpsys = {
  window: () => shellLine(['dumpsys', 'window']),
  inputMethod: () => shellLine(['dumpsys', 'input_method']),
  display: () => shellLine(['dumpsys', 'display']),
  /** Only the lines of `line` that match `pattern` (an extended regular expression), so less crosses the wire. */
  grepped: (line: string, pattern: string) => piped(line, shellLine(['grep', '-E', pattern])),
};

/** The lines of `dumpsys window` that name the focused window and app. */
export const FOCUS_LINES = 'mCurrentFocus|mFocusedApp';
/** The line of `dumpsys input_method` that says whether the keyboard shows. */
export const INPUT_SHOWN_LINE = 'mInputShown';

export interface ForegroundWindow {
  package: string;
  activity?: string;
}

/** `mCurrentFocus=Window{1f2e3d u0 com.android.settings/com.android.settings.Settings}` (or mFocusedApp). */
export function parseForegroundWindow(output: string): ForegroundWindow | undefined {
  const focus =
    /mCurrentFocus=Window\{[^}]*?\s(?:u\d+\s+)?([\w.]+)\/([\w.$]+)/.exec(output) ??
    /mFocusedApp=\S*\{[^}]*?\s(?:u\d+\s+)?([\w.]+)\/([\w.$]+)/.exec(output);
  if (!focus) return undefined;
  const [, packageName, activity] = focus as unknown as [string, string, string];
  return { package: packageName, activity: shortActivity(packageName, activity) };
}

/** `com.android.settings.Settings` inside `com.android.settings` -> `.Settings`. */
function shortActivity(packageName: string, activity: string): string {
  return activity.startsWith(`${packageName}.`) ? activity.slice(packageName.length) : activity;
}

/** `mInputShown=true` in `dumpsys input_method`; undefined when the output does not say. */
export function parseInputShown(output: string): boolean | undefined {
  const match = /mInputShown=(true|false)/.exec(output);
  return match ? match[1] === 'true' : undefined;
}

export interface DisplaySize {
  width: number;
  height: number;
}

/** What `dumpsys display` says of the screen's size: as currently rotated, or the panel's natural size. */
export type DisplayInfo = { current: DisplaySize; rotation?: number } | { natural: DisplaySize } | null;

/**
 * The screen size from `dumpsys display`: the logical display's current (already rotated) size and rotation
 * (`mOverrideDisplayInfo=DisplayInfo{..., real 2400 x 1080, ..., rotation 1, ...}`) when it is there, else the
 * physical panel's natural size (`DisplayDeviceInfo{"Built-in Screen": ..., 1080 x 2400, ...}`).
 */
export function parseDisplayInfo(output: string): DisplayInfo {
  const logical = /mOverrideDisplayInfo=DisplayInfo\{[^\n]*?\breal (\d+) x (\d+)[^\n]*?\brotation (\d)/.exec(output);
  if (logical) return { current: { width: Number(logical[1]), height: Number(logical[2]) }, rotation: Number(logical[3]) };
  const panel = /DisplayDeviceInfo\{[^\n]*?\b(\d+) x (\d+)/.exec(output);
  return panel ? { natural: { width: Number(panel[1]), height: Number(panel[2]) } } : null;
}
