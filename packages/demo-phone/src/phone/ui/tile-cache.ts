import sharp from 'sharp';

/**
 * Rasterised pieces of a screen (text runs, shapes), kept between screens. librsvg costs tens of milliseconds for
 * a whole 1080x2400 screen, while the pieces (labels, list rows, icons, cards) come back screen after screen; a new
 * screen rasterises only the pieces it has never shown, all of them in one strip, and is composed from this cache.
 */

/** One piece to rasterise: SVG markup drawn in a `width` x `height` box at the origin; `key` names its pixels. */
export interface TileSource {
  key: string;
  width: number;
  height: number;
  markup: string;
}

/**
 * Straight-alpha RGBA pixels with the runs of non-transparent pixels as (row, first column, end column, opaque)
 * quadruples, opaque = 1 when every pixel of the run has full alpha: painting skips the transparent pixels that
 * make up most of a text tile and copies opaque runs without blending.
 */
export interface Tile {
  width: number;
  height: number;
  rgba: Buffer;
  spans: Int32Array;
}

const FULL = 255;

/** Cuts each row into runs of opaque and of translucent pixels, leaving out transparent ones. */
export function findSpans(rgba: Buffer, width: number): Int32Array {
  const height = rgba.length / 4 / width;
  const spans: number[] = [];
  for (let row = 0; row < height; row++) {
    let start = -1;
    let startOpaque = false;
    for (let column = 0; column <= width; column++) {
      const alpha = column < width ? (rgba[(row * width + column) * 4 + 3] as number) : 0;
      const opaque = alpha === FULL;
      if (start >= 0 && (alpha === 0 || opaque !== startOpaque)) {
        spans.push(row, start, column, startOpaque ? 1 : 0);
        start = -1;
      }
      if (alpha > 0 && start < 0) {
        start = column;
        startOpaque = opaque;
      }
    }
  }
  return Int32Array.from(spans);
}

export class TileCache {
  private readonly tiles = new Map<string, Tile>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  /** The tiles of `sources`, in order, rasterising the missing ones together in one librsvg pass. */
  async tilesFor(sources: readonly TileSource[]): Promise<Tile[]> {
    const missing = new Map<string, TileSource>();
    for (const source of sources) if (!this.tiles.has(source.key)) missing.set(source.key, source);
    const drawn = missing.size > 0 ? await this.drawStrip([...missing.values()]) : new Map<string, Tile>();
    return sources.map((source) => this.touch(source.key, drawn));
  }

  private touch(key: string, drawn: ReadonlyMap<string, Tile>): Tile {
    // A tile drawn just now may already have been evicted when one screen alone outgrows the budget.
    const tile = this.tiles.get(key) ?? drawn.get(key);
    if (!tile) throw new Error(`tile ${JSON.stringify(key.slice(0, 80))} was not drawn`);
    // Map order is the eviction order: a used tile moves to the back.
    this.tiles.delete(key);
    this.tiles.set(key, tile);
    return tile;
  }

  /** Stacks the sources one under another in one SVG, rasterises it once and cuts it into tiles. */
  private async drawStrip(sources: TileSource[]): Promise<Map<string, Tile>> {
    const width = Math.max(...sources.map((source) => source.width));
    let top = 0;
    const parts: string[] = [];
    const tops: number[] = [];
    for (const source of sources) {
      tops.push(top);
      // Each piece in its own viewport, so a shape that overhangs its box never leaks into its neighbour.
      parts.push(`<svg x="0" y="${top}" width="${source.width}" height="${source.height}" overflow="hidden">${source.markup}</svg>`);
      top += source.height;
    }
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${top}" viewBox="0 0 ${width} ${top}">${parts.join('')}</svg>`;
    const strip = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer();
    const drawn = new Map<string, Tile>();
    sources.forEach((source, index) => {
      const rgba = Buffer.alloc(source.width * source.height * 4);
      for (let row = 0; row < source.height; row++) {
        const from = ((tops[index] as number) + row) * width * 4;
        strip.copy(rgba, row * source.width * 4, from, from + source.width * 4);
      }
      const tile = { width: source.width, height: source.height, rgba, spans: findSpans(rgba, source.width) };
      drawn.set(source.key, tile);
      this.store(source.key, tile);
    });
    return drawn;
  }

  private store(key: string, tile: Tile): void {
    const previous = this.tiles.get(key);
    if (previous) this.bytes -= previous.rgba.length;
    this.tiles.set(key, tile);
    this.bytes += tile.rgba.length;
    for (const [oldest, old] of this.tiles) {
      if (this.bytes <= this.budgetBytes) break;
      this.tiles.delete(oldest);
      this.bytes -= old.rgba.length;
    }
  }
}
