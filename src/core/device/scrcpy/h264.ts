/** Just enough of H.264's Annex B byte stream to name the codec for a WebCodecs decoder. */

const NAL_SPS = 7;

/** The NAL units of an Annex B buffer (start codes 00 00 01 or 00 00 00 01), without their start codes. */
export function annexBUnits(data: Uint8Array): Uint8Array[] {
  const starts: { at: number; length: number }[] = [];
  for (let i = 0; i + 2 < data.length; i += 1) {
    if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 1) {
      const long = i > 0 && data[i - 1] === 0;
      starts.push({ at: long ? i - 1 : i, length: long ? 4 : 3 });
      i += 2;
    }
  }
  return starts.map((start, index) => data.subarray(start.at + start.length, starts[index + 1]?.at ?? data.length));
}

/**
 * The RFC 6381 codec string (`avc1.PPCCLL`: profile, constraint flags, level) of the first SPS in `config`,
 * or null when it holds none.
 */
export function avcCodecString(config: Uint8Array): string | null {
  const sps = annexBUnits(config).find((unit) => unit.length >= 4 && (unit[0]! & 0x1f) === NAL_SPS);
  if (!sps) return null;
  const hex = (byte: number) => byte.toString(16).padStart(2, '0').toUpperCase();
  return `avc1.${hex(sps[1]!)}${hex(sps[2]!)}${hex(sps[3]!)}`;
}
