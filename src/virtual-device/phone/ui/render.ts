import sharp from 'sharp';
import { SCREEN_HEIGHT, SCREEN_WIDTH } from '../properties';
import { ellipsize, textWidth, wrapText } from './text-metrics';
import type { IconName, Rect, UiWindow, ViewNode } from './view';

/** Draws the view tree as SVG and rasterises it with sharp (librsvg), so pixels and the XML share one source. */

// One family (Pango falls back per glyph by itself); a fallback list makes every text element ~30 % slower to lay out.
const FONT_FAMILY = 'Liberation Sans';
const SCRIM = 'rgba(0,0,0,0.32)';
const SHADOW = 'rgba(0,0,0,0.18)';

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

function escapeText(value: string): string {
  return value.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char] as string);
}

class SvgWriter {
  private readonly parts: string[] = [];
  private readonly defs: string[] = [];
  private nextId = 0;

  id(prefix: string): string {
    return `${prefix}${this.nextId++}`;
  }

  def(markup: string): void {
    this.defs.push(markup);
  }

  add(markup: string): void {
    this.parts.push(markup);
  }

  toString(): string {
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${SCREEN_WIDTH}" height="${SCREEN_HEIGHT}" viewBox="0 0 ${SCREEN_WIDTH} ${SCREEN_HEIGHT}">` +
      `<defs>${this.defs.join('')}</defs>${this.parts.join('')}</svg>`
    );
  }
}

function roundedRect(bounds: Rect, radius: number, fill: string, extra = ''): string {
  const width = bounds.right - bounds.left;
  const height = bounds.bottom - bounds.top;
  const r = Math.min(radius, width / 2, height / 2);
  return `<rect x="${bounds.left}" y="${bounds.top}" width="${width}" height="${height}" rx="${r}" fill="${fill}"${extra}/>`;
}

function textElement(x: number, y: number, text: string, size: number, color: string, bold = false, anchor: 'start' | 'middle' = 'start'): string {
  return (
    `<text x="${Math.round(x)}" y="${Math.round(y)}" font-family="${FONT_FAMILY}" font-size="${size}" fill="${color}"` +
    `${bold ? ' font-weight="bold"' : ''}${anchor === 'middle' ? ' text-anchor="middle"' : ''}>${escapeText(text)}</text>`
  );
}

function iconElement(name: IconName, centerX: number, centerY: number, size: number, color: string): string {
  const scale = size / 24;
  return `<path d="${ICON_PATHS[name]}" fill="${color}" transform="translate(${Math.round(centerX - size / 2)} ${Math.round(centerY - size / 2)}) scale(${scale.toFixed(3)})"/>`;
}

