import sharp from 'sharp';

export type ScreenshotFormat = 'png' | 'jpeg' | 'webp';

export interface ScreenshotEncoding {
  /** The longer side of the image sent to the model, in pixels; never enlarged. */
  longEdge: number;
  format: ScreenshotFormat;
  /** JPEG/WebP quality (1-100). */
  quality: number;
}

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

/**
 * Raw `screencap` output: a header of width, height, pixel format (and, from Android 8, a colour space)
 * as little-endian u32, then RGBA pixels.
 */
export function rawFrameFromScreencap(output: Buffer): { pixels: Buffer; width: number; height: number } {
  if (output.length < 12) throw new ScreenshotError('raw screencap output is too short');
  const width = output.readUInt32LE(0);
  const height = output.readUInt32LE(4);
  const pixelBytes = width * height * 4;
  const headerSize = output.length - pixelBytes;
  if (width === 0 || height === 0 || (headerSize !== 12 && headerSize !== 16)) {
    throw new ScreenshotError(`raw screencap output does not match its ${width}x${height} header`);
  }
  return { pixels: output.subarray(headerSize), width, height };
}

/** Width and height from the PNG header (IHDR is always the first chunk). */
function pngSize(png: Buffer): { width: number; height: number } {
  if (png.length < 24 || png.toString('latin1', 12, 16) !== 'IHDR') throw new ScreenshotError('the screenshot is not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const PNG_END = Buffer.from('IEND', 'latin1');

/**
 * Baseline JPEG with the standard Huffman tables: optimising them costs a second pass over the image (~40% of the
 * encode) to save ~8% of its bytes, and the bytes are not what limits a turn.
 */
const jpegOptions = (quality: number) => ({ quality, mozjpeg: false, optimiseCoding: false });

/** Raw RGBA (or RGBX) pixels of a `screencap`, 4 bytes each, row after row. */
interface RawFrame {
  pixels: Buffer;
  width: number;
  height: number;
}

/**
 * The PNG opened for libvips. Checksums are not verified (`failOn: 'none'`): checking them costs a third of the
 * decode, and adb's transport already delivers the bytes intact; a stream cut short (the one fault seen in
 * practice) is refused by its missing end chunk instead.
 */
function openPng(png: Buffer): { image: sharp.Sharp; width: number; height: number } {
  const { width, height } = pngSize(png);
  if (png.indexOf(PNG_END, Math.max(0, png.length - 32)) < 0) throw new ScreenshotError('the screenshot PNG is cut short');
  // Flattening (before the resize) spares libvips premultiplying every pixel around the resize; a capture is opaque,
  // so it changes no pixel. Its decoded pixels never reach JavaScript: a fresh ~10 MB buffer per screenshot would
  // cost more in garbage collection on a large heap (the app's) than the flattening does.
  return { image: sharp(png, { sequentialRead: true, failOn: 'none' }).flatten(), width, height };
}

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Drops the alpha (or padding) byte of every pixel of a raw frame, in place, and returns the RGB pixels (a view of
 * the same memory). A screen capture is opaque, so this changes no colour (and an RGBX frame's padding, which may be
 * 0, is not taken for transparency); done before libvips sees the frame, it spares libvips flattening (a division
 * per sample) or premultiplying around the resize, which cost more than this pass. Four pixels at a time as 32-bit
 * words where the memory allows, about four times faster than byte by byte.
 */
function dropAlpha({ pixels, width, height }: RawFrame): Buffer {
  const count = width * height;
  let done = 0;
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
 * Downscales to the long edge and encodes. Throws ScreenshotError on undecodable input. Raw `pixels` (RGBA, as
 * `rawFrameFromScreencap` gives them) are rewritten in place: the caller's buffer holds no image afterwards.
 */
export async function encodeScreenshot(
  source: { png: Buffer } | { pixels: Buffer; width: number; height: number },
  encoding: ScreenshotEncoding = DEFAULT_SCREENSHOT_ENCODING,
): Promise<EncodedScreenshot> {
  try {
    const { image, width: sourceWidth, height: sourceHeight } =
      'png' in source
        ? openPng(source.png)
        : { image: sharp(dropAlpha(source), { raw: { width: source.width, height: source.height, channels: 3 } }), width: source.width, height: source.height };
    if (!sourceWidth || !sourceHeight) throw new ScreenshotError('the screenshot has no size');
    const factor = Math.min(1, encoding.longEdge / Math.max(sourceWidth, sourceHeight));
    const width = Math.max(1, Math.round(sourceWidth * factor));
    const height = Math.max(1, Math.round(sourceHeight * factor));
    // A linear (triangle) filter scaled to the reduction: sharp enough for UI text, ~20% cheaper than lanczos3.
    if (factor < 1) image.resize(width, height, { fit: 'fill', kernel: 'linear' });
    const bytes =
      encoding.format === 'png'
        ? await image.png({ compressionLevel: 6 }).toBuffer()
        : encoding.format === 'jpeg'
          ? await image.jpeg(jpegOptions(encoding.quality)).toBuffer()
          : await image.webp({ quality: encoding.quality }).toBuffer();
    return { bytes, mediaType: `image/${encoding.format}`, width, height, scale: sourceWidth / width };
  } catch (error) {
    if (error instanceof ScreenshotError) throw error;
    throw new ScreenshotError(`the screenshot could not be decoded: ${error instanceof Error ? error.message : String(error)}`);
  }
}
