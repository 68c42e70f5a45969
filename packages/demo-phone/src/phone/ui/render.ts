import sharp from 'sharp';
import { SCREEN_HEIGHT, SCREEN_WIDTH } from '../properties';
import { fillRect, newScreen, paintTile, parseColor, type Rgba } from './paint';
import { ellipsize, textWidth, wrapText } from './text-metrics';
import { textTileSource, type TextRun, type TextTileSource } from './text-tiles';
import { TileCache, type Tile, type TileSource } from './tile-cache';
import type { IconName, Rect, UiWindow, ViewNode } from './view';

/**
 * Draws the view tree as SVG shapes and text runs, so pixels and the XML share one source. Each shape and run is
 * rasterised by librsvg once, as a tile (tile-cache.ts), and a screen is composed from tiles in drawing order.
 */

const SCRIM = 'rgba(0,0,0,0.32)';
const SHADOW = 'rgba(0,0,0,0.18)';
const SCREEN: Rect = { left: 0, top: 0, right: SCREEN_WIDTH, bottom: SCREEN_HEIGHT };
const TEXT_TILES = new TileCache(48 * 1024 * 1024);
// Room for a few full-screen wallpapers besides the cards, icons and shadows.
const SHAPE_TILES = new TileCache(96 * 1024 * 1024);

/** Material icon outlines on a 24x24 grid. */
const ICON_PATHS: Record<IconName, string> = {
  back: 'M20 11H7.83l5.59-5.59L12 4l-8 8 8 8 1.41-1.41L7.83 13H20v-2z',
  close: 'M19 6.41L17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z',
  plus: 'M19 13h-6v6h-2v-6H5v-2h6V5h2v6h6v2z',
  delete: 'M6 19c0 1.1.9 2 2 2h8c1.1 0 2-.9 2-2V7H6v12zM19 4h-3.5l-1-1h-5l-1 1H5v2h14V4z',
  send: 'M2.01 21L23 12 2.01 3 2 10l15 2-15 2z',
  more: 'M12 8a2 2 0 1 0 0-4 2 2 0 0 0 0 4zm0 2a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm0 6a2 2 0 1 0 0 4 2 2 0 0 0 0-4z',
  alarm: 'M12 4a8 8 0 1 0 0 16 8 8 0 0 0 0-16zm0 14a6 6 0 1 1 0-12 6 6 0 0 1 0 12zm.5-10H11v5l4 2.4.75-1.23-3.25-1.92z',
  'nav-back': 'M17 4v16L5 12z',
  'nav-home': 'M12 5a7 7 0 1 0 0 14 7 7 0 0 0 0-14z',
  'nav-recents': 'M6 6h12v12H6z',
  wifi: 'M12 21L0.5 7.5C3.7 4.7 7.7 3 12 3s8.3 1.7 11.5 4.5z',
  bluetooth:
    'M17.71 7.71L12 2h-1v7.59L6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 11 14.41V22h1l5.71-5.71-4.3-4.29 4.3-4.29zM13 5.83l1.88 1.88L13 9.59V5.83zm1.88 10.46L13 18.17v-3.76l1.88 1.88z',
  airplane: 'M21 16v-2l-8-5V3.5a1.5 1.5 0 0 0-3 0V9l-8 5v2l8-2.5V19l-2 1.5V22l3.5-1 3.5 1v-1.5L13 19v-5.5l8 2.5z',
  battery: 'M15.67 4H14V2h-4v2H8.33C7.6 4 7 4.6 7 5.33v15.33C7 21.4 7.6 22 8.33 22h7.33c.74 0 1.34-.6 1.34-1.33V5.33C17 4.6 16.4 4 15.67 4z',
  'key-shift': 'M12 4L4 13h5v7h6v-7h5z',
  'key-delete':
    'M22 3H7c-.69 0-1.23.35-1.59.88L0 12l5.41 8.11c.36.53.9.89 1.59.89h15a2 2 0 0 0 2-2V5a2 2 0 0 0-2-2zm-3 12.59L17.59 17 14 13.41 10.41 17 9 15.59 12.59 12 9 8.41 10.41 7 14 10.59 17.59 7 19 8.41 15.41 12 19 15.59z',
  'key-enter': 'M19 7v4H5.83l3.58-3.59L8 6l-6 6 6 6 1.41-1.41L5.83 13H21V7z',
};

/** One step of painting a screen, in order; `markup` is the step as SVG in screen coordinates. */
export type PaintOp =
  | { kind: 'fill'; rect: Rect; color: Rgba; markup: string }
  | { kind: 'sprite'; source: TileSource; left: number; top: number; clip: Rect; markup: string }
  | { kind: 'text'; run: TextRun; source: TextTileSource; x: number; y: number; clip: Rect };

