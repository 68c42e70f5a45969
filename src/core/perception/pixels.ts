import type sharpModule from 'sharp';
import type zlibModule from 'node:zlib';

/**
 * The pixel work of a screenshot: dropping the opaque alpha byte, decoding a PNG, downscaling and encoding.
 * Every function here uses only its arguments and its sibling functions (sharp and zlib are passed in), because the
 * PNG worker runs them from their source text (see png-worker.ts).
 *
 * The PNGs Android's `screencap -p` sends (8-bit RGBA, not interlaced) are decoded here in JavaScript, straight to
 * opaque RGB, in memory kept from one screenshot to the next: through libvips, every decode hands over ~10 MB of
 * fresh pixels, and touching fresh memory for the first time (a page fault per 4 KB) costs several times the decode
 * itself. Any other PNG is decoded by libvips.
 */

type Sharp = typeof sharpModule;

export type ScreenshotFormat = 'png' | 'jpeg' | 'webp';

export interface ScreenshotEncoding {
  /** The longer side of the image sent to the model, in pixels; never enlarged. */
  longEdge: number;
  format: ScreenshotFormat;
  /** JPEG/WebP quality (1-100). */
  quality: number;
}

export interface EncodedPixels {
  bytes: Buffer;
  /** Size of the encoded image. */
  width: number;
  height: number;
}

/**
 * Drops the alpha (or padding) byte of every pixel of RGBA pixels, in place, and returns the RGB pixels (a view of
 * the same memory). A screen capture is opaque, so this changes no colour (and an RGBX frame's padding, which may be
 * 0, is not taken for transparency); done before libvips sees the pixels, it spares libvips flattening (a division
 * per sample, recomputed for the rows the resize's windows share) or premultiplying around the resize, which cost
 * several times this pass.
 */
export function dropAlpha(pixels: Uint8Array, count: number): Uint8Array {
  if (pixels.byteOffset % 4 === 0) {
    const words = new Uint32Array(pixels.buffer, pixels.byteOffset, count);
    packRgb(words, words, count);
  } else {
    for (let pixel = 0; pixel < count; pixel++) pixels.copyWithin(pixel * 3, pixel * 4, pixel * 4 + 3);
  }
  return pixels.subarray(0, count * 3);
}

/** Whether this machine stores a 32-bit word's low byte first (red is then a pixel word's low byte). */
export function isLittleEndian(): boolean {
  return new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
}

/**
 * Packs `count` RGBA pixels (`from`, as 32-bit words) into RGB bytes in `to`, which may be the same memory (each write
 * trails its read). Four pixels at a time as three words on a little-endian machine, about four times faster than
 * byte by byte.
 */
export function packRgb(from: Uint32Array, to: Uint32Array, count: number): void {
  let done = 0;
  if (isLittleEndian()) {
    const groups = count >> 2;
    for (let group = 0, at = 0, into = 0; group < groups; group++, at += 4, into += 3) {
      const a = from[at]!;
      const b = from[at + 1]!;
      const c = from[at + 2]!;
      const d = from[at + 3]!;
      to[into] = (a & 0xffffff) | (b << 24);
      to[into + 1] = ((b >>> 8) & 0xffff) | (c << 16);
      to[into + 2] = ((c >>> 16) & 0xff) | (d << 8);
    }
    done = groups * 4;
  }
  const rgba = new Uint8Array(from.buffer, from.byteOffset, count * 4);
  const rgb = new Uint8Array(to.buffer, to.byteOffset, count * 3);
  for (let pixel = done; pixel < count; pixel++) {
    rgb[pixel * 3] = rgba[pixel * 4]!;
    rgb[pixel * 3 + 1] = rgba[pixel * 4 + 1]!;
    rgb[pixel * 3 + 2] = rgba[pixel * 4 + 2]!;
  }
}

/**
 * Opaque RGB pixels as a libvips pipeline, downscaled to the long edge (never enlarged), and the resulting size. A
 * linear (triangle) filter scaled to the reduction: sharp enough for UI text, ~20% cheaper than lanczos3.
 */
