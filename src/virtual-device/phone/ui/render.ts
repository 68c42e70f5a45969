import sharp from 'sharp';
import { SCREEN_HEIGHT, SCREEN_WIDTH } from '../properties';
import { ellipsize, textWidth, wrapText } from './text-metrics';
import { runKey, TextTileCache, type InkImage, type TextRun, type TextTile } from './text-tiles';
import type { IconName, Rect, UiWindow, ViewNode } from './view';

/**
 * Draws the view tree as SVG shapes plus text runs, so pixels and the XML share one source. librsvg rasterises
 * the shapes; text comes from a cache of rasterised runs (text-tiles.ts) and is composited in drawing order.
 */

const SCRIM = 'rgba(0,0,0,0.32)';
const SHADOW = 'rgba(0,0,0,0.18)';
const SCREEN: Rect = { left: 0, top: 0, right: SCREEN_WIDTH, bottom: SCREEN_HEIGHT };
const TEXT_TILES = new TextTileCache();

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

interface PlacedText {
  run: TextRun;
  x: number;
  y: number;
  clip: Rect;
}

/** Shapes drawn by one librsvg pass, then the text drawn over them; a later layer covers both. */
interface DrawingLayer {
  shapes: string[];
  texts: PlacedText[];
  /** What the shapes can paint, within the screen; a later layer is rasterised over this area only. */
  area?: Rect;
}

/** One screen's drawing; `key` names it fully, so equal keys give equal pixels. */
export interface Drawing {
  key: string;
  defs: string;
  layers: DrawingLayer[];
}

function intersect(a: Rect, b: Rect): Rect | undefined {
  const rect = { left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) };
  return rect.left < rect.right && rect.top < rect.bottom ? rect : undefined;
}

function union(a: Rect, b: Rect): Rect {
  return { left: Math.min(a.left, b.left), top: Math.min(a.top, b.top), right: Math.max(a.right, b.right), bottom: Math.max(a.bottom, b.bottom) };
}

/**
 * Where the run's glyphs land, from the font metrics' estimate: ascenders to descenders, advance widths. Its tile
 * is wider for safety, but an icon beside a label must not count as covering it, or every status bar would start
 * a layer.
 */
function textInkBounds(placed: PlacedText): Rect {
  const { run, x, y } = placed;
  const width = textWidth(run.text, run.size) * 1.05;
  const left = run.anchor === 'middle' ? x - width / 2 : x;
  return { left, top: y - run.size * 0.8, right: left + width, bottom: y + run.size * 0.25 };
}

/** Whether a shape over `bounds` would paint over the part of the text that shows inside its clip. */
function coversText(bounds: Rect, placed: PlacedText): boolean {
  const shown = intersect(textInkBounds(placed), placed.clip);
  return shown !== undefined && intersect(shown, bounds) !== undefined;
}

/**
 * Collects shapes and text in painting order. A shape that overlaps text already placed starts a new layer, so
 * it covers that text as it would in one SVG; open clip groups close at a layer's end and reopen in the next.
 */
class DrawingWriter {
  private readonly defs: string[] = [];
  private readonly layers: DrawingLayer[] = [{ shapes: [], texts: [] }];
  private readonly groups: Array<{ markup: string; clip: Rect }> = [];
  private nextId = 0;

  id(prefix: string): string {
    return `${prefix}${this.nextId++}`;
  }

  def(markup: string): void {
    this.defs.push(markup);
  }

  shape(markup: string, bounds: Rect): void {
    if (this.current().texts.some((placed) => coversText(bounds, placed))) this.startLayer();
    const layer = this.current();
    layer.shapes.push(markup);
    const painted = intersect(bounds, SCREEN);
    if (painted) layer.area = layer.area ? union(layer.area, painted) : painted;
  }

  text(run: TextRun, x: number, y: number): void {
    const clip = this.groups.reduce<Rect | undefined>((rect, group) => rect && intersect(rect, group.clip), SCREEN);
    if (clip) this.current().texts.push({ run, x: Math.round(x), y: Math.round(y), clip });
  }

  openClip(markup: string, clip: Rect): void {
    this.current().shapes.push(markup);
    this.groups.push({ markup, clip });
  }

  closeClip(): void {
    this.current().shapes.push('</g>');
    this.groups.pop();
  }

  finish(): Drawing {
    const defs = this.defs.join('');
    const key = this.layers
      .map((layer) => layer.shapes.join('') + layer.texts.map((t) => `[${t.x},${t.y},${rectKey(t.clip)}:${runKey(t.run)}]`).join(''))
      .join('\n');
    return { key: `${defs}\n${key}`, defs, layers: this.layers };
  }

  private current(): DrawingLayer {
    return this.layers[this.layers.length - 1] as DrawingLayer;
  }

