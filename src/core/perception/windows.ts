import type { WindowKind } from '../../shared/scene';
import { isStatusBarWindow, SYSTEM_UI_PACKAGE } from './status-bar';
import type { UiNode } from './ui-hierarchy';

/** Packages of input methods: their keys are not Scene elements (type_text types; the keyboard is a fact). */
export function isKeyboardPackage(packageName: string): boolean {
  return /inputmethod|keyboard|honeyboard|swiftkey|\.ime\b/i.test(packageName);
}

/** What one top-level window of a dump is: the app itself, a window marked on its elements, or one not listed. */
export type WindowRole = 'app' | 'status-bar' | 'keyboard' | WindowKind;

/** A window smaller than this share of the screen is never the app's main window: it floats over something. */
const MIN_MAIN_WINDOW_SHARE = 0.5;
const POPUP_CLASS = /Popup|Menu|DropDown|Spinner|ListPopup/;

const area = ([left, top, right, bottom]: readonly number[]) => Math.max(0, right! - left!) * Math.max(0, bottom! - top!);

/**
 * Tells each root of a dump what it is. The app's main window is the largest window of the foreground package
 * (or of any app when the foreground is unknown); a smaller window of the same package floats over it (a popup
 * when it is a menu or drop-down, else a dialog). A window of another package is `other-app`, unless it is a
 * smaller window with a dialog's parts (a permission prompt over the app). A dump holding only a small window (a
 * dialog-only dump) has no main window: that window is the dialog.
 */
export function windowRoles(roots: readonly UiNode[], screen: { width: number; height: number; package: string }): WindowRole[] {
  const screenArea = screen.width * screen.height;
  const isApp = (root: UiNode) => root.packageName !== SYSTEM_UI_PACKAGE && !isKeyboardPackage(root.packageName);
  const largest = (candidates: UiNode[]) => candidates.reduce<UiNode | undefined>((best, root) => (!best || area(root.bounds) > area(best.bounds) ? root : best), undefined);
  // A window with a scrim over the whole screen (a bottom sheet) is never the main window, however large it is.
  const apps = roots.filter((root) => isApp(root) && !(roots.length > 1 && hasScrim(root)));
  const main = largest(apps.filter((root) => root.packageName === screen.package)) ?? largest(apps);
  const mainArea = main ? area(main.bounds) : 0;
  const mainPackage = main?.packageName;

  return roots.map((root) => {
    if (isKeyboardPackage(root.packageName)) return 'keyboard';
    if (root.packageName === SYSTEM_UI_PACKAGE) {
      if (isStatusBarWindow(root, screen.height)) return 'status-bar';
      return main && hasDialogParts(root) && area(root.bounds) < screenArea * MIN_MAIN_WINDOW_SHARE ? 'dialog' : 'system';
    }
    if (main && root !== main && hasScrim(root)) return 'dialog';
    if (root.packageName !== mainPackage) return hasDialogParts(root) && area(root.bounds) < mainArea ? 'dialog' : 'other-app';
    const rootArea = area(root.bounds);
    if (rootArea >= mainArea && mainArea >= screenArea * MIN_MAIN_WINDOW_SHARE) return 'app';
    return isPopup(root) ? 'popup' : 'dialog';
  });
}

/**
 * Which windows are modal: nothing beneath them can be tapped, wherever it lies (a tap outside a dialog closes it or
 * is swallowed). A dialog is modal when it shows a dialog's parts or lies on a scrim (a bottom sheet); any other
 * small window of the app (a toast, a floating tip) covers only what lies under it, like a popup.
 */
export function modalWindows(roots: readonly UiNode[], roles: readonly WindowRole[]): boolean[] {
  return roots.map((root, index) => roles[index] === 'dialog' && (hasDialogParts(root) || hasScrim(root)));
}

/**
 * A scrim: the dimmed area around a modal sheet that closes it when tapped (Material's `touch_outside` beside
 * `design_bottom_sheet`, or Compose's "Close sheet"), spread over the screen so that nothing beneath takes a tap.
 */
export function hasScrim(node: UiNode, depth = 0): boolean {
  if (/:id\/(?:touch_outside|design_bottom_sheet)$/.test(node.resourceId)) return true;
  if (/^(?:close sheet|dismiss)$/i.test(node.contentDesc.trim()) && node.clickable) return true;
  return depth < 6 && node.children.some((child) => hasScrim(child, depth + 1));
}

/**
 * A menu or drop-down: its window's first levels say so by class or id, or hold a list and none of a dialog's
 * title or buttons.
 */
function isPopup(root: UiNode): boolean {
  const levels = [root, ...root.children, ...root.children.flatMap((child) => child.children)];
  if (levels.some((node) => POPUP_CLASS.test(node.className) || /:id\/(?:popup|floating_toolbar|submenu)/.test(node.resourceId))) return true;
  const hasList = levels.some((node) => /(ListView|RecyclerView)$/.test(node.className));
  return hasList && !hasDialogParts(root);
}

/** A dialog's title or buttons, the platform's or any id naming a dialog or a permission grant. */
function hasDialogParts(node: UiNode): boolean {
  return /:id\/(?:button[123]$|alertTitle$|\w*dialog|permission_(?:allow|deny))/i.test(node.resourceId) || node.children.some(hasDialogParts);
}
