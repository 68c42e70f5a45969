import sharp from 'sharp';
import { textWidth } from './text-metrics';

/**
 * Rasterised text runs, kept between screens. Laying out and drawing text is ~85 % of librsvg's time for a
 * screen, while most runs (labels, titles, list rows) come back screen after screen; a new screen draws only the
 * runs it has never shown, all of them in one strip, and composes the rest from this cache.
 */

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

/** Straight-alpha RGBA pixels with the runs of non-transparent pixels: (row, first column, end column) triples. */
export interface InkImage {
  width: number;
  height: number;
  rgba: Buffer;
  ink: Int32Array;
}

/** A rasterised run; the run's anchor point (x, baseline) sits at (originX, originY). */
export interface TextTile extends InkImage {
  originX: number;
  originY: number;
}

/** Finds the ink of an image, so painting it skips the transparent pixels that make up most of a text tile. */
function withInk(rgba: Buffer, width: number): InkImage {
  const height = rgba.length / 4 / width;
  const spans: number[] = [];
  for (let row = 0; row < height; row++) {
    let start = -1;
    for (let column = 0; column <= width; column++) {
      const inked = column < width && (rgba[(row * width + column) * 4 + 3] as number) > 0;
      if (inked && start < 0) start = column;
      if (!inked && start >= 0) {
        spans.push(row, start, column);
        start = -1;
      }
    }
  }
  return { width, height, rgba, ink: Int32Array.from(spans) };
}

const CACHE_BUDGET_BYTES = 48 * 1024 * 1024;

function escapeText(value: string): string {
  return value.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char] as string);
}

/** The SVG `<text>` element of a run with its anchor at (x, y): the same markup whether drawn alone or in a strip. */
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
function tileGeometry(run: TextRun): Omit<TextTile, 'rgba' | 'ink'> {
  const margin = Math.ceil(run.size * 0.5);
  const inkWidth = Math.ceil(textWidth(run.text, run.size) * 1.25);
  const width = 2 * Math.ceil((inkWidth + 2 * margin) / 2);
  const originX = run.anchor === 'middle' ? width / 2 : margin;
  const originY = Math.ceil(run.size * 1.2);
  return { width, height: originY + Math.ceil(run.size * 0.5), originX, originY };
}

export class TextTileCache {
  private readonly tiles = new Map<string, TextTile>();
  private bytes = 0;

  /** The tiles of `runs`, drawing the missing ones together in one rasterisation. */
  async tilesFor(runs: readonly TextRun[]): Promise<TextTile[]> {
    const missing = new Map<string, TextRun>();
    for (const run of runs) {
      const key = runKey(run);
      if (!this.tiles.has(key)) missing.set(key, run);
    }
    const drawn = missing.size > 0 ? await this.drawStrip(missing) : new Map<string, TextTile>();
    return runs.map((run) => this.touch(runKey(run), drawn));
  }

  private touch(key: string, drawn: ReadonlyMap<string, TextTile>): TextTile {
    // A tile drawn just now may already have been evicted when one screen alone outgrows the budget.
    const tile = this.tiles.get(key) ?? drawn.get(key);
    if (!tile) throw new Error(`text tile for ${JSON.stringify(key)} was not drawn`);
    // Map order is the eviction order: a used tile moves to the back.
    this.tiles.delete(key);
    this.tiles.set(key, tile);
    return tile;
  }

  /** Stacks the runs one under another in one SVG, rasterises it once and cuts it into tiles. */
  private async drawStrip(runs: Map<string, TextRun>): Promise<Map<string, TextTile>> {
    const placed = [...runs].map(([key, run]) => ({ key, run, geometry: tileGeometry(run) }));
    const width = Math.max(...placed.map(({ geometry }) => geometry.width));
    let top = 0;
    const parts: string[] = [];
    const tops: number[] = [];
    for (const { run, geometry } of placed) {
      tops.push(top);
      parts.push(textMarkup(run, geometry.originX, top + geometry.originY));
      top += geometry.height;
    }
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${top}" viewBox="0 0 ${width} ${top}">${parts.join('')}</svg>`;
    const strip = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer();
    const drawn = new Map<string, TextTile>();
    placed.forEach(({ key, geometry }, index) => {
      const rgba = Buffer.alloc(geometry.width * geometry.height * 4);
      for (let row = 0; row < geometry.height; row++) {
        const from = ((tops[index] as number) + row) * width * 4;
        strip.copy(rgba, row * geometry.width * 4, from, from + geometry.width * 4);
      }
      const tile = { ...geometry, ...withInk(rgba, geometry.width) };
      drawn.set(key, tile);
      this.store(key, tile);
    });
    return drawn;
  }

  private store(key: string, tile: TextTile): void {
    const previous = this.tiles.get(key);
    if (previous) this.bytes -= previous.rgba.length;
    this.tiles.set(key, tile);
    this.bytes += tile.rgba.length;
    for (const [oldest, old] of this.tiles) {
      if (this.bytes <= CACHE_BUDGET_BYTES) break;
      this.tiles.delete(oldest);
      this.bytes -= old.rgba.length;
    }
  }
}