  private startLayer(): void {
    for (let i = 0; i < this.groups.length; i++) this.current().shapes.push('</g>');
    this.layers.push({ shapes: this.groups.map((group) => group.markup), texts: [] });
  }
}

function rectKey(rect: Rect): string {
  return `${rect.left},${rect.top},${rect.right},${rect.bottom}`;
}

function roundedRect(bounds: Rect, radius: number, fill: string, extra = ''): string {
  const width = bounds.right - bounds.left;
  const height = bounds.bottom - bounds.top;
  const r = Math.min(radius, width / 2, height / 2);
  return `<rect x="${bounds.left}" y="${bounds.top}" width="${width}" height="${height}" rx="${r}" fill="${fill}"${extra}/>`;
}

/** A rounded rectangle with the bounds it paints, a stroke's half width included. */
function drawRect(svg: DrawingWriter, bounds: Rect, radius: number, fill: string, extra = '', strokeWidth = 0): void {
  const half = strokeWidth / 2;
  svg.shape(roundedRect(bounds, radius, fill, extra), { left: bounds.left - half, top: bounds.top - half, right: bounds.right + half, bottom: bounds.bottom + half });
}

function drawCircle(svg: DrawingWriter, cx: number, cy: number, r: number, fill: string): void {
  svg.shape(`<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"/>`, { left: cx - r, top: cy - r, right: cx + r, bottom: cy + r });
}

function textRun(text: string, size: number, color: string, bold = false, anchor: 'start' | 'middle' = 'start'): TextRun {
  return { text, size, color, bold, anchor };
}

function drawIcon(svg: DrawingWriter, name: IconName, centerX: number, centerY: number, size: number, color: string): void {
  const scale = size / 24;
  const left = Math.round(centerX - size / 2);
  const top = Math.round(centerY - size / 2);
  svg.shape(
    `<path d="${ICON_PATHS[name]}" fill="${color}" transform="translate(${left} ${top}) scale(${scale.toFixed(3)})"/>`,
    { left, top, right: left + size, bottom: top + size },
  );
}

function drawNode(svg: DrawingWriter, node: ViewNode): void {
  const b = node.drawBounds ?? node.bounds;
  const style = node.style ?? {};
  const width = b.right - b.left;
  const height = b.bottom - b.top;
  const centerX = (b.left + b.right) / 2;
  const centerY = (b.top + b.bottom) / 2;

  if (style.gradient) {
    const gradientId = svg.id('g');
    svg.def(`<linearGradient id="${gradientId}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${style.gradient[0]}"/><stop offset="1" stop-color="${style.gradient[1]}"/></linearGradient>`);
    drawRect(svg, b, 0, `url(#${gradientId})`);
  }
  if (style.widget === 'switch') {
    const checked = node.checked === true;
    const track = { left: b.left, top: centerY - 42, right: b.right, bottom: centerY + 42 };
    if (checked) drawRect(svg, track, 42, style.background ?? '#888');
    else drawRect(svg, track, 42, style.background ?? '#888', ` stroke="${style.border ?? '#79747E'}" stroke-width="5"`, 5);
    const thumbX = checked ? b.right - 42 : b.left + 42;
    drawCircle(svg, thumbX, centerY, checked ? 31 : 21, checked ? '#FFFFFF' : (style.border ?? '#79747E'));
    return;
  }
  const strokeWidth = node.focused ? 6 : 3;
  if (style.raised) drawRect(svg, { ...b, top: b.top + 8, bottom: b.bottom + 8 }, style.radius ?? 0, SHADOW);
  if (style.background) {
    const stroke = style.border ? ` stroke="${style.border}" stroke-width="${strokeWidth}"` : '';
    drawRect(svg, b, style.radius ?? 0, style.background, stroke, style.border ? strokeWidth : 0);
  } else if (style.border) {
    drawRect(svg, b, style.radius ?? 0, 'none', ` stroke="${style.border}" stroke-width="${strokeWidth}"`, strokeWidth);
  }
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
    const clipId = svg.id('c');
    const { left, top, right, bottom } = node.bounds;
    svg.def(`<clipPath id="${clipId}"><rect x="${left}" y="${top}" width="${right - left}" height="${bottom - top}"/></clipPath>`);
    svg.openClip(`<g clip-path="url(#${clipId})">`, node.bounds);
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
    svg.shape(
      `<rect x="${cursorX}" y="${cursorTop}" width="4" height="${cursorHeight}" fill="${style.border ?? color}"/>`,
      { left: cursorX, top: cursorTop, right: cursorX + 4, bottom: cursorTop + cursorHeight },
    );
  }
}

