import { encodeScreenshot, pngSize } from '../../core/perception/screenshot';
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
 * Downscales and JPEG-encodes one screen grab for the window, the way the planner's screenshot is encoded
 * (`encodeScreenshot`: the 4th byte of a raw frame is dropped, never read as alpha, since an RGBX frame's padding
 * may be 0), only smaller and at a lower quality: the frame is repainted a few times a second at window size. A raw
 * frame's pixels are rewritten in place (see `encodeScreenshot`).
 */
export async function encodeMirrorFrame(screen: CapturedScreen, encoding: MirrorEncoding = DEFAULT_MIRROR_ENCODING): Promise<EncodedFrame> {
  const { width: deviceWidth, height: deviceHeight } = 'png' in screen ? pngSize(screen.png) : screen;
  const { bytes, width, height } = await encodeScreenshot(screen, { longEdge: encoding.longEdge, format: 'jpeg', quality: encoding.quality });
  return { bytes, mediaType: 'image/jpeg', width, height, deviceWidth, deviceHeight };
}