export function downscale(sharp: Sharp, rgb: Uint8Array, width: number, height: number, longEdge: number): { image: sharpModule.Sharp; width: number; height: number } {
  const factor = Math.min(1, longEdge / Math.max(width, height));
  const outWidth = Math.max(1, Math.round(width * factor));
  const outHeight = Math.max(1, Math.round(height * factor));
  const image = sharp(rgb, { raw: { width, height, channels: 3 } });
  if (factor < 1) image.resize(outWidth, outHeight, { fit: 'fill', kernel: 'linear' });
  return { image, width: outWidth, height: outHeight };
}

/**
 * Downscales opaque RGB pixels (`downscale`) and encodes them. JPEG is baseline with the standard Huffman tables:
 * optimising them costs a second pass over the image (~40% of the encode) to save ~8% of its bytes, and the bytes
 * are not what limits a turn.
 */
export async function encodeRgb(sharp: Sharp, rgb: Uint8Array, width: number, height: number, encoding: ScreenshotEncoding): Promise<EncodedPixels> {
  const { image, width: outWidth, height: outHeight } = downscale(sharp, rgb, width, height, encoding.longEdge);
  const bytes =
    encoding.format === 'png'
      ? await image.png({ compressionLevel: 6 }).toBuffer()
      : encoding.format === 'jpeg'
        ? await image.jpeg({ quality: encoding.quality, mozjpeg: false, optimiseCoding: false }).toBuffer()
        : await image.webp({ quality: encoding.quality }).toBuffer();
  return { bytes, width: outWidth, height: outHeight };
}

type Zlib = typeof zlibModule;

/** Node's own zlib handle, which inflates into a buffer we give it (the public API allocates the output). */
interface InflateHandle {
  writeSync(flush: number, input: Uint8Array, inputAt: number, inputLength: number, output: Uint8Array, outputAt: number, outputLength: number): void;
}
type Inflater = zlibModule.Inflate & { _handle?: InflateHandle; _writeState?: Uint32Array };

/** What a decode reuses; one per decode in flight (the RGB pixels are read by libvips until the encode ends). */
export interface PngMemory {
  zlib: Zlib;
  inflater: Inflater | null;
  /** The inflated image: each row's filter byte, then its filtered RGBA bytes. */
  inflated: Buffer;
  rgb: Uint8Array;
  /** The row last decoded as RGBA words, which becomes the next row in place. */
  line: Uint32Array;
  /** The current row's filtered bytes, copied where they can be read as words. */
  differences: Uint32Array;
  /** The current row's RGB bytes, packed before they are copied into `rgb`. */
  packed: Uint32Array;
  /** A row of zero bytes: an "Up" row with all-zero differences repeats the row above. */
  zeroRow: Buffer;
}

export function createPngMemory(zlib: Zlib): PngMemory {
  const none = new Uint32Array(0);
  return { zlib, inflater: null, inflated: Buffer.alloc(0), rgb: new Uint8Array(0), line: none, differences: none, packed: none, zeroRow: Buffer.alloc(0) };
}

/**
 * The size and image data of a PNG this decoder reads (8-bit RGBA, not interlaced), or null for any other kind.
 * Chunk lengths that run past the end are an error; checksums are not verified (adb's transport keeps bytes intact).
 */
export function rgbaPngLayout(png: Uint8Array): { width: number; height: number; imageData: Buffer } | null {
  const bytes = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (bytes.length < 33 || bytes.toString('latin1', 12, 16) !== 'IHDR') throw new Error('the PNG has no header');
  const [depth, colourType, , , interlace] = bytes.subarray(24, 29);
  if (depth !== 8 || colourType !== 6 || interlace !== 0) return null;
  const parts: Buffer[] = [];
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > bytes.length) throw new Error(`the PNG's ${type} chunk runs past its end`);
    if (type === 'IDAT') parts.push(bytes.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') break;
    at += 12 + length;
  }
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), imageData: Buffer.concat(parts) };
}