/** One screen's drawing; `key` names it fully, so equal keys give equal pixels. */
export interface Drawing {
  key: string;
  ops: PaintOp[];
}

/** A shape to paint: the area it can paint (a stroke's half width included) and its markup shifted by (-dx, -dy). */
interface Shape {
  bounds: Rect;
  markup(dx: number, dy: number): string;
  /** Set for a plain rectangle of whole pixels in one colour, which is filled without librsvg. */
  solid?: string;
}

function intersect(a: Rect, b: Rect): Rect | undefined {
  const rect = { left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) };
  return rect.left < rect.right && rect.top < rect.bottom ? rect : undefined;
}

/** The whole pixels a rectangle touches, one more on each side for antialiased edges. */
function pixelBox(rect: Rect): Rect {
  return { left: Math.floor(rect.left) - 1, top: Math.floor(rect.top) - 1, right: Math.ceil(rect.right) + 1, bottom: Math.ceil(rect.bottom) + 1 };
}

function rectKey(rect: Rect): string {
  return `${rect.left},${rect.top},${rect.right},${rect.bottom}`;
}

/**
 * Collects paint steps in painting order with the clip of the scroll containers open at each. A shape becomes a
 * tile in its own box, positioned by whole pixels so its antialiasing matches a drawing in place; the same shape at
 * another position (a list row's icon, a card further down) reuses the tile.
 */
class DrawingWriter {
  private readonly ops: PaintOp[] = [];
  private readonly clips: Rect[] = [SCREEN];

  shape(shape: Shape): void {
    const clip = this.clip();
    const color = shape.solid === undefined ? undefined : parseColor(shape.solid);
    if (color) {
      const rect = intersect(shape.bounds, clip);
      // An opaque fill of the whole screen (an app's background) hides everything painted before it.
      if (rect && color.a === 255 && rectKey(rect) === rectKey(SCREEN)) this.ops.length = 0;
      if (rect) this.ops.push({ kind: 'fill', rect, color, markup: shape.markup(0, 0) });
      return;
    }
    // The tile holds the whole shape, cut only by the screen's edges, and the clip applies when painting: a shape
    // that a scrolling list cuts differently each time keeps one tile.
    const box = intersect(pixelBox(shape.bounds), SCREEN);
    if (!box || !intersect(box, clip)) return;
    const width = box.right - box.left;
    const height = box.bottom - box.top;
    const markup = shape.markup(box.left, box.top);
    const source = { key: `shape:${width}x${height}:${markup}`, width, height, markup };
    this.ops.push({ kind: 'sprite', source, left: box.left, top: box.top, clip, markup: shape.markup(0, 0) });
  }

  text(run: TextRun, x: number, y: number): void {
    const source = textTileSource(run);
    const left = Math.round(x) - source.originX;
    const top = Math.round(y) - source.originY;
    const clip = this.clip();
    if (!intersect({ left, top, right: left + source.width, bottom: top + source.height }, clip)) return;
    this.ops.push({ kind: 'text', run, source, x: Math.round(x), y: Math.round(y), clip });
  }

  openClip(clip: Rect): void {
    this.clips.push(intersect(this.clip(), clip) ?? { left: 0, top: 0, right: 0, bottom: 0 });
  }

  closeClip(): void {
    this.clips.pop();
  }

  finish(): Drawing {
    const key = this.ops
      .map((op) => (op.kind === 'text' ? `T${op.x},${op.y},${rectKey(op.clip)}:${op.source.key}` : op.kind === 'fill' ? `F${rectKey(op.rect)}:${op.markup}` : `S${rectKey(op.clip)}:${op.markup}`))
      .join('\n');
    return { key, ops: this.ops };
  }

  private clip(): Rect {
    return this.clips[this.clips.length - 1] as Rect;
  }
}

const px = (value: number) => Number(value.toFixed(2));

function rectShape(bounds: Rect, radius: number, fill: string, stroke?: { color: string; width: number }): Shape {
  const width = bounds.right - bounds.left;
  const height = bounds.bottom - bounds.top;
  const r = Math.min(radius, width / 2, height / 2);
  const half = (stroke?.width ?? 0) / 2;
  const strokeMarkup = stroke ? ` stroke="${stroke.color}" stroke-width="${stroke.width}"` : '';
  const wholePixels = [bounds.left, bounds.top, bounds.right, bounds.bottom].every(Number.isInteger);
  return {
    bounds: { left: bounds.left - half, top: bounds.top - half, right: bounds.right + half, bottom: bounds.bottom + half },
    markup: (dx, dy) => `<rect x="${px(bounds.left - dx)}" y="${px(bounds.top - dy)}" width="${width}" height="${height}" rx="${r}" fill="${fill}"${strokeMarkup}/>`,
    ...(r === 0 && !stroke && wholePixels ? { solid: fill } : {}),
  };
}

