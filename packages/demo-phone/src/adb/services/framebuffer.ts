import type { PhoneFramebuffer } from '../../phone-contract';
import type { ServiceStream } from '../stream';

// adb's framebuffer header, version 2: 14 little-endian u32s (version, bpp, colorSpace, size, width, height,
// then offset/length of red, blue, green, alpha), followed by the pixels.
const HEADER_FIELDS = 14;
const VERSION = 2;
const COLOR_SPACE_SRGB = 0;

export function framebufferHeader(frame: Pick<PhoneFramebuffer, 'width' | 'height'>): Buffer {
  const size = frame.width * frame.height * 4;
  const fields = [VERSION, 32, COLOR_SPACE_SRGB, size, frame.width, frame.height, 0, 8, 16, 8, 8, 8, 24, 8];
  const header = Buffer.alloc(HEADER_FIELDS * 4);
  fields.forEach((value, index) => header.writeUInt32LE(value, index * 4));
  return header;
}

/** `framebuffer:`: the header, then the screen's RGBA pixels, then the end of the stream. */
export async function runFramebufferService(stream: ServiceStream, capture: () => Promise<PhoneFramebuffer>): Promise<void> {
  const frame = await capture();
  await stream.write(framebufferHeader(frame));
  for (let offset = 0; offset < frame.rgba.length && !stream.signal.aborted; offset += stream.maxPayload) {
    await stream.write(frame.rgba.subarray(offset, offset + stream.maxPayload));
  }
  stream.close();
}
