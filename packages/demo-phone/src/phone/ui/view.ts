/**
 * One node of the on-screen view tree. The same tree is serialized by `uiautomator dump` and drawn by `screencap`,
 * so what an agent reads always matches what it sees. Handlers are attached by the screen that built the tree.
 */

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export type IconName =
  | 'back'
  | 'close'
  | 'plus'
  | 'delete'
  | 'send'
  | 'more'
  | 'alarm'
  | 'nav-back'
  | 'nav-home'
  | 'nav-recents'
  | 'wifi'
  | 'bluetooth'
  | 'airplane'
  | 'battery'
  | 'key-shift'
  | 'key-delete'
  | 'key-enter';

/** How the renderer draws a node (never serialized). */
export interface NodeStyle {
  background?: string;
  radius?: number;
  border?: string;
  /** A drop shadow under raised surfaces (FABs, cards, dialogs). */
  raised?: boolean;
  textColor?: string;
  fontSize?: number;
  bold?: boolean;
  align?: 'start' | 'center';
  /** Vertical text position: centered (default) or from the top with this padding. */
  textTop?: number;
  paddingLeft?: number;
  icon?: IconName;
  iconColor?: string;
  /** Shown in grey when the node is an empty text field. */
  hint?: string;
  /** Drawn centred but not reported (keyboard keys expose their label through content-desc). */
  label?: string;
  /** Wrap the text over several lines inside the bounds. */
  wrap?: boolean;
  /** A launcher icon: a coloured circle with a letter above the node's text. */
  appIcon?: { letter: string; color: string };
  /** A vertical gradient background (the wallpaper). */
  gradient?: [string, string];
  /** A circle avatar with this letter. */
  avatar?: { letter: string; color: string };
  /** Renders a Material switch track and thumb. */
  widget?: 'switch';
}

export interface TextFieldBinding {
  id: string;
  multiline?: boolean;
  /** Only these characters are accepted (e.g. digits for number fields). */
  accept?: RegExp;
  maxLength?: number;
}

export interface ViewNode {
  className: string;
  /** Visible bounds (clipped by scrolling containers), as uiautomator reports them. */
  bounds: Rect;
  /** Full geometry for drawing when `bounds` was clipped. */
  drawBounds?: Rect;
  /** Package is inherited from the window when not set. */
  pkg?: string;
  resourceId?: string;
  text?: string;
  contentDesc?: string;
  checkable?: boolean;
  checked?: boolean;
  clickable?: boolean;
  longClickable?: boolean;
  enabled?: boolean;
  focusable?: boolean;
  focused?: boolean;
  scrollable?: boolean;
  password?: boolean;
  selected?: boolean;
  children: ViewNode[];
  style?: NodeStyle;
  onClick?: () => void;
  onLongClick?: () => void;
  field?: TextFieldBinding;
  /** A scrollable container: swipes change the offset stored under `id`, bounded by `max`. */
  scroller?: { id: string; max: number };
  /** Clip the children's drawing to this node's bounds (scrolling lists). */
  clip?: boolean;
}

export type NodeProps = Omit<ViewNode, 'className' | 'bounds' | 'children' | 'drawBounds'>;

export function rect(left: number, top: number, right: number, bottom: number): Rect {
  return { left: Math.round(left), top: Math.round(top), right: Math.round(right), bottom: Math.round(bottom) };
}

export function node(className: string, bounds: Rect, props: NodeProps = {}, children: ViewNode[] = []): ViewNode {
  return { className, bounds, ...props, children };
}

export const contains = (bounds: Rect, x: number, y: number): boolean =>
  x >= bounds.left && x < bounds.right && y >= bounds.top && y < bounds.bottom;

const isEmptyRect = (bounds: Rect): boolean => bounds.right <= bounds.left || bounds.bottom <= bounds.top;

export function intersect(a: Rect, b: Rect): Rect {
  return {
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  };
}

/**
 * Clips a subtree to `clip` (a scrolling viewport): nodes outside disappear, partly visible ones keep their full
 * geometry in `drawBounds`.
 */
export function clipTree(root: ViewNode, clip: Rect): ViewNode | undefined {
  const visible = intersect(root.bounds, clip);
  if (isEmptyRect(visible)) return undefined;
  const clipped = visible.left !== root.bounds.left || visible.top !== root.bounds.top || visible.right !== root.bounds.right || visible.bottom !== root.bounds.bottom;
  const children = root.children.flatMap((child) => clipTree(child, clip) ?? []);
  return { ...root, bounds: visible, drawBounds: clipped ? (root.drawBounds ?? root.bounds) : root.drawBounds, children };
}

/** Depth-first walk, parents before children. */
export function* walk(root: ViewNode): Generator<ViewNode> {
  yield root;
  for (const child of root.children) yield* walk(child);
}

/** A window: one root of the `<hierarchy>`, drawn in z-order. */
export interface UiWindow {
  pkg: string;
  root: ViewNode;
  /** Modal windows swallow touches outside themselves and dim what is below. */
  modal?: boolean;
}
