import sharp from 'sharp';
import { dropAlpha, encodeRgb, type EncodedPixels, type ScreenshotEncoding } from './pixels';
import { encodePngInWorker } from './png-worker';

export type { ScreenshotEncoding } from './pixels';

/** Fits the providers' unscaled image limits (e.g. 1456 px long edge for a 9:16 screen). */
export const DEFAULT_SCREENSHOT_ENCODING: ScreenshotEncoding = { longEdge: 1456, format: 'jpeg', quality: 80 };

export interface EncodedScreenshot {
  /** The encoded, downscaled image. Only the planner may receive these bytes (Perception Boundary). */
  bytes: Buffer;
  mediaType: 'image/png' | 'image/jpeg' | 'image/webp';
  /** Size of the encoded image. */
  width: number;
  height: number;
  /** Device pixels per image pixel: multiply a point on the image by this to get device coordinates. */
  scale: number;
}

export class ScreenshotError extends Error {
  override name = 'ScreenshotError';
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A PNG whose LFs were turned into CRLFs by a pty (very old devices): `\r\n` in the signature became `\r\r\n`. */
const PTY_MANGLED_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0d, 0x0a, 0x1a, 0x0d, 0x0a]);

/** The bytes of a `screencap -p`, repaired when a pty converted line endings. */
export function pngFromScreencap(output: Buffer): Buffer {
  const start = output.indexOf(PNG_SIGNATURE.subarray(0, 4));
  if (start < 0) throw new ScreenshotError(`screencap gave no PNG (${output.subarray(0, 80).toString('latin1').trim() || 'no output'})`);
  const png = output.subarray(start);
  if (png.subarray(0, PTY_MANGLED_SIGNATURE.length).equals(PTY_MANGLED_SIGNATURE)) {
    return Buffer.from(png.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');
  }
  return png;
}

/** Android's 32-bit pixel formats a raw `screencap` may use (android.graphics.PixelFormat). */
const RGBA_8888 = 1;
const RGBX_8888 = 2;
const BGRA_8888 = 5;

/**
 * Raw `screencap` output: a header of width, height, pixel format (and, from Android 8, a colour space)
 * as little-endian u32, then 32-bit pixels; BGRA ones (some older devices) are turned into RGBA in place.
 */
export function rawFrameFromScreencap(output: Buffer): { pixels: Buffer; width: number; height: number } {
  if (output.length < 12) throw new ScreenshotError('raw screencap output is too short');
  const width = output.readUInt32LE(0);
  const height = output.readUInt32LE(4);
  const format = output.readUInt32LE(8);
  if (format !== RGBA_8888 && format !== RGBX_8888 && format !== BGRA_8888) {
    throw new ScreenshotError(`raw screencap uses pixel format ${format}, which is not a 32-bit RGBA or BGRA format this app reads`);
  }
  const pixelBytes = width * height * 4;
  const headerSize = output.length - pixelBytes;
  if (width === 0 || height === 0 || (headerSize !== 12 && headerSize !== 16)) {
    throw new ScreenshotError(`raw screencap output does not match its ${width}x${height} header`);
  }
  const pixels = output.subarray(headerSize);
  if (format === BGRA_8888) swapRedAndBlue(pixels);
  return { pixels, width, height };
}

/** BGRA to RGBA in place: the first and third byte of every pixel trade places. */
function swapRedAndBlue(pixels: Buffer): void {
  for (let at = 0; at + 3 < pixels.length; at += 4) {
    const blue = pixels[at]!;
    pixels[at] = pixels[at + 2]!;
    pixels[at + 2] = blue;
  }
}

/** Width and height from the PNG header (IHDR is always the first chunk). */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.length < 24 || png.toString('latin1', 12, 16) !== 'IHDR') throw new ScreenshotError('the screenshot is not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const PNG_END = Buffer.from('IEND', 'latin1');

/**
 * Downscales to the long edge and encodes. Throws ScreenshotError on undecodable input. Raw `pixels` (RGBA, as
 * `rawFrameFromScreencap` gives them) lose their alpha byte in place (see `dropAlpha`): the caller's buffer holds no
 * image afterwards. A PNG is encoded in the PNG worker (see png-worker.ts); a PNG cut short (the one fault seen in
 * practice, its checksums are not verified) is refused by its missing end chunk.
 */
export async function encodeScreenshot(
  source: { png: Buffer } | { pixels: Buffer; width: number; height: number },
  encoding: ScreenshotEncoding = DEFAULT_SCREENSHOT_ENCODING,
): Promise<EncodedScreenshot> {
  try {
    const { width: sourceWidth, height: sourceHeight } = 'png' in source ? pngSize(source.png) : source;
    if (!sourceWidth || !sourceHeight) throw new ScreenshotError('the screenshot has no size');
    let encoded: EncodedPixels;
    if ('png' in source) {
      if (source.png.indexOf(PNG_END, Math.max(0, source.png.length - 32)) < 0) throw new ScreenshotError('the screenshot PNG is cut short');
      encoded = await encodePngInWorker(source.png, encoding);
    } else {
      encoded = await encodeRgb(sharp, dropAlpha(source.pixels, sourceWidth * sourceHeight), sourceWidth, sourceHeight, encoding);
    }
    const { bytes, width, height } = encoded;
    return { bytes, mediaType: `image/${encoding.format}`, width, height, scale: sourceWidth / width };
  } catch (error) {
    if (error instanceof ScreenshotError) throw error;
    throw new ScreenshotError(`the screenshot could not be decoded: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A phone-sized screen (1080x2400, as `screencap -p` sends it: 8-bit RGBA) with rows that vary, so its PNG uses every row filter. */
async function sampleScreenPng(): Promise<Buffer> {
  const width = 1080;
  const height = 2400;
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      pixels[at] = (x * 7 + y) & 0xff;
      pixels[at + 1] = (y >> 3) & 0xff;
      pixels[at + 2] = x % 64 < 32 ? 240 : (x ^ y) & 0xff;
      pixels[at + 3] = 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 4 } }).png().toBuffer();
}

/**
 * Has the PNG worker encode one phone-sized screen of its own, so that the first real PNG screenshot finds the
 * worker started, its decoder compiled and its memory allocated: cold, that first encode takes 0.5-2.5 s instead of
 * ~0.1 s. For a process that waits for tasks (a fleet worker); the worker keeps no process alive afterwards.
 */
export async function primePngScreenshots(encoding: ScreenshotEncoding = DEFAULT_SCREENSHOT_ENCODING): Promise<void> {
  await encodeScreenshot({ png: await sampleScreenPng() }, encoding);
}
