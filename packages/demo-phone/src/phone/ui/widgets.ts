import { SCREEN_HEIGHT, SCREEN_WIDTH } from '../properties';
import type { UiContext } from './app';
import { textWidth, wrapText } from './text-metrics';
import { clipTree, node, rect, type IconName, type Rect, type TextFieldBinding, type ViewNode } from './view';

/** Building blocks shared by the apps: Material-looking widgets with real Android class names and ids. */

export const STATUS_BAR_BOTTOM = 84;
export const NAV_BAR_TOP = 2274;
export const KEYBOARD_TOP = 1494;
export const ADB_KEYBOARD_TOP = 2100;
export const TOOLBAR_HEIGHT = 168;
export const FONT = { title: 58, body: 45, summary: 37, button: 40, small: 33 } as const;

export const W = SCREEN_WIDTH;

/** Bottom of the area a screen that resizes for the keyboard may use. */
export const usableBottom = (ctx: UiContext): number => ctx.keyboardTop ?? ctx.frame.bottom;

/** The decor wrappers every activity window has, with the app's content inside `android:id/content`. */
export function appWindowRoot(ctx: UiContext, content: ViewNode[], wallpaper = false): ViewNode {
  const full = rect(0, 0, W, SCREEN_HEIGHT);
  const contentFrame = node('android.widget.FrameLayout', ctx.frame, { resourceId: 'android:id/content' }, content);
  const decor = node('android.widget.LinearLayout', full, {}, [contentFrame]);
  const style = wallpaper ? { gradient: [ctx.theme.wallpaperTop, ctx.theme.wallpaperBottom] as [string, string] } : { background: ctx.theme.background };
  return node('android.widget.FrameLayout', full, { style }, [decor]);
}

export function textView(
  ctx: UiContext,
  bounds: Rect,
  text: string,
  options: { fontSize?: number; color?: string; bold?: boolean; resourceId?: string; align?: 'start' | 'center'; wrap?: boolean; contentDesc?: string } = {},
): ViewNode {
  const fontSize = options.fontSize ?? FONT.body;
  // Accessibility reports the whole text; only the drawing is ellipsized.
  return node('android.widget.TextView', bounds, {
    text,
    resourceId: options.resourceId,
    contentDesc: options.contentDesc,
    style: { fontSize, textColor: options.color ?? ctx.theme.onSurface, bold: options.bold, align: options.align, wrap: options.wrap },
  });
}

export interface ToolbarAction {
  text?: string;
  icon?: IconName;
  contentDesc?: string;
  resourceId?: string;
  enabled?: boolean;
  onClick: () => void;
}

export function iconButton(
  ctx: UiContext,
  bounds: Rect,
  options: { icon: IconName; contentDesc: string; onClick: () => void; resourceId?: string; enabled?: boolean; color?: string },
): ViewNode {
  const enabled = options.enabled ?? true;
  return node('android.widget.ImageButton', bounds, {
    contentDesc: options.contentDesc,
    resourceId: options.resourceId,
    clickable: true,
    enabled,
    onClick: enabled ? options.onClick : undefined,
    style: { icon: options.icon, iconColor: enabled ? (options.color ?? ctx.theme.onSurface) : ctx.theme.disabled, radius: 63 },
  });
}

export function button(
  ctx: UiContext,
  bounds: Rect,
  options: { text: string; onClick: () => void; enabled?: boolean; variant?: 'filled' | 'text' | 'tonal'; resourceId?: string },
): ViewNode {
  const enabled = options.enabled ?? true;
  const variant = options.variant ?? 'filled';
  const { theme } = ctx;
  const background = variant === 'filled' ? (enabled ? theme.primary : theme.surfaceHigh) : variant === 'tonal' ? theme.primaryContainer : undefined;
  const textColor = !enabled ? theme.disabled : variant === 'filled' ? theme.onPrimary : theme.primary;
  return node('android.widget.Button', bounds, {
    text: options.text,
    resourceId: options.resourceId,
    clickable: true,
    enabled,
    onClick: enabled ? options.onClick : undefined,
    style: { background, radius: (bounds.bottom - bounds.top) / 2, textColor, fontSize: FONT.button, bold: true, align: 'center' },
  });
}