/** Inflates the image data into `memory.inflated`, which must be exactly the inflated size. */
export function inflateInto(memory: PngMemory, imageData: Buffer): void {
  const { zlib, inflated } = memory;
  const inflater: Inflater = (memory.inflater ??= zlib.createInflate());
  if (!inflater._handle?.writeSync || !inflater._writeState) {
    // A Node whose zlib no longer exposes its handle: the public API, at the cost of fresh memory.
    const whole = zlib.inflateSync(imageData, { chunkSize: inflated.length + 1024 });
    if (whole.length < inflated.length) throw new Error('the PNG image data is cut short');
    whole.copy(inflated, 0, 0, inflated.length);
    return;
  }
  inflater.reset();
  // A damaged stream destroys the inflater (its error event would otherwise be unhandled); the next decode makes another.
  if (inflater.listenerCount('error') === 0) inflater.on('error', () => undefined);
  inflater._handle.writeSync(zlib.constants.Z_FINISH, imageData, 0, imageData.length, inflated, 0, inflated.length);
  if (inflater.destroyed) {
    memory.inflater = null;
    throw new Error(`the PNG image data is damaged (${inflater.errored?.message ?? 'zlib error'})`);
  }
  if (inflater._writeState[0] !== 0) throw new Error('the PNG image data is cut short');
}

/** Sizes the reused memory for a width x height image (kept when the size is the same as last time). */
export function fitMemory(memory: PngMemory, width: number, height: number): void {
  const inflatedSize = (width * 4 + 1) * height;
  if (memory.inflated.length === inflatedSize && memory.line.length === width) return;
  memory.inflated = Buffer.alloc(inflatedSize);
  memory.rgb = new Uint8Array(width * height * 3);
  memory.line = new Uint32Array(width);
  memory.differences = new Uint32Array(width);
  memory.packed = new Uint32Array(Math.ceil((width * 3) / 4));
  memory.zeroRow = Buffer.alloc(width * 4);
}

/**
 * PNG's Paeth predictor for the four bytes of a pixel at once. When two neighbours are the same pixel it is the left
 * one (or the one above, when the left equals the upper left), which covers flat areas and straight edges without
 * looking at single bytes.
 */
export function paethPredictor(left: number, up: number, upLeft: number): number {
  if (up === upLeft || left === up) return left;
  if (left === upLeft) return up;
  let predicted = 0;
  for (let shift = 0; shift < 32; shift += 8) {
    const a = (left >>> shift) & 0xff;
    const b = (up >>> shift) & 0xff;
    const c = (upLeft >>> shift) & 0xff;
    const toA = Math.abs(b - c);
    const toB = Math.abs(a - c);
    const toC = Math.abs(a + b - 2 * c);
    predicted |= (toA <= toB && toA <= toC ? a : toB <= toC ? b : c) << shift;
  }
  return predicted >>> 0;
}

/**
 * The four bytes of two words added each modulo 256, without carries between them (SWAR): the low seven bits of each
 * byte are added, the top bits XORed in. Unsigned, like the words read back from a Uint32Array, so that pixels compare
 * equal however they were obtained (an opaque pixel has its top bit set).
 */
export function addBytes(a: number, b: number): number {
  return (((a & 0x7f7f7f7f) + (b & 0x7f7f7f7f)) ^ ((a ^ b) & 0x80808080)) >>> 0;
}

/**
 * Undoes a row's filter (1 to 4: Sub, Up, Average, Paeth; any other is damage): `line` holds the row above
 * (unfiltered RGBA words) and becomes this row; `differences` are this row's filtered words, added to their
 * predictions four bytes at a time (`addBytes`).
 */
export function unfilterRow(filter: number, differences: Uint32Array, line: Uint32Array): void {
  const width = line.length;
  let left = 0;
  let upLeft = 0;
  if (filter === 1) {
    for (let x = 0; x < width; x++) {
      line[x] = left = addBytes(differences[x]!, left);
    }
  } else if (filter === 2) {
    for (let x = 0; x < width; x++) {
      line[x] = addBytes(differences[x]!, line[x]!);
    }
  } else if (filter === 3) {
    for (let x = 0; x < width; x++) {
      const up = line[x]!;
      // The floor of each byte's average: shared bits plus half the differing ones.
      line[x] = left = addBytes(differences[x]!, (left & up) + (((left ^ up) & 0xfefefefe) >>> 1));
    }
  } else if (filter === 4) {
    for (let x = 0; x < width; x++) {
      const up = line[x]!;
      line[x] = left = addBytes(differences[x]!, paethPredictor(left, up, upLeft));
      upLeft = up;
    }
  } else {
    throw new Error(`the PNG image data is damaged (row filter ${filter})`);
  }
}

/**
 * An "Up" row whose pixels mostly repeat the row above, already copied to `rgb` at `rgbAt`: only the pixels with a
 * difference are added to `line` and written (little-endian words: red is the low byte).
 */
