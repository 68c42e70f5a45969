import type { PhoneSettings } from '../model';
import { SCREEN_HEIGHT } from '../properties';
import type { Theme } from './theme';
import { node, rect, type IconName, type Rect, type UiWindow, type ViewNode } from './view';
import { ADB_KEYBOARD_TOP, FONT, KEYBOARD_TOP, NAV_BAR_TOP, STATUS_BAR_BOTTOM, W } from './widgets';

/** System UI windows drawn over every app: status bar, navigation bar, soft keyboards, the screen when off. */

export const SYSTEM_UI_PACKAGE = 'com.android.systemui';
export const LATIN_IME_PACKAGE = 'com.android.inputmethod.latin';
export const ADB_KEYBOARD_PACKAGE = 'com.android.adbkeyboard';

function icon(bounds: Rect, name: IconName, color: string, contentDesc: string, extra: Partial<ViewNode> = {}): ViewNode {
  return node('android.widget.ImageView', bounds, { contentDesc, style: { icon: name, iconColor: color }, ...extra });
}

export function statusBarWindow(theme: Theme, settings: PhoneSettings, time: string): UiWindow {
  const bar = rect(0, 0, W, STATUS_BAR_BOTTOM);
  const color = theme.onSystemBar;
  const clock = node('android.widget.TextView', rect(63, 0, 220, STATUS_BAR_BOTTOM), {
    text: time,
    resourceId: `${SYSTEM_UI_PACKAGE}:id/clock`,
    contentDesc: time,
    style: { fontSize: FONT.small + 4, textColor: color, bold: true },
  });
  const icons: ViewNode[] = [];
  let right = W - 200;
  const addIcon = (name: IconName, desc: string): void => {
    icons.unshift(icon(rect(right - 52, 16, right, 68), name, color, desc));
    right -= 62;
  };
  if (settings.airplaneMode) addIcon('airplane', 'Airplane mode.');
  if (settings.wifi) addIcon('wifi', 'Wifi signal full.');
  if (settings.bluetooth) addIcon('bluetooth', 'Bluetooth on.');
  const battery = node('android.widget.LinearLayout', rect(W - 190, 0, W - 42, STATUS_BAR_BOTTOM), {
    resourceId: `${SYSTEM_UI_PACKAGE}:id/battery`,
    contentDesc: 'Battery 100 percent.',
  }, [
    node('android.widget.TextView', rect(W - 190, 0, W - 100, STATUS_BAR_BOTTOM), {
      text: '100%',
      style: { fontSize: FONT.small, textColor: color },
    }),
    icon(rect(W - 92, 18, W - 52, 66), 'battery', color, ''),
  ]);
  const system = node('android.widget.LinearLayout', rect(right, 0, W, STATUS_BAR_BOTTOM), { resourceId: `${SYSTEM_UI_PACKAGE}:id/system_icons` }, [
    ...icons,
    battery,
  ]);
  const root = node('android.widget.FrameLayout', bar, {
    resourceId: `${SYSTEM_UI_PACKAGE}:id/status_bar_container`,
    style: { background: theme.systemBar },
  }, [node('android.view.ViewGroup', bar, { resourceId: `${SYSTEM_UI_PACKAGE}:id/status_bar` }, [clock, system])]);
  return { pkg: SYSTEM_UI_PACKAGE, root };
}

export function navigationBarWindow(theme: Theme, actions: { back(): void; home(): void; overview(): void }): UiWindow {
  const bar = rect(0, NAV_BAR_TOP, W, SCREEN_HEIGHT);
  const button = (centerX: number, id: string, desc: string, name: IconName, onClick: () => void): ViewNode =>
    node('android.widget.ImageView', rect(centerX - 105, NAV_BAR_TOP, centerX + 105, SCREEN_HEIGHT), {
      resourceId: `${SYSTEM_UI_PACKAGE}:id/${id}`,
      contentDesc: desc,
      clickable: true,
      longClickable: true,
      onClick,
      style: { icon: name, iconColor: theme.onSystemBar },
    });
  const buttons = node('android.widget.LinearLayout', bar, { resourceId: `${SYSTEM_UI_PACKAGE}:id/ends_group` }, [
    button(270, 'back', 'Back', 'nav-back', actions.back),
    button(540, 'home', 'Home', 'nav-home', actions.home),
    button(810, 'recent_apps', 'Overview', 'nav-recents', actions.overview),
  ]);
  const root = node('android.widget.FrameLayout', bar, {
    resourceId: `${SYSTEM_UI_PACKAGE}:id/navigation_bar_frame`,
    style: { background: theme.systemBar },
  }, [buttons]);
  return { pkg: SYSTEM_UI_PACKAGE, root };
}

