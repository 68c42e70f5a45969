import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeMirrorFrame } from '../../../src/app/mirror/frame-encoder';

type Rgb = [number, number, number];

/** A raw RGBX_8888 frame (Android's pixel format 2) in four horizontal bands, every padding byte 0. */
function rgbxBands(width: number, height: number, bands: Rgb[]): Buffer {
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    const [r, g, b] = bands[Math.floor((y * bands.length) / height)]!;
    for (let x = 0; x < width; x++) pixels.set([r, g, b, 0], (y * width + x) * 4);
  }
  return pixels;
}

describe('mirror frame encoding', () => {
  it('Scenario: A raw RGBX frame whose padding bytes are 0 is mirrored in its own colours', async () => {
    const bands: Rgb[] = [
      [200, 60, 30],
      [20, 180, 90],
      [40, 70, 220],
      [250, 250, 250],
    ];
    const frame = await encodeMirrorFrame({ pixels: rgbxBands(1080, 2400, bands), width: 1080, height: 2400 }, { longEdge: 960, quality: 70 });
    expect(frame).toMatchObject({ mediaType: 'image/jpeg', width: 432, height: 960, deviceWidth: 1080, deviceHeight: 2400 });
    const { data, info } = await sharp(frame.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    bands.forEach((colour, band) => {
      // The middle of each band, away from the blur of its edges; JPEG at quality 70 shifts flat colours slightly.
      const y = Math.floor(((band + 0.5) * info.height) / bands.length);
      for (const x of [10, info.width >> 1, info.width - 10]) {
        const at = (y * info.width + x) * 3;
        const decoded = [...data.subarray(at, at + 3)];
        decoded.forEach((value, channel) => expect(Math.abs(value - colour[channel]!), `band ${band} at ${x},${y}: ${decoded} vs ${colour}`).toBeLessThanOrEqual(12));
      }
    });
  });
});
