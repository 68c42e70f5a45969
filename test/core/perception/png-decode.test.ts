// The JavaScript PNG decoder for screencap's kind of PNG (8-bit RGBA, not interlaced), checked against libvips on
// images that use every row filter, on odd widths, split image data, damaged and cut-short data, and PNGs of other
// kinds, which it leaves to libvips.
import zlib from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createPngMemory, decodeRgbaPng, encodePng, type PngMemory } from '../../../src/core/perception/pixels';

/**
 * A busy screen: gradients, edges, text and a band of noise, so that adaptive filtering picks Sub, Up, Average and
 * Paeth (without it, every row is unfiltered, as the demo phone sends them).
 */
async function busyPng(width: number, height: number, adaptiveFiltering = true): Promise<Buffer> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x2="1" y2="1">` +
    '<stop offset="0" stop-color="#3F5AA6"/><stop offset="1" stop-color="#F0C5A8"/></linearGradient></defs>' +
    `<rect width="${width}" height="${height}" fill="url(#g)"/><rect x="10" y="${height / 4}" width="${width - 20}" height="${height / 8}" rx="12" fill="#FFFFFF"/>` +
    `<text x="16" y="${height / 4 + 30}" font-size="28" fill="#1D1B20">Network &amp; internet</text><circle cx="${width / 2}" cy="${(height * 3) / 4}" r="${width / 5}" fill="#B3261E"/></svg>`;
  const rgba = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer();
  // Noise in a band: rows where Average and Paeth win.
  let seed = 7;
  for (let at = Math.floor(height * 0.55) * width * 4; at < Math.floor(height * 0.6) * width * 4; at += 4) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    rgba[at] = seed >>> 24;
    rgba[at + 1] = (seed >>> 16) & 0xff;
  }
  return sharp(rgba, { raw: { width, height, channels: 4 } }).png({ adaptiveFiltering, compressionLevel: 6 }).toBuffer();
}

const libvipsRgb = (png: Buffer) => sharp(png).removeAlpha().raw().toBuffer();

/** How many rows use each of the five filters (the byte before each row of the inflated data). */
function filtersUsed(memory: PngMemory, width: number, height: number): number[] {
  const counts = [0, 0, 0, 0, 0];
  for (let y = 0; y < height; y++) counts[memory.inflated[y * (width * 4 + 1)]!]!++;
  return counts;
}

/** The PNG's chunks: its image data joined, and the others. */
function chunksOf(png: Buffer): { imageData: Buffer; others: Buffer[] } {
  const others: Buffer[] = [];
  const data: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') data.push(png.subarray(at + 8, at + 8 + length));
    else others.push(png.subarray(at, at + 12 + length));
    at += 12 + length;
  }
  return { imageData: Buffer.concat(data), others };
}

/** The PNG with `imageData` in place of its own, split over `parts` IDAT chunks (checksums are not read: left 0). */
function withImageData(png: Buffer, imageData: Buffer, parts = 1): Buffer {
  const { others } = chunksOf(png);
  const step = Math.ceil(imageData.length / parts);
  const idats = Array.from({ length: parts }, (_, index) => {
    const part = imageData.subarray(index * step, (index + 1) * step);
    const chunk = Buffer.alloc(12 + part.length);
    chunk.writeUInt32BE(part.length, 0);
    chunk.write('IDAT', 4, 'latin1');
    part.copy(chunk, 8);
    return chunk;
  });
  return Buffer.concat([png.subarray(0, 8), ...others.slice(0, -1), ...idats, others.at(-1)!]);
}

const splitImageData = (png: Buffer, parts: number) => withImageData(png, chunksOf(png).imageData, parts);

describe('PNG decoding in JavaScript', () => {
  it("Scenario: A screencap PNG is decoded in JavaScript to the pixels libvips gives, whatever its rows' filters", async () => {
    const memory = createPngMemory(zlib);
    const rowsByFilter = [0, 0, 0, 0, 0];
    for (const [width, height, adaptive] of [
      [360, 800, true],
      [360, 800, false],
      [37, 61, true], // not a multiple of 4 pixels wide: the last pixels of each row are packed one by one
    ] as const) {
      const png = await busyPng(width, height, adaptive);
      const decoded = decodeRgbaPng(png, memory)!;
      expect([decoded.width, decoded.height]).toEqual([width, height]);
      expect(Buffer.from(decoded.rgb.subarray(0, width * height * 3)).equals(await libvipsRgb(png))).toBe(true);
      filtersUsed(memory, width, height).forEach((rows, filter) => (rowsByFilter[filter]! += rows));
    }
    expect(rowsByFilter.every((rows) => rows > 0)).toBe(true);
    // The memory sized for the last image is resized for a bigger one, and the image data may come in many chunks.
    const png = await busyPng(360, 800);
    const split = splitImageData(png, 5);
    expect(Buffer.from(decodeRgbaPng(split, memory)!.rgb).equals(await libvipsRgb(png))).toBe(true);
  });

  it('the public zlib API gives the same pixels where the inflater exposes no handle', async () => {
    const png = await busyPng(120, 200);
    const withoutHandle = { ...zlib, createInflate: () => Object.assign(zlib.createInflate(), { _handle: undefined }) } as typeof zlib;
    const decoded = decodeRgbaPng(png, createPngMemory(withoutHandle))!;
    expect(Buffer.from(decoded.rgb).equals(await libvipsRgb(png))).toBe(true);
  });

  it('refuses damaged or cut-short image data in plain words and decodes the next PNG with the same memory', async () => {
    const memory = createPngMemory(zlib);
    const png = await busyPng(120, 200);
    const idat = png.indexOf('IDAT', 0, 'latin1');
    const damaged = Buffer.from(png);
    damaged.fill(0x5a, idat + 6, idat + 200);
    expect(() => decodeRgbaPng(damaged, memory)).toThrow(/PNG image data is damaged/);
    // Image data that ends early, in a chunk that says so: the rows it lacks are not made up.
    const short = splitImageData(png, 2);
    const secondIdat = short.indexOf('IDAT', short.indexOf('IDAT', 0, 'latin1') + 4, 'latin1');
    const cut = Buffer.concat([short.subarray(0, secondIdat - 4), short.subarray(short.length - 12)]);
    expect(() => decodeRgbaPng(cut, memory)).toThrow(/PNG image data is (cut short|damaged)/);
    // A sound stream whose rows name a filter PNG does not have.
    const rows = zlib.inflateSync(chunksOf(png).imageData);
    rows[(120 * 4 + 1) * 7] = 5;
    expect(() => decodeRgbaPng(withImageData(png, zlib.deflateSync(rows)), memory)).toThrow(/damaged \(row filter 5\)/);
    const runsPast = png.subarray(0, idat + 100);
    expect(() => decodeRgbaPng(runsPast, memory)).toThrow(/IDAT chunk runs past its end/);
    expect(Buffer.from(decodeRgbaPng(png, memory)!.rgb).equals(await libvipsRgb(png))).toBe(true);
  });

  it('leaves PNGs of other kinds to libvips, which encodes them as before', async () => {
    const memory = createPngMemory(zlib);
    const rgba = await sharp(await busyPng(64, 96)).raw().toBuffer();
    const raw = { raw: { width: 64, height: 96, channels: 4 as const } };
    const others = [
      await sharp(rgba, raw).removeAlpha().png().toBuffer(), // RGB
      await sharp(rgba, raw).png({ progressive: true }).toBuffer(), // interlaced
      await sharp(rgba, raw).toColourspace('rgb16').png().toBuffer(), // 16 bits per sample
      await sharp(rgba, raw).png({ palette: true }).toBuffer(),
    ];
    const encoding = { longEdge: 48, format: 'png' as const, quality: 80 };
    for (const png of others) {
      expect(decodeRgbaPng(png, memory)).toBeNull();
      const image = await encodePng(sharp, png, encoding, memory);
      expect([image.width, image.height]).toEqual([32, 48]);
    }
  });
});