export function toolbar(
  ctx: UiContext,
  options: { title: string; nav?: { icon: 'back' | 'close'; contentDesc?: string; onClick: () => void }; actions?: ToolbarAction[] },
): ViewNode {
  const top = ctx.frame.top;
  const bottom = top + TOOLBAR_HEIGHT;
  const children: ViewNode[] = [];
  let titleLeft = 63;
  if (options.nav) {
    const desc = options.nav.contentDesc ?? (options.nav.icon === 'back' ? 'Navigate up' : 'Close');
    children.push(iconButton(ctx, rect(21, top + 21, 147, top + 147), { icon: options.nav.icon, contentDesc: desc, onClick: options.nav.onClick }));
    titleLeft = 189;
  }
  let right = W - 21;
  const actionNodes: ViewNode[] = [];
  for (const action of [...(options.actions ?? [])].reverse()) {
    if (action.text) {
      const width = Math.ceil(textWidth(action.text, FONT.button)) + 84;
      actionNodes.unshift(
        button(ctx, rect(right - width, top + 21, right, top + 147), {
          text: action.text,
          onClick: action.onClick,
          enabled: action.enabled,
          variant: 'filled',
          resourceId: action.resourceId,
        }),
      );
      right -= width + 21;
    } else {
      actionNodes.unshift(
        iconButton(ctx, rect(right - 126, top + 21, right, top + 147), {
          icon: action.icon ?? 'more',
          contentDesc: action.contentDesc ?? '',
          onClick: action.onClick,
          resourceId: action.resourceId,
          enabled: action.enabled,
        }),
      );
      right -= 126;
    }
  }
  children.push(textView(ctx, rect(titleLeft, top, right - 21, bottom), options.title, { fontSize: FONT.title }));
  if (actionNodes.length > 0) {
    const first = actionNodes[0] as ViewNode;
    children.push(node('androidx.appcompat.widget.LinearLayoutCompat', rect(first.bounds.left, top, W, bottom), {}, actionNodes));
  }
  return node('android.view.ViewGroup', rect(0, top, W, bottom), {
    resourceId: `${ctx.pkg}:id/toolbar`,
    style: { background: ctx.theme.surfaceContainer },
  }, children);
}

export interface ListItem {
  height: number;
  build(bounds: Rect): ViewNode;
}

/** A vertically scrolling list showing only the rows inside its viewport, like a RecyclerView. */
export function scrollList(
  ctx: UiContext,
  options: {
    id: string;
    bounds: Rect;
    items: ListItem[];
    resourceId?: string;
    className?: string;
    paddingBottom?: number;
    emptyText?: string;
    /** Start scrolled to the end (chat threads show the newest message). */
    startAtEnd?: boolean;
  },
): ViewNode {
  const { bounds } = options;
  const viewport = bounds.bottom - bounds.top;
  const contentHeight = options.items.reduce((sum, item) => sum + item.height, 0) + (options.paddingBottom ?? 0);
  const max = Math.max(0, contentHeight - viewport);
  const offset = Math.min(max, Math.max(0, ctx.screen.scroll[options.id] ?? (options.startAtEnd ? max : 0)));
  const children: ViewNode[] = [];
  let y = bounds.top - offset;
  for (const item of options.items) {
    const itemBounds = rect(bounds.left, y, bounds.right, y + item.height);
    y += item.height;
    if (itemBounds.bottom <= bounds.top || itemBounds.top >= bounds.bottom) continue;
    const built = clipTree(item.build(itemBounds), bounds);
    if (built) children.push(built);
  }
  if (options.items.length === 0 && options.emptyText) {
    children.push(textView(ctx, rect(bounds.left + 63, bounds.top + 84, bounds.right - 63, bounds.top + 210), options.emptyText, {
      color: ctx.theme.onSurfaceVariant,
      align: 'center',
    }));
  }
  return node(options.className ?? 'androidx.recyclerview.widget.RecyclerView', bounds, {
    resourceId: options.resourceId,
    scrollable: max > 0,
    focusable: max > 0,
    scroller: { id: options.id, max },
    clip: true,
  }, children);
}

