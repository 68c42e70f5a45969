import sharp from 'sharp';
import type { CapturedScreen } from './screen-capture';

export interface MirrorEncoding {
  /** Longer side of the frame in pixels; never enlarged. */
  longEdge: number;
  quality: number;
}

export const DEFAULT_MIRROR_ENCODING: MirrorEncoding = { longEdge: 960, quality: 70 };

export interface EncodedFrame {
  bytes: Buffer;
  mediaType: 'image/jpeg';
  width: number;
  height: number;
  /** The phone's screen in device pixels. */
  deviceWidth: number;
  deviceHeight: number;
}

/**
 * Downscales and JPEG-encodes one screen grab for the window. Unlike the planner's screenshot this favours
 * speed over fidelity (bilinear scaling: the frame is repainted a few times a second at window size).
 */
export async function encodeMirrorFrame(screen: CapturedScreen, encoding: MirrorEncoding = DEFAULT_MIRROR_ENCODING): Promise<EncodedFrame> {
  const image = 'png' in screen ? sharp(screen.png) : sharp(screen.pixels, { raw: { width: screen.width, height: screen.height, channels: 4 } });
  const { width: deviceWidth, height: deviceHeight } = 'png' in screen ? await image.metadata() : screen;
  if (!deviceWidth || !deviceHeight) throw new Error('the screen grab has no size');
  const factor = Math.min(1, encoding.longEdge / Math.max(deviceWidth, deviceHeight));
  const width = Math.max(1, Math.round(deviceWidth * factor));
  const height = Math.max(1, Math.round(deviceHeight * factor));
  const resized = factor < 1 ? image.resize(width, height, { fit: 'fill', kernel: 'linear' }) : image;
  const bytes = await resized.removeAlpha().jpeg({ quality: encoding.quality }).toBuffer();
  return { bytes, mediaType: 'image/jpeg', width, height, deviceWidth, deviceHeight };
}
