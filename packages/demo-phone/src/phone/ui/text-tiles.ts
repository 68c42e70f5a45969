import { textWidth } from './text-metrics';
import type { TileSource } from './tile-cache';

/** Text runs as tiles: laying out and drawing text is most of librsvg's time for a screen. */

// One family (Pango falls back per glyph by itself); a fallback list makes every text element ~30 % slower to lay out.
const FONT_FAMILY = 'Liberation Sans';

/** One run of text as drawn: what, how big, which colour, and where its anchor sits relative to its x. */
export interface TextRun {
  text: string;
  size: number;
  color: string;
  bold: boolean;
  anchor: 'start' | 'middle';
}

/** A run's tile source; the run's anchor point (x, baseline) sits at (originX, originY) of the tile. */
export interface TextTileSource extends TileSource {
  originX: number;
  originY: number;
}

function escapeText(value: string): string {
  return value.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char] as string);
}

/** The SVG `<text>` element of a run with its anchor at (x, y): the same markup whether drawn alone or in place. */
export function textMarkup(run: TextRun, x: number, y: number): string {
  return (
    `<text x="${x}" y="${y}" font-family="${FONT_FAMILY}" font-size="${run.size}" fill="${run.color}"` +
    `${run.bold ? ' font-weight="bold"' : ''}${run.anchor === 'middle' ? ' text-anchor="middle"' : ''}>${escapeText(run.text)}</text>`
  );
}

export function runKey(run: TextRun): string {
  return `${run.size}|${run.color}|${run.bold ? 'b' : ''}|${run.anchor}|${run.text}`;
}

/** A box generous enough for the run's ink: the metrics are estimates, and glyphs overhang their advance a little. */
export function textTileSource(run: TextRun): TextTileSource {
  const margin = Math.ceil(run.size * 0.5);
  const inkWidth = Math.ceil(textWidth(run.text, run.size) * 1.25);
  const width = 2 * Math.ceil((inkWidth + 2 * margin) / 2);
  const originX = run.anchor === 'middle' ? width / 2 : margin;
  const originY = Math.ceil(run.size * 1.2);
  const height = originY + Math.ceil(run.size * 0.5);
  return { key: `text:${runKey(run)}`, width, height, originX, originY, markup: textMarkup(run, originX, originY) };
}