export function applyUpDifferences(differences: Uint32Array, line: Uint32Array, rgb: Uint8Array, rgbAt: number): void {
  for (let x = 0, at = rgbAt; x < line.length; x++, at += 3) {
    const difference = differences[x]!;
    if (difference === 0) continue;
    const pixel = addBytes(difference, line[x]!);
    line[x] = pixel;
    rgb[at] = pixel & 0xff;
    rgb[at + 1] = (pixel >>> 8) & 0xff;
    rgb[at + 2] = (pixel >>> 16) & 0xff;
  }
}

/**
 * An 8-bit RGBA, non-interlaced PNG as opaque RGB pixels in `memory.rgb` (valid until the next decode with the same
 * memory), or null for any other kind of PNG (and on a big-endian machine). Throws on damaged image data.
 */
export function decodeRgbaPng(png: Uint8Array, memory: PngMemory): { rgb: Uint8Array; width: number; height: number } | null {
  const layout = isLittleEndian() ? rgbaPngLayout(png) : null;
  if (!layout) return null;
  const { width, height, imageData } = layout;
  if (!width || !height) throw new Error('the PNG has no size');
  fitMemory(memory, width, height);
  inflateInto(memory, imageData);
  const { inflated, rgb, packed, zeroRow } = memory;
  const rowBytes = width * 4;
  const rgbRowBytes = width * 3;
  const packedBytes = new Uint8Array(packed.buffer, 0, rgbRowBytes);
  // Byte views made once: a row is compared and copied by offsets into `inflated`, without a view of it per row.
  let { line, differences } = memory;
  let lineBytes = Buffer.from(line.buffer);
  let differenceBytes = Buffer.from(differences.buffer);
  line.fill(0);
  for (let y = 0; y < height; y++) {
    const start = y * (rowBytes + 1);
    const filter = inflated[start]!;
    const rgbAt = y * rgbRowBytes;
    // Most rows of a UI screen repeat the one above (a copy), or change a few pixels of it.
    const repeated = filter === 2 ? zeroRow : filter === 0 ? lineBytes : null;
    if (y > 0 && repeated?.compare(inflated, start + 1, start + 1 + rowBytes) === 0) {
      rgb.copyWithin(rgbAt, rgbAt - rgbRowBytes, rgbAt);
      continue;
    }
    inflated.copy(differenceBytes, 0, start + 1, start + 1 + rowBytes);
    if (y > 0 && filter === 2) {
      rgb.copyWithin(rgbAt, rgbAt - rgbRowBytes, rgbAt);
      applyUpDifferences(differences, line, rgb, rgbAt);
      continue;
    }
    if (filter === 0) {
      // An unfiltered row is its own pixels: the two rows trade places instead of being copied.
      [line, differences, lineBytes, differenceBytes] = [differences, line, differenceBytes, lineBytes];
    } else {
      unfilterRow(filter, differences, line);
    }
    packRgb(line, packed, width);
    rgb.set(packedBytes, rgbAt);
  }
  memory.line = line;
  memory.differences = differences;
  return { rgb, width, height };
}

/**
 * Any PNG's pixels through libvips, as 8-bit sRGB (greyscale and 16-bit PNGs converted), 3 or 4 bytes each. Checksums
 * are not verified (`failOn: 'none'`): checking them costs a third of the decode.
 */
export async function decodePngWithLibvips(sharp: Sharp, png: Uint8Array): Promise<{ pixels: Buffer; width: number; height: number; channels: number }> {
  const { data, info } = await sharp(png, { failOn: 'none' }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height, channels: info.channels };
}

/**
 * Decodes a PNG (`decodeRgbaPng` into `memory`, which the caller must not lend to another encode until this one
 * ends, or libvips for other kinds), drops its alpha and encodes it as `encodeRgb` does.
 */
export async function encodePng(sharp: Sharp, png: Uint8Array, encoding: ScreenshotEncoding, memory: PngMemory): Promise<EncodedPixels> {
  const decoded = decodeRgbaPng(png, memory);
  if (decoded) return encodeRgb(sharp, decoded.rgb, decoded.width, decoded.height, encoding);
  const { pixels, width, height, channels } = await decodePngWithLibvips(sharp, png);
  return encodeRgb(sharp, channels === 4 ? dropAlpha(pixels, width * height) : pixels, width, height, encoding);
}