export function drawWindows(windows: readonly UiWindow[]): Drawing {
  const svg = new DrawingWriter();
  svg.shape(`<rect width="${SCREEN_WIDTH}" height="${SCREEN_HEIGHT}" fill="#000000"/>`, SCREEN);
  for (const window of windows) {
    if (window.modal) svg.shape(`<rect width="${SCREEN_WIDTH}" height="${SCREEN_HEIGHT}" fill="${SCRIM}"/>`, SCREEN);
    drawNode(svg, window.root);
  }
  return svg.finish();
}

/** The layer's shapes over `area` of the screen, as SVG. */
function layerSvg(drawing: Drawing, layer: DrawingLayer, area: Rect): Buffer {
  const width = area.right - area.left;
  const height = area.bottom - area.top;
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${area.left} ${area.top} ${width} ${height}">` +
      `<defs>${drawing.defs}</defs>${layer.shapes.join('')}</svg>`,
  );
}

function outward(rect: Rect): Rect {
  return { left: Math.floor(rect.left), top: Math.floor(rect.top), right: Math.ceil(rect.right), bottom: Math.ceil(rect.bottom) };
}

/**
 * Paints `image`'s ink over the opaque screen with its top left corner at (left, top), only within `clip`. Done
 * here rather than by sharp's composite, which widens every overlay to the whole screen (~8 ms per text run).
 */
function paintOver(screen: Buffer, image: InkImage, left: number, top: number, clip: Rect): void {
  const { rgba, ink, width } = image;
  for (let span = 0; span < ink.length; span += 3) {
    const y = top + (ink[span] as number);
    if (y < clip.top || y >= clip.bottom) continue;
    const first = Math.max(left + (ink[span + 1] as number), clip.left);
    const end = Math.min(left + (ink[span + 2] as number), clip.right);
    let from = ((y - top) * width + (first - left)) * 4;
    let to = (y * SCREEN_WIDTH + first) * 4;
    for (let x = first; x < end; x++, from += 4, to += 4) {
      const alpha = rgba[from + 3] as number;
      const keep = 255 - alpha;
      screen[to] = ((rgba[from] as number) * alpha + (screen[to] as number) * keep + 127) / 255;
      screen[to + 1] = ((rgba[from + 1] as number) * alpha + (screen[to + 1] as number) * keep + 127) / 255;
      screen[to + 2] = ((rgba[from + 2] as number) * alpha + (screen[to + 2] as number) * keep + 127) / 255;
    }
  }
}

/** The screen's opaque RGBA pixels: the first layer by librsvg, then text tiles and later layers in order. */
async function compose(drawing: Drawing): Promise<Buffer> {
  const [base, ...later] = drawing.layers as [DrawingLayer, ...DrawingLayer[]];
  const tilesPromise = TEXT_TILES.tilesFor(drawing.layers.flatMap((layer) => layer.texts.map((placed) => placed.run)));
  const rasters = later.map(async (layer) => {
    if (!layer.area) return undefined;
    const area = outward(layer.area);
    const rgba = await sharp(layerSvg(drawing, layer, area)).ensureAlpha().raw().toBuffer();
    return { image: wholeImage(rgba, area.right - area.left), area };
  });
  const [screen, tiles, ...layerImages] = await Promise.all([
    sharp(layerSvg(drawing, base, SCREEN)).ensureAlpha().raw().toBuffer(),
    tilesPromise,
    ...rasters,
  ]);
  let next = 0;
  drawing.layers.forEach((layer, index) => {
    const raster = index > 0 ? layerImages[index - 1] : undefined;
    if (raster) paintOver(screen, raster.image, raster.area.left, raster.area.top, SCREEN);
    for (const placed of layer.texts) {
      const tile = tiles[next++] as TextTile;
      paintOver(screen, tile, placed.x - tile.originX, placed.y - tile.originY, placed.clip);
    }
  });
  return screen;
}

/** An image painted whole: one span per row (a layer is drawn once, so finding its ink would cost more than it saves). */
function wholeImage(rgba: Buffer, width: number): InkImage {
  const height = rgba.length / 4 / width;
  const ink = new Int32Array(height * 3);
  for (let row = 0; row < height; row++) ink.set([row, 0, width], row * 3);
  return { width, height, rgba, ink };
}

function rawImage(rgba: Buffer): sharp.Sharp {
  return sharp(rgba, { raw: { width: SCREEN_WIDTH, height: SCREEN_HEIGHT, channels: 4 } });
}

/**
 * PNG at zlib level 1: ~5 ms less per new 1080x2400 screen than level 3 for ~30 % more bytes, which cost next
 * to nothing over a local socket; the host's decode takes as long either way.
 */
export async function renderPng(drawing: Drawing): Promise<Buffer> {
  return rawImage(await compose(drawing)).png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer();
}

/** Raw RGBA_8888 pixels, row by row. */
export async function renderRgba(drawing: Drawing): Promise<Buffer> {
  return compose(drawing);
}
