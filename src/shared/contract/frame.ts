import { z } from 'zod';

/** Metadata of one binary frame pushed from main (the live mirror). The bytes travel beside it, never as base64. */
export const FrameMetaSchema = z.object({
  serial: z.string(),
  seq: z.number().int().nonnegative(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** A still image, or one compressed H.264 packet of the video mirror (Annex B) that the window decodes itself. */
  mediaType: z.enum(['image/png', 'image/jpeg', 'image/webp', 'video/h264']),
  /** Video only: the WebCodecs codec string (e.g. `avc1.42C028`). */
  codec: z.string().max(40).optional(),
  /** Video only: a key frame (with its configuration in front) from which decoding can start. */
  keyFrame: z.boolean().optional(),
  capturedAt: z.number(),
  captureMs: z.number().nonnegative(),
  /** The phone's screen in device pixels (as rotated now): a point on the image times deviceWidth/width is a device x. */
  deviceWidth: z.number().int().positive().optional(),
  deviceHeight: z.number().int().positive().optional(),
});
export type FrameMeta = z.infer<typeof FrameMetaSchema>;

/**
 * Binary frame envelope on the WebSocket transport: u32 (little-endian) header length, the header JSON (FrameMeta),
 * then the image bytes.
 */
export function encodeFrame(meta: FrameMeta, bytes: Uint8Array): Uint8Array {
  const header = new TextEncoder().encode(JSON.stringify(meta));
  const out = new Uint8Array(4 + header.length + bytes.length);
  new DataView(out.buffer).setUint32(0, header.length, true);
  out.set(header, 4);
  out.set(bytes, 4 + header.length);
  return out;
}

export function decodeFrame(data: Uint8Array): { meta: FrameMeta; bytes: Uint8Array } {
  if (data.length < 4) throw new Error('frame is shorter than its header length');
  const headerLength = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(0, true);
  if (4 + headerLength > data.length) throw new Error('frame header length exceeds the frame');
  const meta = FrameMetaSchema.parse(JSON.parse(new TextDecoder().decode(data.subarray(4, 4 + headerLength))));
  return { meta, bytes: data.subarray(4 + headerLength) };
}
