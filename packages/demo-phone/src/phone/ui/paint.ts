import { SCREEN_HEIGHT, SCREEN_WIDTH } from '../properties';
import type { Tile } from './tile-cache';
import type { Rect } from './view';

/**
 * Pixel work on the screen buffer (opaque RGBA_8888, row by row): filling rectangles and painting tiles over it
 * with straight-alpha "over" blending, as librsvg would paint them in one pass.
 */

/** A colour with straight alpha, every channel 0-255. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const RGBA = /^rgba\((\d{1,3}),(\d{1,3}),(\d{1,3}),(0(?:\.\d+)?|1(?:\.0+)?)\)$/;

/** The colours the UI uses (`#rgb`, `#rrggbb`, `#rrggbbaa`, `rgba(r,g,b,a)`); undefined for anything else. */
export function parseColor(value: string): Rgba | undefined {
  const hex = HEX.exec(value)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex;
    const channel = (index: number) => parseInt(full.slice(index * 2, index * 2 + 2), 16);
    return { r: channel(0), g: channel(1), b: channel(2), a: full.length === 8 ? channel(3) : 255 };
  }
  const rgba = RGBA.exec(value.replace(/\s+/g, ''));
  if (!rgba) return undefined;
  const [r, g, b] = [rgba[1], rgba[2], rgba[3]].map(Number) as [number, number, number];
  if (r > 255 || g > 255 || b > 255) return undefined;
  return { r, g, b, a: Math.round(Number(rgba[4]) * 255) };
}

/** A new screen buffer; every pixel is written by the first fill, so it starts uninitialised. */
export function newScreen(): Buffer {
  return Buffer.allocUnsafeSlow(SCREEN_WIDTH * SCREEN_HEIGHT * 4);
}

/** Fills `rect` (whole pixels, within the screen) with `color`, blending when it is translucent. */
export function fillRect(screen: Buffer, rect: Rect, color: Rgba): void {
  if (color.a === 255) {
    // A native fill with the pixel as a 4-byte pattern: several times faster than a typed array's fill.
    const pixel = Buffer.from([color.r, color.g, color.b, color.a]);
    const rowStart = (y: number) => (y * SCREEN_WIDTH + rect.left) * 4;
    if (rect.left === 0 && rect.right === SCREEN_WIDTH) {
      screen.fill(pixel, rowStart(rect.top), rowStart(rect.bottom));
      return;
    }
    const width = (rect.right - rect.left) * 4;
    for (let y = rect.top; y < rect.bottom; y++) screen.fill(pixel, rowStart(y), rowStart(y) + width);
    return;
  }
  // One blend per channel value: a full-screen scrim is 2.6 million pixels.
  const keep = 255 - color.a;
  const table = (channel: number) => Uint8Array.from({ length: 256 }, (_, value) => (channel * color.a + value * keep + 127) / 255);
  const [red, green, blue] = [table(color.r), table(color.g), table(color.b)];
  for (let y = rect.top; y < rect.bottom; y++) {
    const end = (y * SCREEN_WIDTH + rect.right) * 4;
    for (let at = (y * SCREEN_WIDTH + rect.left) * 4; at < end; at += 4) {
      screen[at] = red[screen[at] as number] as number;
      screen[at + 1] = green[screen[at + 1] as number] as number;
      screen[at + 2] = blue[screen[at + 2] as number] as number;
    }
  }
}

/** Below this many pixels an opaque run is copied pixel by pixel: a native copy costs more to call. */
const SHORT_RUN = 16;

/** Paints `tile`'s ink over the screen with its top left corner at (left, top), only within `clip`. */
export function paintTile(screen: Buffer, tile: Tile, left: number, top: number, clip: Rect): void {
  const { rgba, spans, width } = tile;
  for (let span = 0; span < spans.length; span += 4) {
    const y = top + (spans[span] as number);
    if (y < clip.top || y >= clip.bottom) continue;
    const first = Math.max(left + (spans[span + 1] as number), clip.left);
    const end = Math.min(left + (spans[span + 2] as number), clip.right);
    if (first >= end) continue;
    let from = ((y - top) * width + (first - left)) * 4;
    let to = (y * SCREEN_WIDTH + first) * 4;
    if (spans[span + 3] === 1) {
      if (end - first >= SHORT_RUN) {
        rgba.copy(screen, to, from, from + (end - first) * 4);
        continue;
      }
      for (let x = first; x < end; x++, from += 4, to += 4) {
        screen[to] = rgba[from] as number;
        screen[to + 1] = rgba[from + 1] as number;
        screen[to + 2] = rgba[from + 2] as number;
      }
      continue;
    }
    for (let x = first; x < end; x++, from += 4, to += 4) {
      const alpha = rgba[from + 3] as number;
      const keep = 255 - alpha;
      screen[to] = ((rgba[from] as number) * alpha + (screen[to] as number) * keep + 127) / 255;
      screen[to + 1] = ((rgba[from + 1] as number) * alpha + (screen[to + 1] as number) * keep + 127) / 255;
      screen[to + 2] = ((rgba[from + 2] as number) * alpha + (screen[to + 2] as number) * keep + 127) / 255;
    }
  }
}
