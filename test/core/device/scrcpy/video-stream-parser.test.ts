import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { avcCodecString } from '../../../../src/core/device/scrcpy/h264';
import { VideoStreamError, VideoStreamParser, type VideoStreamEvent } from '../../../../src/core/device/scrcpy/video-stream-parser';

const captured = new Uint8Array(readFileSync(new URL('../../../fixtures/scrcpy/video-socket-h264-64x128.bin', import.meta.url)));

const parseInReads = (bytes: Uint8Array, cuts: number[]): VideoStreamEvent[] => {
  const parser = new VideoStreamParser({ dummyByte: true });
  const events: VideoStreamEvent[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    events.push(...parser.push(bytes.subarray(from, cut)));
    from = cut;
  }
  return events;
};

/** Events with their bytes as hex, so runs of different read sizes compare equal. */
const comparable = (events: VideoStreamEvent[]) =>
  events.map((event) => (event.kind === 'packet' ? { ...event, data: Buffer.from(event.data).toString('hex') } : event));

describe('scrcpy video stream parser', () => {
  const whole = parseInReads(captured, []);

  it('reads the device name, the codec meta and every packet of a captured video socket', () => {
    expect(whole.slice(0, 2)).toEqual([
      { kind: 'device', name: 'Demo Phone' },
      { kind: 'codec', codec: 'h264', width: 64, height: 128 },
    ]);
    const packets = whole.filter((event) => event.kind === 'packet');
    expect(packets.map(({ config, keyFrame, pts }) => ({ config, keyFrame, pts }))).toEqual([
      { config: true, keyFrame: false, pts: null },
      { config: false, keyFrame: true, pts: 0n },
      { config: false, keyFrame: true, pts: 100_000n },
      { config: false, keyFrame: true, pts: 200_000n },
    ]);
    expect(avcCodecString(packets[0]!.data)).toBe('avc1.42C00A');
    // Every payload is Annex B: it starts with a start code.
    for (const packet of packets) expect(Buffer.from(packet.data.subarray(0, 4)).toString('hex')).toMatch(/^000001|^00000001/);
  });

  it('gives the same events when every TCP read is one byte (split reads)', () => {
    const cuts = Array.from({ length: captured.length - 1 }, (_, index) => index + 1);
    expect(comparable(parseInReads(captured, cuts))).toEqual(comparable(whole));
  });

  it('gives the same events for reads split at every header boundary and at random places', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 20; run += 1) {
      const cuts = [...new Set(Array.from({ length: 12 }, () => 1 + Math.floor(random() * (captured.length - 1))))].sort((a, b) => a - b);
      expect(comparable(parseInReads(captured, cuts))).toEqual(comparable(whole));
    }
    expect(comparable(parseInReads(captured, [1, 65, 77, 89]))).toEqual(comparable(whole));
  });

  it('gives the same events when several packets arrive in one read (merged reads)', () => {
    const parser = new VideoStreamParser({ dummyByte: true });
    const header = parser.push(captured.subarray(0, 77));
    expect(header).toHaveLength(2);
    const doubled = new Uint8Array((captured.length - 77) * 2);
    doubled.set(captured.subarray(77));
    doubled.set(captured.subarray(77), captured.length - 77);
    const packets = parser.push(doubled);
    expect(packets).toHaveLength(8);
    expect(comparable(packets.slice(4))).toEqual(comparable(whole.slice(2)));
  });

  it('waits for the rest of a packet without emitting a partial one', () => {
    const parser = new VideoStreamParser({ dummyByte: true });
    expect(parser.push(captured.subarray(0, 100))).toHaveLength(2);
    expect(parser.push(captured.subarray(100, 110))).toEqual([]);
  });

  it('reads a socket without the dummy byte (the second socket of a tunnel has none)', () => {
    const events = new VideoStreamParser({ dummyByte: false }).push(captured.subarray(1));
    expect(comparable(events)).toEqual(comparable(whole));
  });

  it('refuses a stream whose encoder failed, an unknown codec and an impossible packet size', () => {
    const meta = (id: number) => {
      const bytes = new Uint8Array(1 + 64 + 12);
      new DataView(bytes.buffer).setUint32(65, id);
      return bytes;
    };
    expect(() => new VideoStreamParser().push(meta(1))).toThrow(/could not start its video encoder/);
    expect(() => new VideoStreamParser().push(meta(0))).toThrow(VideoStreamError);
    expect(() => new VideoStreamParser().push(meta(0x12345678))).toThrow(/unknown codec id 0x12345678/);
    const huge = new Uint8Array(77 + 12);
    huge.set(captured.subarray(0, 77));
    new DataView(huge.buffer).setUint32(77 + 8, 0xffffffff);
    expect(() => new VideoStreamParser().push(huge)).toThrow(/not a frame/);
  });
});
