// The stages of a screenshot's encode, each timed alone in host CPU (user + system, all threads), in a process of
// its own: a stage that hands ~10 MB of fresh pixels to JavaScript (the PNG decode) triggers collections that would
// be billed to whichever stage runs next in a process with a larger heap (the observe benchmark's). In an observe the
// PNG's stages run in the PNG worker's small heap, which this process's resembles.
// Usage: tsx bench/support/screenshot-stages.ts PNG_FILE RAW_FILE ROUNDS  -> one JSON object on stdout.
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { decodePng, downscale, dropAlpha, encodeRgb } from '../../src/main/perception/pixels';
import { DEFAULT_SCREENSHOT_ENCODING, rawFrameFromScreencap } from '../../src/main/perception/screenshot';

export interface ScreenshotStages {
  decodeMs: number;
  dropAlphaMs: number;
  resizeMs: number;
  jpegMs: number;
  /** Size of the model's image. */
  width: number;
  height: number;
}

const [pngFile, rawFile, roundsText] = process.argv.slice(2);
const rounds = Number(roundsText);
const png = readFileSync(pngFile!);
const frame = rawFrameFromScreencap(readFileSync(rawFile!));
const { width, height } = frame;
const encoding = DEFAULT_SCREENSHOT_ENCODING;

/** CPU ms per run of `work`, after one run that is not counted; `prepare` runs before each, not counted. */
async function cpuPer(work: () => unknown, prepare: () => void = () => undefined): Promise<number> {
  prepare();
  await work();
  let used = 0;
  for (let round = 0; round < rounds; round++) {
    prepare();
    const before = process.cpuUsage();
    await work();
    const spent = process.cpuUsage(before);
    used += spent.user + spent.system;
  }
  return used / 1000 / rounds;
}

const rgba = Buffer.from(frame.pixels);
const scratch = Buffer.alloc(rgba.length);
const rgb = dropAlpha(Buffer.from(rgba), width * height);
const small = downscale(sharp, rgb, width, height, encoding.longEdge);
const smallRgb = await small.image.raw().toBuffer();
const stages: ScreenshotStages = {
  decodeMs: await cpuPer(() => decodePng(sharp, png)),
  dropAlphaMs: await cpuPer(
    () => dropAlpha(scratch, width * height),
    () => rgba.copy(scratch),
  ),
  resizeMs: await cpuPer(() => downscale(sharp, rgb, width, height, encoding.longEdge).image.raw().toBuffer()),
  // Already at the model's size: `encodeRgb` only encodes.
  jpegMs: await cpuPer(() => encodeRgb(sharp, smallRgb, small.width, small.height, encoding)),
  width: small.width,
  height: small.height,
};
process.stdout.write(`${JSON.stringify(stages)}\n`);