export function listRow(
  ctx: UiContext,
  bounds: Rect,
  options: {
    title: string;
    summary?: string;
    avatar?: { letter: string; color: string };
    switchChecked?: boolean;
    switchId?: string;
    onClick?: () => void;
    onLongClick?: () => void;
    titleId?: string;
    summaryId?: string;
    titleSize?: number;
    enabled?: boolean;
  },
): ViewNode {
  const { theme } = ctx;
  const centerY = (bounds.top + bounds.bottom) / 2;
  const children: ViewNode[] = [];
  let textLeft = bounds.left + 63;
  if (options.avatar) {
    children.push(node('android.widget.ImageView', rect(bounds.left + 42, centerY - 63, bounds.left + 168, centerY + 63), {
      style: { avatar: options.avatar },
    }));
    textLeft = bounds.left + 210;
  }
  let textRight = bounds.right - 63;
  if (options.switchChecked !== undefined) textRight = bounds.right - 42 - 137 - 42;
  const titleSize = options.titleSize ?? FONT.body;
  const texts: ViewNode[] = [];
  if (options.summary !== undefined) {
    texts.push(textView(ctx, rect(textLeft, centerY - 60, textRight, centerY + 2), options.title, {
      fontSize: titleSize,
      resourceId: options.titleId ?? 'android:id/title',
    }));
    texts.push(textView(ctx, rect(textLeft, centerY + 6, textRight, centerY + 58), options.summary, {
      fontSize: FONT.summary,
      color: theme.onSurfaceVariant,
      resourceId: options.summaryId ?? 'android:id/summary',
    }));
  } else {
    texts.push(textView(ctx, rect(textLeft, centerY - 40, textRight, centerY + 40), options.title, {
      fontSize: titleSize,
      resourceId: options.titleId ?? 'android:id/title',
    }));
  }
  children.push(node('android.widget.RelativeLayout', rect(textLeft, bounds.top + 21, textRight, bounds.bottom - 21), {}, texts));
  if (options.switchChecked !== undefined) {
    children.push(node('android.widget.LinearLayout', rect(textRight, bounds.top, bounds.right, bounds.bottom), { resourceId: 'android:id/widget_frame' }, [
      switchWidget(ctx, rect(bounds.right - 42 - 137, centerY - 42, bounds.right - 42, centerY + 42), {
        checked: options.switchChecked,
        resourceId: options.switchId ?? 'android:id/switch_widget',
      }),
    ]));
  }
  const enabled = options.enabled ?? true;
  return node('android.widget.LinearLayout', bounds, {
    clickable: options.onClick !== undefined,
    longClickable: options.onLongClick !== undefined,
    enabled,
    onClick: enabled ? options.onClick : undefined,
    onLongClick: enabled ? options.onLongClick : undefined,
  }, children);
}

/** A Material switch. Clickable only when it toggles on its own (otherwise its row handles the tap). */
export function switchWidget(
  ctx: UiContext,
  bounds: Rect,
  options: { checked: boolean; resourceId?: string; contentDesc?: string; onClick?: () => void },
): ViewNode {
  return node('android.widget.Switch', bounds, {
    resourceId: options.resourceId,
    contentDesc: options.contentDesc,
    checkable: true,
    checked: options.checked,
    clickable: options.onClick !== undefined,
    onClick: options.onClick,
    style: { widget: 'switch', background: options.checked ? ctx.theme.primary : ctx.theme.switchTrackOff, border: ctx.theme.outline },
  });
}

export function textField(
  ctx: UiContext,
  bounds: Rect,
  options: { hint: string; resourceId: string; binding: TextFieldBinding; password?: boolean },
): ViewNode {
  const { screen, theme, nav } = ctx;
  const value = screen.fields[options.binding.id] ?? '';
  const focused = screen.focusedField === options.binding.id;
  return node('android.widget.EditText', bounds, {
    // Android reports the hint as the text of an empty field.
    text: value === '' ? options.hint : options.password ? '•'.repeat(value.length) : value,
    resourceId: options.resourceId,
    clickable: true,
    longClickable: true,
    focusable: true,
    focused,
    password: options.password,
    field: options.binding,
    onClick: () => nav.focus(options.binding.id),
    style: {
      background: theme.surfaceContainer,
      border: focused ? theme.primary : theme.outline,
      radius: 12,
      textColor: value === '' ? theme.onSurfaceVariant : theme.onSurface,
      fontSize: FONT.body,
      paddingLeft: 42,
      hint: value === '' ? options.hint : undefined,
      textTop: options.binding.multiline ? 36 : undefined,
      wrap: options.binding.multiline,
    },
  });
}