function drawRect(svg: DrawingWriter, bounds: Rect, radius: number, fill: string, stroke?: { color: string; width: number }): void {
  svg.shape(rectShape(bounds, radius, fill, stroke));
}

function drawCircle(svg: DrawingWriter, cx: number, cy: number, r: number, fill: string): void {
  svg.shape({
    bounds: { left: cx - r, top: cy - r, right: cx + r, bottom: cy + r },
    markup: (dx, dy) => `<circle cx="${px(cx - dx)}" cy="${px(cy - dy)}" r="${r}" fill="${fill}"/>`,
  });
}

/** A vertical gradient over `bounds`; its id comes from its colours, so equal gradients share a tile. */
function drawGradient(svg: DrawingWriter, bounds: Rect, [top, bottom]: [string, string]): void {
  const id = `gradient-${`${top}-${bottom}`.replace(/[^0-9a-z-]/gi, '')}`;
  const gradient = `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>`;
  const rect = rectShape(bounds, 0, `url(#${id})`);
  svg.shape({ bounds: rect.bounds, markup: (dx, dy) => `<defs>${gradient}</defs>${rect.markup(dx, dy)}` });
}

function textRun(text: string, size: number, color: string, bold = false, anchor: 'start' | 'middle' = 'start'): TextRun {
  return { text, size, color, bold, anchor };
}

function drawIcon(svg: DrawingWriter, name: IconName, centerX: number, centerY: number, size: number, color: string): void {
  const scale = (size / 24).toFixed(3);
  const left = Math.round(centerX - size / 2);
  const top = Math.round(centerY - size / 2);
  svg.shape({
    bounds: { left, top, right: left + size, bottom: top + size },
    markup: (dx, dy) => `<path d="${ICON_PATHS[name]}" fill="${color}" transform="translate(${left - dx} ${top - dy}) scale(${scale})"/>`,
  });
}

function drawNode(svg: DrawingWriter, node: ViewNode): void {
  const b = node.drawBounds ?? node.bounds;
  const style = node.style ?? {};
  const width = b.right - b.left;
  const height = b.bottom - b.top;
  const centerX = (b.left + b.right) / 2;
  const centerY = (b.top + b.bottom) / 2;

  if (style.gradient) drawGradient(svg, b, style.gradient);
  if (style.widget === 'switch') {
    const checked = node.checked === true;
    const track = { left: b.left, top: centerY - 42, right: b.right, bottom: centerY + 42 };
    if (checked) drawRect(svg, track, 42, style.background ?? '#888');
    else drawRect(svg, track, 42, style.background ?? '#888', { color: style.border ?? '#79747E', width: 5 });
    const thumbX = checked ? b.right - 42 : b.left + 42;
    drawCircle(svg, thumbX, centerY, checked ? 31 : 21, checked ? '#FFFFFF' : (style.border ?? '#79747E'));
    return;
  }
  const strokeWidth = node.focused ? 6 : 3;
  if (style.raised) drawRect(svg, { ...b, top: b.top + 8, bottom: b.bottom + 8 }, style.radius ?? 0, SHADOW);
  const stroke = style.border ? { color: style.border, width: strokeWidth } : undefined;
  if (style.background || stroke) drawRect(svg, b, style.radius ?? 0, style.background ?? 'none', stroke);
  if (style.avatar) {
    const radius = Math.min(width, height) / 2;
    drawCircle(svg, centerX, centerY, radius, style.avatar.color);
    svg.text(textRun(style.avatar.letter, Math.round(radius), '#FFFFFF', true, 'middle'), centerX, centerY + radius * 0.36);
  }
  if (style.appIcon) {
    const iconY = b.top + 110;
    drawCircle(svg, centerX, iconY, 84, style.appIcon.color);
    svg.text(textRun(style.appIcon.letter, 84, '#FFFFFF', true, 'middle'), centerX, iconY + 30);
  }
  if (style.icon) {
    const box = Math.min(width, height);
    const size = box <= 70 ? box : Math.round(box * 0.5);
    const iconX = style.paddingLeft !== undefined ? b.left + style.paddingLeft / 2 + 10 : centerX;
    drawIcon(svg, style.icon, iconX, centerY, size, style.iconColor ?? '#000000');
  }
  const fontSize = style.fontSize ?? 40;
  const color = style.textColor ?? '#000000';
  if (style.label) svg.text(textRun(style.label, fontSize, color, style.bold, 'middle'), centerX, centerY + fontSize * 0.35);
  if (node.text) drawText(svg, node, b, fontSize, color);

  if (node.clip) {
    svg.openClip(node.bounds);
    for (const child of node.children) drawNode(svg, child);
    svg.closeClip();
  } else {
    for (const child of node.children) drawNode(svg, child);
  }
}