export interface KeyboardActions {
  type(text: string): void;
  shift(): void;
  delete(): void;
  enter(): void;
}

const KEY_ROWS = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const KEY_WIDTH = 108;
const ROW_HEIGHT = 135;
const STRIP_HEIGHT = 105;

/** The default on-screen keyboard (AOSP LatinIME look): tapping a key types it into the focused field. */
export function latinKeyboardWindow(theme: Theme, shifted: boolean, actions: KeyboardActions): UiWindow {
  const bounds = rect(0, KEYBOARD_TOP, W, NAV_BAR_TOP);
  const key = (left: number, top: number, width: number, label: string, desc: string, onClick: () => void, iconName?: IconName): ViewNode =>
    node('android.view.View', rect(left + 8, top + 12, left + width - 8, top + ROW_HEIGHT - 12), {
      contentDesc: desc,
      clickable: true,
      onClick,
      style: {
        background: theme.key,
        radius: 16,
        textColor: theme.onSurface,
        fontSize: FONT.body + 4,
        label,
        icon: iconName,
        iconColor: theme.onSurface,
      },
    });
  const rows: ViewNode[] = [];
  let top = KEYBOARD_TOP + STRIP_HEIGHT;
  for (const [rowIndex, letters] of KEY_ROWS.entries()) {
    const keys: ViewNode[] = [];
    let left = rowIndex === 2 ? KEY_WIDTH / 2 : rowIndex === 3 ? 162 : 0;
    if (rowIndex === 3) keys.push(key(0, top, 162, '', 'Shift', actions.shift, 'key-shift'));
    for (const letter of letters) {
      const shown = shifted ? letter.toUpperCase() : letter;
      keys.push(key(left, top, KEY_WIDTH, shown, shown, () => actions.type(shown)));
      left += KEY_WIDTH;
    }
    if (rowIndex === 3) keys.push(key(W - 162, top, 162, '', 'Delete', actions.delete, 'key-delete'));
    rows.push(node('android.widget.LinearLayout', rect(0, top, W, top + ROW_HEIGHT), {}, keys));
    top += ROW_HEIGHT;
  }
  rows.push(node('android.widget.LinearLayout', rect(0, top, W, top + ROW_HEIGHT), {}, [
    key(0, top, 162, ',', ',', () => actions.type(',')),
    key(162, top, 594, '', 'Space', () => actions.type(' ')),
    key(756, top, 162, '.', '.', () => actions.type('.')),
    key(918, top, 162, '', 'Enter', actions.enter, 'key-enter'),
  ]));
  const keyboardView = node('android.view.View', rect(0, KEYBOARD_TOP + STRIP_HEIGHT, W, NAV_BAR_TOP), {
    resourceId: `${LATIN_IME_PACKAGE}:id/keyboard_view`,
  }, rows);
  const strip = node('android.widget.LinearLayout', rect(0, KEYBOARD_TOP, W, KEYBOARD_TOP + STRIP_HEIGHT), {
    resourceId: `${LATIN_IME_PACKAGE}:id/suggestion_strip_view`,
  });
  const root = node('android.widget.FrameLayout', bounds, { style: { background: theme.keyboard } }, [
    node('android.widget.LinearLayout', bounds, { resourceId: `${LATIN_IME_PACKAGE}:id/input_view` }, [strip, keyboardView]),
  ]);
  return { pkg: LATIN_IME_PACKAGE, root };
}

/** ADBKeyBoard's input view: a thin bar that only says it is listening for broadcasts. */
export function adbKeyboardWindow(theme: Theme): UiWindow {
  const bounds = rect(0, ADB_KEYBOARD_TOP, W, NAV_BAR_TOP);
  const root = node('android.widget.FrameLayout', bounds, { style: { background: theme.keyboard } }, [
    node('android.widget.TextView', bounds, {
      text: 'ADB Keyboard {ON}',
      resourceId: `${ADB_KEYBOARD_PACKAGE}:id/keyboard_label`,
      style: { fontSize: FONT.summary, textColor: theme.onSurfaceVariant, align: 'center' },
    }),
  ]);
  return { pkg: ADB_KEYBOARD_PACKAGE, root };
}

/** With the screen off nothing is drawn and the dump holds an empty, black system window. */
export function screenOffWindow(): UiWindow {
  return {
    pkg: SYSTEM_UI_PACKAGE,
    root: node('android.widget.FrameLayout', rect(0, 0, W, SCREEN_HEIGHT), { style: { background: '#000000' } }),
  };
}
