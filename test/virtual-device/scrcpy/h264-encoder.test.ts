import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { annexBNalUnit } from '../../../packages/demo-phone/src/h264/bit-writer';
import { H264ScreenEncoder } from '../../../packages/demo-phone/src/h264/encoder';
import { levelFor } from '../../../packages/demo-phone/src/h264/levels';
import { rgbaToI420 } from '../../../packages/demo-phone/src/h264/yuv';

/** A test pattern: gradients, a moving bar, and the extremes black and white. */
function pattern(width: number, height: number, frame: number): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      const bar = Math.abs(x - frame * 20) < 6;
      rgba[at] = bar ? 255 : (x * 255) / width;
      rgba[at + 1] = bar ? 255 : (y * 255) / height;
      rgba[at + 2] = bar ? 255 : x < 4 ? 0 : 120;
      rgba[at + 3] = 255;
    }
  }
  return rgba;
}

/** NAL units of an Annex B stream with emulation prevention removed. */
function nalUnits(stream: Uint8Array): Uint8Array[] {
  const starts: number[] = [];
  for (let i = 0; i + 3 < stream.length; i++) if (stream[i] === 0 && stream[i + 1] === 0 && stream[i + 2] === 1) starts.push(i + 3);
  return starts.map((start, index) => {
    const end = index + 1 < starts.length ? starts[index + 1]! - 3 - (stream[starts[index + 1]! - 4] === 0 ? 1 : 0) : stream.length;
    const out: number[] = [];
    let zeros = 0;
    for (let i = start; i < end; i++) {
      if (zeros >= 2 && stream[i] === 3) {
        zeros = 0;
        continue;
      }
      out.push(stream[i]!);
      zeros = stream[i] === 0 ? zeros + 1 : 0;
    }
    return Uint8Array.from(out);
  });
}

/** Reads bits and Exp-Golomb codes (clause 9.1), independently of the encoder's writer. */
class BitReader {
  private position = 0;
  constructor(private readonly data: Uint8Array) {}
  u(bits: number): number {
    let value = 0;
    for (let i = 0; i < bits; i++) {
      const byte = this.data[this.position >> 3]!;
      value = value * 2 + ((byte >> (7 - (this.position & 7))) & 1);
      this.position++;
    }
    return value;
  }
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) zeros++;
    return 2 ** zeros - 1 + this.u(zeros);
  }
  se(): number {
    const code = this.ue();
    return code % 2 === 1 ? (code + 1) / 2 : code === 0 ? 0 : -code / 2;
  }
}