function drawNode(svg: SvgWriter, node: ViewNode): void {
  const b = node.drawBounds ?? node.bounds;
  const style = node.style ?? {};
  const width = b.right - b.left;
  const height = b.bottom - b.top;
  const centerX = (b.left + b.right) / 2;
  const centerY = (b.top + b.bottom) / 2;

  if (style.gradient) {
    const gradientId = svg.id('g');
    svg.def(`<linearGradient id="${gradientId}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${style.gradient[0]}"/><stop offset="1" stop-color="${style.gradient[1]}"/></linearGradient>`);
    svg.add(roundedRect(b, 0, `url(#${gradientId})`));
  }
  if (style.widget === 'switch') {
    const checked = node.checked === true;
    const track = { left: b.left, top: centerY - 42, right: b.right, bottom: centerY + 42 };
    svg.add(roundedRect(track, 42, style.background ?? '#888', checked ? '' : ` stroke="${style.border ?? '#79747E'}" stroke-width="5"`));
    const thumbX = checked ? b.right - 42 : b.left + 42;
    svg.add(`<circle cx="${thumbX}" cy="${centerY}" r="${checked ? 31 : 21}" fill="${checked ? '#FFFFFF' : (style.border ?? '#79747E')}"/>`);
    return;
  }
  if (style.raised) svg.add(roundedRect({ ...b, top: b.top + 8, bottom: b.bottom + 8 }, style.radius ?? 0, SHADOW));
  if (style.background) {
    const stroke = style.border ? ` stroke="${style.border}" stroke-width="${node.focused ? 6 : 3}"` : '';
    svg.add(roundedRect(b, style.radius ?? 0, style.background, stroke));
  } else if (style.border) {
    svg.add(roundedRect(b, style.radius ?? 0, 'none', ` stroke="${style.border}" stroke-width="${node.focused ? 6 : 3}"`));
  }
  if (style.avatar) {
    const radius = Math.min(width, height) / 2;
    svg.add(`<circle cx="${centerX}" cy="${centerY}" r="${radius}" fill="${style.avatar.color}"/>`);
    svg.add(textElement(centerX, centerY + radius * 0.36, style.avatar.letter, Math.round(radius), '#FFFFFF', true, 'middle'));
  }
  if (style.appIcon) {
    const iconY = b.top + 110;
    svg.add(`<circle cx="${centerX}" cy="${iconY}" r="84" fill="${style.appIcon.color}"/>`);
    svg.add(textElement(centerX, iconY + 30, style.appIcon.letter, 84, '#FFFFFF', true, 'middle'));
  }
  if (style.icon) {
    const box = Math.min(width, height);
    const size = box <= 70 ? box : Math.round(box * 0.5);
    const iconX = style.paddingLeft !== undefined ? b.left + style.paddingLeft / 2 + 10 : centerX;
    svg.add(iconElement(style.icon, iconX, centerY, size, style.iconColor ?? '#000000'));
  }
  const fontSize = style.fontSize ?? 40;
  const color = style.textColor ?? '#000000';
  if (style.label) svg.add(textElement(centerX, centerY + fontSize * 0.35, style.label, fontSize, color, style.bold, 'middle'));
  if (node.text) drawText(svg, node, b, fontSize, color);

  if (node.clip) {
    const clipId = svg.id('c');
    const { left, top, right, bottom } = node.bounds;
    svg.def(`<clipPath id="${clipId}"><rect x="${left}" y="${top}" width="${right - left}" height="${bottom - top}"/></clipPath>`);
    svg.add(`<g clip-path="url(#${clipId})">`);
    for (const child of node.children) drawNode(svg, child);
    svg.add('</g>');
  } else {
    for (const child of node.children) drawNode(svg, child);
  }
}

function drawText(svg: SvgWriter, node: ViewNode, b: Rect, fontSize: number, color: string): void {
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
      svg.add(textElement(x, y, line, fontSize, color, style.bold, anchor));
      y += lineHeight;
    }
    return;
  }
  const y = style.textTop !== undefined ? b.top + style.textTop + fontSize * 0.8 : (b.top + b.bottom) / 2 + fontSize * 0.35;
  const shown = ellipsize(text, available, fontSize);
  svg.add(textElement(x, y, shown, fontSize, color, style.bold, anchor));
  if (node.focused && node.field && !style.hint) {
    const cursorX = Math.min(b.right - padding, x + textWidth(shown, fontSize) + 4);
    svg.add(`<rect x="${Math.round(cursorX)}" y="${Math.round(y - fontSize * 0.85)}" width="4" height="${Math.round(fontSize * 1.05)}" fill="${style.border ?? color}"/>`);
  }
}

export function windowsToSvg(windows: readonly UiWindow[]): string {
  const svg = new SvgWriter();
  svg.add(`<rect width="${SCREEN_WIDTH}" height="${SCREEN_HEIGHT}" fill="#000000"/>`);
  for (const window of windows) {
    if (window.modal) svg.add(`<rect width="${SCREEN_WIDTH}" height="${SCREEN_HEIGHT}" fill="${SCRIM}"/>`);
    drawNode(svg, window.root);
  }
  return svg.toString();
}

/**
 * PNG at zlib level 1: ~5 ms less per new 1080x2400 screen than level 3 for ~30 % more bytes, which cost next
 * to nothing over a local socket; the host's decode takes as long either way.
 */
export async function renderPng(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer();
}

/** Raw RGBA_8888 pixels, row by row. */
export async function renderRgba(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer();
}
