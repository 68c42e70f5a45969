import type sharpModule from 'sharp';

/**
 * The pixel work of a screenshot: dropping the opaque alpha byte, decoding a PNG, downscaling and encoding.
 * Every function here uses only its arguments and its sibling functions (sharp is passed in), because the PNG
 * worker runs them from their source text (see png-worker.ts).
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
 * several times this pass. Four pixels at a time as 32-bit words where the memory allows, about four times faster
 * than byte by byte.
 */
export function dropAlpha(pixels: Uint8Array, count: number): Uint8Array {
  let done = 0;
  const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
  if (littleEndian && pixels.byteOffset % 4 === 0) {
    const words = new Uint32Array(pixels.buffer, pixels.byteOffset, count);
    const groups = count >> 2;
    for (let group = 0, from = 0, to = 0; group < groups; group++, from += 4, to += 3) {
      const a = words[from]!;
      const b = words[from + 1]!;
      const c = words[from + 2]!;
      const d = words[from + 3]!;
      words[to] = (a & 0xffffff) | (b << 24);
      words[to + 1] = ((b >>> 8) & 0xffff) | (c << 16);
      words[to + 2] = ((c >>> 16) & 0xff) | (d << 8);
    }
    done = groups * 4;
  }
  for (let pixel = done; pixel < count; pixel++) pixels.copyWithin(pixel * 3, pixel * 4, pixel * 4 + 3);
  return pixels.subarray(0, count * 3);
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

/**
 * A PNG's pixels as 8-bit sRGB (greyscale and 16-bit PNGs converted), 3 or 4 bytes each. Checksums are not verified
 * (`failOn: 'none'`): checking them costs a third of the decode, and adb's transport already delivers the bytes intact.
 */
export async function decodePng(sharp: Sharp, png: Uint8Array): Promise<{ pixels: Buffer; width: number; height: number; channels: number }> {
  const { data, info } = await sharp(png, { failOn: 'none' }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height, channels: info.channels };
}

/** Decodes a PNG (`decodePng`), drops its alpha and encodes it as `encodeRgb` does. */
export async function encodePng(sharp: Sharp, png: Uint8Array, encoding: ScreenshotEncoding): Promise<EncodedPixels> {
  const { pixels, width, height, channels } = await decodePng(sharp, png);
  const rgb = channels === 4 ? dropAlpha(pixels, width * height) : pixels;
  return encodeRgb(sharp, rgb, width, height, encoding);
}