function drawText(svg: DrawingWriter, node: ViewNode, b: Rect, fontSize: number, color: string): void {
  const style = node.style ?? {};
  const text = node.text ?? '';
  const padding = style.paddingLeft ?? 0;
  // A leading icon makes the left padding wider than the right one (extended FABs).
  const available = b.right - b.left - padding - Math.min(padding, 42);
  const center = style.align === 'center';
  const x = center ? (b.left + b.right) / 2 : b.left + padding;
  const anchor = center ? 'middle' : 'start';
  if (style.wrap) {
    const lineHeight = Math.round(fontSize * 1.3);
    const lines = wrapText(text, available, fontSize);
    const blockHeight = lines.length * lineHeight;
    let y = style.textTop !== undefined ? b.top + style.textTop + fontSize * 0.8 : (b.top + b.bottom - blockHeight) / 2 + fontSize * 0.85;
    for (const line of lines) {
      if (y > b.bottom) break;
      svg.text(textRun(line, fontSize, color, style.bold, anchor), x, y);
      y += lineHeight;
    }
    return;
  }
  const y = style.textTop !== undefined ? b.top + style.textTop + fontSize * 0.8 : (b.top + b.bottom) / 2 + fontSize * 0.35;
  const shown = ellipsize(text, available, fontSize);
  svg.text(textRun(shown, fontSize, color, style.bold, anchor), x, y);
  if (node.focused && node.field && !style.hint) {
    const cursorX = Math.round(Math.min(b.right - padding, x + textWidth(shown, fontSize) + 4));
    const cursorTop = Math.round(y - fontSize * 0.85);
    const cursorHeight = Math.round(fontSize * 1.05);
    drawRect(svg, { left: cursorX, top: cursorTop, right: cursorX + 4, bottom: cursorTop + cursorHeight }, 0, style.border ?? color);
  }
}

export function drawWindows(windows: readonly UiWindow[]): Drawing {
  const svg = new DrawingWriter();
  drawRect(svg, SCREEN, 0, '#000000');
  for (const window of windows) {
    if (window.modal) drawRect(svg, SCREEN, 0, SCRIM);
    drawNode(svg, window.root);
  }
  return svg.finish();
}

/** Paints the drawing over `screen` (every pixel: the first step fills the whole screen), in drawing order. */
async function composeInto(screen: Buffer, drawing: Drawing): Promise<void> {
  const sprites = drawing.ops.flatMap((op) => (op.kind === 'sprite' ? [op.source] : []));
  const texts = drawing.ops.flatMap((op) => (op.kind === 'text' ? [op.source] : []));
  const [spriteTiles, textTiles] = await Promise.all([SHAPE_TILES.tilesFor(sprites), TEXT_TILES.tilesFor(texts)]);
  let nextSprite = 0;
  let nextText = 0;
  for (const op of drawing.ops) {
    if (op.kind === 'fill') fillRect(screen, op.rect, op.color);
    else if (op.kind === 'sprite') paintTile(screen, spriteTiles[nextSprite++] as Tile, op.left, op.top, op.clip);
    else paintTile(screen, textTiles[nextText++] as Tile, op.x - op.source.originX, op.y - op.source.originY, op.clip);
  }
}

/**
 * Screen buffers to compose PNGs in, reused: the first write to a fresh 10 MB buffer faults in every page of it,
 * which costs more than all the painting. A buffer is lent for one compose and encode and returned after.
 */
class ScreenPool {
  private readonly free: Buffer[] = [];

  async lend<T>(work: (screen: Buffer) => Promise<T>): Promise<T> {
    const screen = this.free.pop() ?? newScreen();
    try {
      return await work(screen);
    } finally {
      // Two are enough for a capture in flight while the next screen composes; more would only hold memory.
      if (this.free.length < 2) this.free.push(screen);
    }
  }
}

const SCREEN_POOL = new ScreenPool();

/**
 * The screen as PNG at zlib level 1: ~5 ms less per new 1080x2400 screen than level 3 for ~30 % more bytes, which
 * cost next to nothing over a local socket; the host's decode takes as long either way.
 */
export function encodePng(rgba: Buffer): Promise<Buffer> {
  return sharp(rgba, { raw: { width: SCREEN_WIDTH, height: SCREEN_HEIGHT, channels: 4 } })
    .png({ compressionLevel: 1, adaptiveFiltering: false })
    .toBuffer();
}

/** The drawing as PNG, composed in a pooled buffer (only the PNG outlives the call). */
export function renderPng(drawing: Drawing): Promise<Buffer> {
  return SCREEN_POOL.lend(async (screen) => {
    await composeInto(screen, drawing);
    return encodePng(screen);
  });
}

/** Raw RGBA_8888 pixels, row by row, in a buffer of their own. */
export async function renderRgba(drawing: Drawing): Promise<Buffer> {
  const screen = newScreen();
  await composeInto(screen, drawing);
  return screen;
}
