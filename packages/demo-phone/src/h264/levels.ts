/** H.264 levels (Table A-1): macroblocks per second and per frame. */
const LEVELS: ReadonlyArray<{ idc: number; maxMbsPerSecond: number; maxFrameMbs: number }> = [
  { idc: 10, maxMbsPerSecond: 1_485, maxFrameMbs: 99 },
  { idc: 11, maxMbsPerSecond: 3_000, maxFrameMbs: 396 },
  { idc: 12, maxMbsPerSecond: 6_000, maxFrameMbs: 396 },
  { idc: 13, maxMbsPerSecond: 11_880, maxFrameMbs: 396 },
  { idc: 20, maxMbsPerSecond: 11_880, maxFrameMbs: 396 },
  { idc: 21, maxMbsPerSecond: 19_800, maxFrameMbs: 792 },
  { idc: 22, maxMbsPerSecond: 20_250, maxFrameMbs: 1_620 },
  { idc: 30, maxMbsPerSecond: 40_500, maxFrameMbs: 1_620 },
  { idc: 31, maxMbsPerSecond: 108_000, maxFrameMbs: 3_600 },
  { idc: 32, maxMbsPerSecond: 216_000, maxFrameMbs: 5_120 },
  { idc: 40, maxMbsPerSecond: 245_760, maxFrameMbs: 8_192 },
  { idc: 41, maxMbsPerSecond: 245_760, maxFrameMbs: 8_192 },
  { idc: 42, maxMbsPerSecond: 522_240, maxFrameMbs: 8_704 },
  { idc: 50, maxMbsPerSecond: 589_824, maxFrameMbs: 22_080 },
  { idc: 51, maxMbsPerSecond: 983_040, maxFrameMbs: 36_864 },
  { idc: 52, maxMbsPerSecond: 2_073_600, maxFrameMbs: 36_864 },
];

/**
 * The lowest level whose frame size, frame shape (each side at most sqrt(8*MaxFS) macroblocks) and macroblock
 * rate at `framesPerSecond` fit the picture. Bit rate limits are left out: an I_PCM stream exceeds them at any
 * level and decoders do not enforce them.
 */
export function levelFor(widthInMbs: number, heightInMbs: number, framesPerSecond: number): number {
  const frameMbs = widthInMbs * heightInMbs;
  const level = LEVELS.find(
    (candidate) =>
      frameMbs <= candidate.maxFrameMbs &&
      Math.max(widthInMbs, heightInMbs) ** 2 <= 8 * candidate.maxFrameMbs &&
      frameMbs * framesPerSecond <= candidate.maxMbsPerSecond,
  );
  if (!level) throw new Error(`a ${widthInMbs}x${heightInMbs} macroblock picture at ${framesPerSecond} fps exceeds every H.264 level`);
  return level.idc;
}
