import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  encodeScreenshot,
  pngFromScreencap,
  rawFrameFromScreencap,
  ScreenshotError,
} from '../../../src/core/perception/screenshot';

async function phonePng(width = 1080, height = 2400, colour = { r: 30, g: 120, b: 200 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { ...colour, alpha: 1 } } }).png().toBuffer();
}

describe('screenshot pipeline', () => {
  it('Scenario: A 1080x2400 screenshot is downscaled to the long edge with its scale factor', async () => {
    const shot = await encodeScreenshot({ png: await phonePng() }, { longEdge: 1456, format: 'jpeg', quality: 80 });
    expect(shot.height).toBe(1456);
    expect(shot.width).toBe(655);
    expect(shot.mediaType).toBe('image/jpeg');
    expect(shot.scale).toBeCloseTo(1080 / 655, 5);
    const decoded = await sharp(shot.bytes).metadata();
    expect([decoded.format, decoded.width, decoded.height]).toEqual(['jpeg', 655, 1456]);
  });

  it('drops the opaque alpha before resizing without changing a pixel of the result', async () => {
    // A busy RGBA screen (text, edges, gradient) as `screencap -p` sends it.
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="2400"><defs><linearGradient id="g" x2="0" y2="1">' +
      '<stop offset="0" stop-color="#3F5AA6"/><stop offset="1" stop-color="#8EC5E8"/></linearGradient></defs>' +
      '<rect width="1080" height="2400" fill="url(#g)"/><rect x="40" y="300" width="1000" height="180" rx="40" fill="#FFFFFF"/>' +
      '<text x="80" y="410" font-size="60" fill="#1D1B20">Network &amp; internet</text><circle cx="540" cy="1800" r="200" fill="#B3261E"/></svg>';
    const png = await sharp(Buffer.from(svg)).ensureAlpha().png().toBuffer();
    expect((await sharp(png).metadata()).channels).toBe(4);
    const shot = await encodeScreenshot({ png }, { longEdge: 1456, format: 'jpeg', quality: 80 });
    // The straightforward one-pipeline encode (resizing with alpha) is the reference.
    const reference = await sharp(png).resize(655, 1456, { fit: 'fill', kernel: 'linear' }).removeAlpha().jpeg({ quality: 80, mozjpeg: false, optimiseCoding: false }).toBuffer();
    expect(shot.bytes.equals(reference)).toBe(true);
    const raw = await sharp(png).raw().toBuffer();
    const fromRaw = await encodeScreenshot({ pixels: raw, width: 1080, height: 2400 }, { longEdge: 1456, format: 'jpeg', quality: 80 });
    expect(fromRaw.bytes.equals(reference)).toBe(true);
  });

  it('ignores the padding byte of an RGBX frame and gives the same image wherever the pixels sit in memory', async () => {
    const width = 9; // 36 bytes per row and an odd pixel count: the last pixels take the byte-by-byte way
    const height = 7;
    const rgbx = Buffer.alloc(width * height * 4);
    for (let pixel = 0; pixel < width * height; pixel++) rgbx.set([(pixel * 29) % 256, (pixel * 53) % 256, (pixel * 97) % 256, 0], pixel * 4);
    const expected = await sharp(Buffer.from(rgbx), { raw: { width, height, channels: 4 } }).removeAlpha().png().toBuffer();
    const encoding = { longEdge: 100, format: 'png' as const, quality: 80 };
    const aligned = await encodeScreenshot({ pixels: Buffer.from(rgbx), width, height }, encoding);
    const shifted = Buffer.alloc(rgbx.length + 1);
    rgbx.copy(shifted, 1);
    const unaligned = await encodeScreenshot({ pixels: shifted.subarray(1), width, height }, encoding);
    // A zero padding byte is no transparency: flattening it would have made every pixel black.
    expect(aligned.bytes.equals(expected)).toBe(true);
    expect(unaligned.bytes.equals(expected)).toBe(true);
  });

  it('encodes a greyscale PNG', async () => {
    const grey = await sharp(Buffer.alloc(100 * 200, 0x80), { raw: { width: 100, height: 200, channels: 1 } }).toColourspace('b-w').png().toBuffer();
    expect((await sharp(grey).metadata()).channels).toBe(1);
    const shot = await encodeScreenshot({ png: grey }, { longEdge: 100, format: 'jpeg', quality: 80 });
    expect([shot.width, shot.height, shot.scale]).toEqual([50, 100, 2]);
    expect((await sharp(shot.bytes).metadata()).width).toBe(50);
  });

  it('encodes 16-bit and grey-with-alpha PNGs with their colours', async () => {
    const deep = await sharp({ create: { width: 40, height: 80, channels: 4, background: { r: 200, g: 40, b: 90, alpha: 1 } } })
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    expect((await sharp(deep).metadata()).depth).toBe('ushort');
    const greyAlpha = await sharp(Buffer.alloc(40 * 80 * 2, Buffer.from([0x50, 0xff])), { raw: { width: 40, height: 80, channels: 2 } })
      .toColourspace('b-w')
      .png()
      .toBuffer();
    expect((await sharp(greyAlpha).metadata()).channels).toBe(2);
    const colourOf = async (png: Buffer) => {
      const shot = await encodeScreenshot({ png }, { longEdge: 40, format: 'png', quality: 80 });
      expect([shot.width, shot.height]).toEqual([20, 40]);
      return [...(await sharp(shot.bytes).removeAlpha().raw().toBuffer()).subarray(0, 3)];
    };
    expect(await colourOf(deep)).toEqual([200, 40, 90]);
    expect(await colourOf(greyAlpha)).toEqual([0x50, 0x50, 0x50]);
  });

  it('Scenario: PNG encodes in the worker each get their own image, also after an undecodable one', async () => {
    const sizes = [
      [300, 600],
      [200, 500],
      [120, 160],
    ] as const;
    const pngs = await Promise.all(sizes.map(([width, height]) => phonePng(width, height)));
    const shots = await Promise.all(pngs.map((png) => encodeScreenshot({ png }, { longEdge: 100, format: 'jpeg', quality: 80 })));
    expect(shots.map((shot) => [shot.width, shot.height])).toEqual([
      [50, 100],
      [40, 100],
      [75, 100],
    ]);
    // Two of one size at once: each decode has memory of its own while libvips still reads the other's pixels.
    const colours = [{ r: 200, g: 30, b: 30 }, { r: 30, g: 200, b: 30 }, { r: 30, g: 30, b: 200 }];
    const sameSize = await Promise.all(colours.map((colour) => phonePng(300, 600, colour)));
    const sameSizeShots = await Promise.all(sameSize.map((png) => encodeScreenshot({ png }, { longEdge: 100, format: 'png', quality: 80 })));
    const centres = await Promise.all(sameSizeShots.map(async (shot) => [...(await sharp(shot.bytes).extract({ left: 25, top: 50, width: 1, height: 1 }).raw().toBuffer())]));
    expect(centres).toEqual(colours.map(({ r, g, b }) => [r, g, b]));
    // A PNG with a sound header and end chunk whose image data is noise: the decoder fails, the worker goes on.
    const noise = Buffer.from(pngs[0]!);
    noise.fill(0x5a, 41, noise.length - 12);
    await expect(encodeScreenshot({ png: noise })).rejects.toThrow(ScreenshotError);
    const after = await encodeScreenshot({ png: pngs[2]! }, { longEdge: 100, format: 'jpeg', quality: 80 });
    expect([after.width, after.height]).toEqual([75, 100]);
  });

  it('never enlarges a small screen and encodes PNG and WebP on request', async () => {
    const png = await encodeScreenshot({ png: await phonePng(480, 800) }, { longEdge: 1456, format: 'png', quality: 80 });
    expect([png.width, png.height, png.scale, png.mediaType]).toEqual([480, 800, 1, 'image/png']);
    const webp = await encodeScreenshot({ png: await phonePng(480, 800) }, { longEdge: 400, format: 'webp', quality: 70 });
    expect((await sharp(webp.bytes).metadata()).format).toBe('webp');
    expect(webp.height).toBe(400);
  });

  it('decodes raw screencap frames with the 12- and 16-byte headers', async () => {
    for (const headerSize of [12, 16]) {
      const width = 20;
      const height = 40;
      const header = Buffer.alloc(headerSize);
      header.writeUInt32LE(width, 0);
      header.writeUInt32LE(height, 4);
      header.writeUInt32LE(1, 8);
      const frame = rawFrameFromScreencap(Buffer.concat([header, Buffer.alloc(width * height * 4, 0xff)]));
      expect([frame.width, frame.height, frame.pixels.length]).toEqual([width, height, width * height * 4]);
      const shot = await encodeScreenshot(frame, { longEdge: 20, format: 'png', quality: 80 });
      expect([shot.width, shot.height, shot.scale]).toEqual([10, 20, 2]);
    }
    expect(() => rawFrameFromScreencap(Buffer.alloc(100))).toThrow(ScreenshotError);
  });

  it('Scenario: A raw screencap in BGRA or an unknown pixel format is read in its real colours or refused in plain words', async () => {
    const rawFrame = (format: number, pixel: number[]) => {
      const header = Buffer.alloc(16);
      header.writeUInt32LE(4, 0);
      header.writeUInt32LE(4, 4);
      header.writeUInt32LE(format, 8);
      return Buffer.concat([header, Buffer.from(Array.from({ length: 16 }, () => pixel).flat())]);
    };
    const colourOf = async (output: Buffer) => {
      const shot = await encodeScreenshot(rawFrameFromScreencap(output), { longEdge: 4, format: 'png', quality: 80 });
      return [...(await sharp(shot.bytes).raw().toBuffer()).subarray(0, 3)];
    };
    // The same orange (200, 60, 30) as an RGBA phone and as a BGRA phone store it.
    expect(await colourOf(rawFrame(1, [200, 60, 30, 255]))).toEqual([200, 60, 30]);
    expect(await colourOf(rawFrame(5, [30, 60, 200, 255]))).toEqual([200, 60, 30]);
    expect(() => rawFrameFromScreencap(rawFrame(4, [0, 0, 0, 0]))).toThrow(/pixel format 4/);
  });

  it('repairs a PNG whose line endings a pty converted, and rejects output that is no PNG', async () => {
    const png = await phonePng(10, 10);
    const mangled = Buffer.from(png.toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
    expect(pngFromScreencap(mangled).equals(png)).toBe(true);
    expect(pngFromScreencap(Buffer.concat([Buffer.from('\n'), png])).equals(png)).toBe(true);
    expect(() => pngFromScreencap(Buffer.from('screencap: permission denied'))).toThrow(/permission denied/);
    await expect(encodeScreenshot({ png: png.subarray(0, 40) })).rejects.toThrow(ScreenshotError);
    const whole = await phonePng(300, 300);
    await expect(encodeScreenshot({ png: whole.subarray(0, whole.length - 20) })).rejects.toThrow(/cut short/);
  });
});
