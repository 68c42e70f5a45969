/** The screen facts: how what the Observer read (`dumpsys`, `wm`, the dump) combines (the parsers are device/android's). */
import type { ScreenFacts } from '../../shared/scene';
import { parseForegroundWindow, parseInputShown, type DisplaySize } from '../device/android/dumpsys';
import { SYSTEM_UI_PACKAGE } from './status-bar';
import type { UiHierarchy } from './ui-hierarchy';
import { isKeyboardPackage } from './windows';

/** Where the screen's size came from, in order of trust. */
export type ScreenSizeSource =
  | { natural: DisplaySize } // `wm size`: the natural (unrotated) size; the dump's rotation turns it
  | { current: DisplaySize; rotation?: number } // `dumpsys display`: the size as currently rotated
  | null; // neither answered: the hierarchy is all there is

/**
 * The screen as currently rotated. Without `wm size` or `dumpsys display`, the windows of the dump are all there
 * is; they define the screen only when they reach its top-left corner (full-screen windows do). A dump of floating
 * windows only (a dialog) is taken to be centred, so the margins it leaves on one side are added on the other.
 */
export function screenSize(hierarchy: UiHierarchy, source: ScreenSizeSource): DisplaySize & { rotation: number } {
  const rotation = source && 'current' in source && source.rotation !== undefined ? source.rotation : hierarchy.rotation;
  if (source && 'current' in source) return { ...source.current, rotation };
  if (source) {
    const turned = rotation % 2 === 1;
    const { width, height } = source.natural;
    return turned ? { width: height, height: width, rotation } : { width, height, rotation };
  }
  if (hierarchy.roots.length === 0) return { width: 1, height: 1, rotation };
  const [left, top, right, bottom] = hierarchy.roots.reduce<[number, number, number, number]>(
    (extent, root) => [
      Math.min(extent[0], root.bounds[0]),
      Math.min(extent[1], root.bounds[1]),
      Math.max(extent[2], root.bounds[2]),
      Math.max(extent[3], root.bounds[3]),
    ],
    [Infinity, Infinity, 0, 0],
  );
  return { width: Math.max(1, right + Math.max(0, left)), height: Math.max(1, bottom + Math.max(0, top)), rotation };
}

const area = ([left, top, right, bottom]: readonly number[]) => Math.max(0, right! - left!) * Math.max(0, bottom! - top!);

/**
 * The app in front when `dumpsys` does not say: the largest application window (not System UI, not a keyboard).
 * The first one listed can be an edge-panel handle or a chat head floating over the app.
 */
function largestAppWindow(hierarchy: UiHierarchy) {
  const apps = hierarchy.roots.filter((root) => root.packageName !== SYSTEM_UI_PACKAGE && !isKeyboardPackage(root.packageName));
  return apps.reduce<(typeof apps)[number] | undefined>((best, root) => (!best || area(root.bounds) > area(best.bounds) ? root : best), undefined);
}

/** The screen facts of one observation, before the Scene builder adds what the status bar says. */
export function screenFacts(hierarchy: UiHierarchy, factsOutput: string, source: ScreenSizeSource): ScreenFacts {
  const { width, height, rotation } = screenSize(hierarchy, source);
  const foreground = parseForegroundWindow(factsOutput) ?? { package: largestAppWindow(hierarchy)?.packageName ?? hierarchy.roots[0]?.packageName ?? '' };
  const keyboardShown = parseInputShown(factsOutput) ?? hierarchy.roots.some((root) => isKeyboardPackage(root.packageName));
  return {
    width,
    height,
    orientation: width > height ? 'landscape' : 'portrait',
    ...(rotation >= 1 && rotation <= 3 && { rotation }),
    package: foreground.package,
    ...(foreground.activity !== undefined && { activity: foreground.activity }),
    keyboardShown,
  };
}