/** A floating action button at the bottom right of the content area. */
export function fab(
  ctx: UiContext,
  options: { contentDesc: string; text?: string; resourceId: string; onClick: () => void; bottom?: number },
): ViewNode {
  const bottom = (options.bottom ?? ctx.frame.bottom) - 63;
  const width = options.text ? Math.ceil(textWidth(options.text, FONT.button)) + 147 + 84 : 168;
  const bounds = rect(W - 63 - width, bottom - 168, W - 63, bottom);
  return node(options.text ? 'android.widget.Button' : 'android.widget.ImageButton', bounds, {
    text: options.text,
    contentDesc: options.contentDesc,
    resourceId: options.resourceId,
    clickable: true,
    onClick: options.onClick,
    style: {
      background: ctx.theme.primaryContainer,
      radius: 50,
      raised: true,
      icon: 'plus',
      iconColor: ctx.theme.onPrimaryContainer,
      textColor: ctx.theme.onPrimaryContainer,
      fontSize: FONT.button,
      bold: true,
      paddingLeft: options.text ? 147 : undefined,
    },
  });
}

export interface DialogButton {
  text: string;
  onClick: () => void;
  resourceId?: string;
  enabled?: boolean;
}

/**
 * An AlertDialog window centred in the space above the keyboard: title, optional message, optional custom
 * content (built from its top edge) and buttons on the right.
 */
export function dialogWindow(
  ctx: UiContext,
  options: {
    title: string;
    message?: string;
    content?: { height: number; build(top: number, left: number, right: number): ViewNode[] };
    buttons: DialogButton[];
    titleId?: string;
    messageId?: string;
  },
): ViewNode {
  const { theme } = ctx;
  const left = 96;
  const right = W - 96;
  const innerLeft = left + 73;
  const innerRight = right - 73;
  const titleLines = wrapText(options.title, innerRight - innerLeft, FONT.title);
  const titleHeight = titleLines.length * 72;
  const messageLines = options.message ? wrapText(options.message, innerRight - innerLeft, FONT.summary + 4) : [];
  const messageHeight = messageLines.length * 56;
  const height = 73 + titleHeight + 42 + (options.message ? messageHeight + 42 : 0) + (options.content?.height ?? 0) + 168 + 21;
  const areaBottom = ctx.keyboardTop ?? ctx.frame.bottom;
  const top = Math.max(ctx.frame.top + 42, Math.round((ctx.frame.top + areaBottom - height) / 2));
  let y = top + 73;
  const panels: ViewNode[] = [];
  panels.push(node('android.widget.LinearLayout', rect(left, top, right, y + titleHeight), { resourceId: 'android:id/topPanel' }, [
    textView(ctx, rect(innerLeft, y, innerRight, y + titleHeight), options.title, {
      fontSize: FONT.title,
      resourceId: options.titleId ?? 'android:id/alertTitle',
      wrap: true,
    }),
  ]));
  y += titleHeight + 42;
  if (options.message) {
    panels.push(node('android.widget.ScrollView', rect(left, y, right, y + messageHeight), { resourceId: 'android:id/scrollView' }, [
      textView(ctx, rect(innerLeft, y, innerRight, y + messageHeight), options.message, {
        fontSize: FONT.summary + 4,
        color: theme.onSurfaceVariant,
        resourceId: options.messageId ?? 'android:id/message',
        wrap: true,
      }),
    ]));
    y += messageHeight + 42;
  }
  if (options.content) {
    panels.push(node('android.widget.FrameLayout', rect(left, y, right, y + options.content.height), { resourceId: 'android:id/custom' },
      options.content.build(y, innerLeft, innerRight)));
    y += options.content.height;
  }
  const buttonNodes: ViewNode[] = [];
  let buttonRight = right - 63;
  for (const [index, spec] of [...options.buttons].reverse().entries()) {
    const width = Math.ceil(textWidth(spec.text, FONT.button)) + 84;
    buttonNodes.unshift(button(ctx, rect(buttonRight - width, y + 21, buttonRight, y + 147), {
      text: spec.text,
      onClick: spec.onClick,
      enabled: spec.enabled,
      variant: 'text',
      resourceId: spec.resourceId ?? `android:id/button${index === 0 ? 1 : 2}`,
    }));
    buttonRight -= width + 21;
  }
  panels.push(node('android.widget.ScrollView', rect(left, y, right, y + 168), { resourceId: 'android:id/buttonPanel' }, buttonNodes));
  const bounds = rect(left, top, right, top + height);
  return node('android.widget.FrameLayout', bounds, { style: { background: theme.surfaceHigh, radius: 73, raised: true } }, [
    node('android.widget.LinearLayout', bounds, { resourceId: 'android:id/parentPanel' }, panels),
  ]);
}