function ffmpegYuv(stream: Uint8Array): Buffer {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'amc-h264-')), 'stream.h264');
  writeFileSync(file, stream);
  // -xerror: any decoding error fails the run instead of being concealed.
  return execFileSync('ffmpeg', ['-v', 'error', '-xerror', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-'], { maxBuffer: 256 * 1024 * 1024 });
}

describe('H.264 screen encoder (I_PCM, CAVLC, Baseline)', () => {
  it('Scenario: ffmpeg decodes key and delta frames to exactly the encoded samples', () => {
    // Sizes that are not whole macroblocks exercise the cropping.
    const width = 362;
    const height = 802;
    const encoder = new H264ScreenEncoder({ width, height, framesPerSecond: 60 });
    // Key frame, a delta with a moved bar, an unchanged delta, another moved bar, then a key frame again.
    const frames = [0, 1, 1, 2, 3].map((frame) => pattern(width, height, frame));
    const packets = [
      encoder.encodeKeyFrame(frames[0]!),
      encoder.encodeDeltaFrame(frames[1]!),
      encoder.encodeDeltaFrame(),
      encoder.encodeDeltaFrame(frames[3]!),
      encoder.encodeKeyFrame(frames[4]!),
    ];
    // Only the changed macroblocks travel: the bar's columns, not the whole picture.
    expect(packets[1]!.length).toBeLessThan(packets[0]!.length / 5);
    expect(packets[2]!.length).toBeLessThan(16);
    const stream = Buffer.concat([encoder.parameterSets(), ...packets]);
    const decoded = ffmpegYuv(stream);
    const frameBytes = width * height * 1.5;
    expect(decoded.length).toBe(frames.length * frameBytes);
    frames.forEach((rgba, index) => {
      const expected = rgbaToI420(rgba, width, height);
      const got = decoded.subarray(index * frameBytes, (index + 1) * frameBytes);
      const stride = expected.widthInMbs * 16;
      for (let y = 0; y < height; y++) {
        expect(Buffer.from(got.subarray(y * width, (y + 1) * width)).equals(Buffer.from(expected.y.subarray(y * stride, y * stride + width)))).toBe(true);
      }
      const chromaOffset = width * height;
      expect(got[chromaOffset]).toBe(expected.u[0]);
      expect(got[chromaOffset + (width / 2) * (height / 2)]).toBe(expected.v[0]);
      expect(got[chromaOffset + 20 * index]).toBe(expected.u[20 * index]);
    });
    const probe = execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', '-i', 'pipe:0'], { input: stream }).toString();
    expect(JSON.parse(probe).streams[0]).toMatchObject({ codec_name: 'h264', profile: 'Constrained Baseline', width, height, level: 31, color_space: 'smpte170m', color_range: 'tv' });
  });

  it('Scenario: The SPS, PPS and slice header carry Baseline, the level, the cropped size and I_PCM macroblocks', () => {
    const encoder = new H264ScreenEncoder({ width: 360, height: 802, framesPerSecond: 60 });
    const [sps, pps] = nalUnits(encoder.parameterSets());
    expect(sps![0]).toBe(0x67);
    expect(pps![0]).toBe(0x68);
    const bits = new BitReader(sps!.subarray(1));
    expect([bits.u(8), bits.u(8), bits.u(8)]).toEqual([66, 0xe0, encoder.level]);
    expect(encoder.codecString).toBe(`avc1.42E0${encoder.level.toString(16).toUpperCase()}`);
    expect([bits.ue(), bits.ue(), bits.ue(), bits.ue(), bits.u(1)]).toEqual([0, 0, 2, 1, 0]);
    const widthInMbs = bits.ue() + 1;
    const heightInMbs = bits.ue() + 1;
    expect([widthInMbs, heightInMbs]).toEqual([23, 51]);
    expect([bits.u(1), bits.u(1), bits.u(1)]).toEqual([1, 1, 1]); // frame_mbs_only, direct_8x8, cropping
    const crop = [bits.ue(), bits.ue(), bits.ue(), bits.ue()];
    expect(crop).toEqual([0, (23 * 16 - 360) / 2, 0, (51 * 16 - 802) / 2]);

    const [slice] = nalUnits(encoder.encodeKeyFrame(pattern(360, 802, 0)));
    expect(slice![0]).toBe(0x65); // nal_ref_idc 3, IDR
    const header = new BitReader(slice!.subarray(1));
    expect([header.ue(), header.ue(), header.ue(), header.u(4), header.ue()]).toEqual([0, 7, 0, 0, 0]);
    expect([header.u(1), header.u(1), header.se(), header.ue()]).toEqual([0, 0, 0, 1]);
    expect(header.ue()).toBe(25); // mb_type I_PCM
    // Consecutive IDR pictures differ in idr_pic_id.
    const [next] = nalUnits(encoder.encodeKeyFrame(pattern(360, 802, 1)));
    const nextHeader = new BitReader(next!.subarray(1));
    expect([nextHeader.ue(), nextHeader.ue(), nextHeader.ue(), nextHeader.u(4), nextHeader.ue()]).toEqual([0, 7, 0, 0, 1]);
    // An unchanged delta frame: a P slice, frame_num counting up, every macroblock skipped.
    for (const frameNum of [1, 2]) {
      const [delta] = nalUnits(encoder.encodeDeltaFrame());
      expect(delta![0]).toBe(0x41); // nal_ref_idc 2, non-IDR slice
      const bits = new BitReader(delta!.subarray(1));
      expect([bits.ue(), bits.ue(), bits.ue(), bits.u(4)]).toEqual([0, 5, 0, frameNum]);
      expect([bits.u(1), bits.u(1), bits.u(1), bits.se(), bits.ue()]).toEqual([0, 0, 0, 0, 1]);
      expect(bits.ue()).toBe(23 * 51); // mb_skip_run over the whole picture
    }
  });

  it('Scenario: Emulation prevention breaks up start-code-like byte runs', () => {
    const nal = annexBNalUnit(3, 5, Uint8Array.from([0, 0, 1, 0, 0, 0, 0, 0, 3, 0x80]));
    expect([...nal]).toEqual([0, 0, 0, 1, 0x65, 0, 0, 3, 1, 0, 0, 3, 0, 0, 3, 0, 3, 0x80]);
  });

  it('Scenario: The level follows the picture size and frame rate', () => {
    expect(levelFor(11, 9, 30)).toBe(11);
    expect(levelFor(23, 50, 60)).toBe(31);
    expect(levelFor(68, 150, 60)).toBe(51);
    expect(() => levelFor(1000, 1000, 60)).toThrow(/exceeds every H.264 level/);
    expect(() => new H264ScreenEncoder({ width: 361, height: 800, framesPerSecond: 60 })).toThrow(/even/);
    expect(() => new H264ScreenEncoder({ width: 360, height: 800, framesPerSecond: 60 }).encodeDeltaFrame()).toThrow(/key frame before/);
  });
});
