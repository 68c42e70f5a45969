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

/** Width and height from the PNG header (IHDR is always the first chunk), saving sharp a separate metadata pass. */
function pngSize(png: Buffer): { width: number; height: number } {
  if (png.length < 24 || png.toString('latin1', 12, 16) !== 'IHDR') throw new ScreenshotError('the screenshot is not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * Baseline JPEG with the standard Huffman tables: optimising them costs a second pass over the image (~40% of the
 * encode) to save ~8% of its bytes, and the bytes are not what limits a turn.
 */
const jpegOptions = (quality: number) => ({ quality, mozjpeg: false, optimiseCoding: false });

/** Downscales to the long edge and encodes. Throws ScreenshotError on undecodable input. */
export async function encodeScreenshot(
  source: { png: Buffer } | { pixels: Buffer; width: number; height: number },
  encoding: ScreenshotEncoding = DEFAULT_SCREENSHOT_ENCODING,
): Promise<EncodedScreenshot> {
  try {
    const image =
      'png' in source
        ? sharp(source.png, { sequentialRead: true })
        : sharp(source.pixels, { raw: { width: source.width, height: source.height, channels: 4 } });
    const { width: sourceWidth, height: sourceHeight } = 'png' in source ? pngSize(source.png) : source;
    if (!sourceWidth || !sourceHeight) throw new ScreenshotError('the screenshot has no size');
    const factor = Math.min(1, encoding.longEdge / Math.max(sourceWidth, sourceHeight));
    const width = Math.max(1, Math.round(sourceWidth * factor));
    const height = Math.max(1, Math.round(sourceHeight * factor));
    // Alpha goes first (flatten runs before the resize; removeAlpha after it): sharp premultiplies and
    // unpremultiplies every pixel of an image with alpha that it resizes, which costs more than the decode itself,
    // and a screen capture is opaque, so flattening changes no pixel. Everything stays inside one libvips
    // pipeline: handing the ~8 MB of decoded pixels to JavaScript would cost more in garbage collection.
    image.flatten();
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
