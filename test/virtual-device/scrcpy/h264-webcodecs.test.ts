import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { H264ScreenEncoder } from '../../../packages/demo-phone/src/h264/encoder';
import { launchTestBrowser, type TestBrowser } from '../../support/browser';

const WIDTH = 360;
const HEIGHT = 800;

/** Four flat quadrants (red, green, blue, white) over a mid-grey; frame 1 swaps in a black top-left quadrant. */
function quadrants(frame: number): Uint8Array {
  const colours = [frame === 0 ? [220, 30, 30] : [0, 0, 0], [30, 200, 60], [40, 60, 220], [255, 255, 255]];
  const rgba = new Uint8Array(WIDTH * HEIGHT * 4);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const colour = colours[(y < HEIGHT / 2 ? 0 : 2) + (x < WIDTH / 2 ? 0 : 1)]!;
      rgba.set([...colour, 255], (y * WIDTH + x) * 4);
    }
  }
  return rgba;
}

const SAMPLE_POINTS = [
  [WIDTH / 4, HEIGHT / 4],
  [(3 * WIDTH) / 4, HEIGHT / 4],
  [WIDTH / 4, (3 * HEIGHT) / 4],
  [(3 * WIDTH) / 4, (3 * HEIGHT) / 4],
] as const;

describe('H.264 screen stream in Chromium WebCodecs', () => {
  let browser: TestBrowser;
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    // WebCodecs exists only in a secure context: a page from http://127.0.0.1, not a data: URL.
    server = createServer((_, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><canvas></canvas>'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchTestBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("Scenario: Chromium's VideoDecoder decodes key and delta frames to the screen's colours", async () => {
    const encoder = new H264ScreenEncoder({ width: WIDTH, height: HEIGHT, framesPerSecond: 60 });
    // As scrcpy clients do, the config packet travels with the first key frame.
    const chunks = [
      { type: 'key' as const, data: Buffer.concat([encoder.parameterSets(), encoder.encodeKeyFrame(quadrants(0))]) },
      { type: 'delta' as const, data: Buffer.from(encoder.encodeDeltaFrame(quadrants(1))) },
      { type: 'delta' as const, data: Buffer.from(encoder.encodeDeltaFrame()) },
    ];
    const page = await browser.context.newPage();
    await page.goto(origin);
    const result = await page.evaluate(
      async ({ codec, chunks: encoded, points }) => {
        const support = await VideoDecoder.isConfigSupported({ codec, optimizeForLatency: true });
        const canvas = document.querySelector('canvas')!;
        const context = canvas.getContext('2d', { willReadFrequently: true })!;
        const frames: Array<{ width: number; height: number; pixels: number[][] }> = [];
        const errors: string[] = [];
        const decoder = new VideoDecoder({
          output: (frame) => {
            canvas.width = frame.displayWidth;
            canvas.height = frame.displayHeight;
            context.drawImage(frame, 0, 0);
            frames.push({ width: frame.displayWidth, height: frame.displayHeight, pixels: points.map(({ x, y }) => [...context.getImageData(x, y, 1, 1).data.slice(0, 3)]) });
            frame.close();
          },
          error: (error) => errors.push(String(error)),
        });
        decoder.configure({ codec, optimizeForLatency: true });
        encoded.forEach(({ type, base64 }, index) => {
          const data = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
          decoder.decode(new EncodedVideoChunk({ type, timestamp: index * 16_667, data }));
        });
        await decoder.flush();
        return { supported: support.supported, frames, errors };
      },
      { codec: encoder.codecString, chunks: chunks.map(({ type, data }) => ({ type, base64: data.toString('base64') })), points: SAMPLE_POINTS.map(([x, y]) => ({ x, y })) },
    );
    expect(result.errors).toEqual([]);
    expect(result.supported).toBe(true);
    expect(result.frames.map(({ width, height }) => [width, height])).toEqual([
      [WIDTH, HEIGHT],
      [WIDTH, HEIGHT],
      [WIDTH, HEIGHT],
    ]);
    const expected = [0, 1, 1].map((frame) => SAMPLE_POINTS.map(([x, y]) => [...quadrants(frame).subarray((y * WIDTH + x) * 4, (y * WIDTH + x) * 4 + 3)]));
    result.frames.forEach((frame, index) => {
      frame.pixels.forEach((pixel, point) => {
        // Limited-range BT.601 there and back loses a little: allow a few levels per channel.
        pixel.forEach((value, channel) => expect(Math.abs(value - expected[index]![point]![channel]!)).toBeLessThanOrEqual(6));
      });
    });
  });
});
