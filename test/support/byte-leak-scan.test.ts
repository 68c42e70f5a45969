// The D5 scan must itself catch bytes in every disguise, or a green leak test proves nothing.
import { describe, expect, it } from 'vitest';
import { findBytesInJson, findBytesInText, findBytesInValue, LONG_BASE64_RUN, LONG_NUMBER_RUN } from './byte-leak-scan';

const png = new Uint8Array(Array.from({ length: 64 }, (_, i) => (i * 37 + 137) % 256));
const clean = { type: 'step.observed', step: 1, scene: { elements: [{ id: 'e1', bounds: [0, 100, 1080, 190] }] }, screenshot: { mediaType: 'image/png', width: 540, height: 1200, bytes: 64 } };

describe('byte leak scan', () => {
  it('passes ordinary events: bounds, counts, ids and a screenshot described by its size', () => {
    expect(findBytesInValue(clean, 'event')).toEqual([]);
    expect(findBytesInJson(JSON.stringify(clean), 'line', { knownBytes: [png] })).toEqual([]);
    expect(findBytesInText('<p>task 0f9c1e2a-5b7d-4c3e-9a1b-2c3d4e5f6a7b, 12 steps</p>', 'report')).toEqual([]);
  });

  it('finds bytes planted in a structured payload, whatever their shape', () => {
    const plants: Record<string, unknown> = {
      buffer: Buffer.from(png),
      uint8: png,
      arrayBuffer: png.buffer,
      numbers: Array.from(png),
      bufferJson: JSON.parse(JSON.stringify(Buffer.from(png.subarray(0, 8)))),
      indexed: JSON.parse(JSON.stringify(png.subarray(0, 8))),
      base64: Buffer.from(png).toString('base64').repeat(3),
      dataUrl: `data:image/png;base64,${Buffer.from(png).toString('base64')}`,
    };
    for (const [name, plant] of Object.entries(plants)) {
      const findings = findBytesInValue({ ...clean, raw: plant }, 'event', { knownBytes: [png] });
      expect(findings, name).not.toEqual([]);
      expect(findings[0], name).toMatch(/^event\.raw/);
    }
  });

  it('finds bytes in JSON and text outputs (history lines, --json lines, reports, WebSocket messages)', () => {
    const asJson = (raw: unknown) => JSON.stringify({ ...clean, raw });
    expect(findBytesInJson(asJson(Buffer.from(png)), 'line')).not.toEqual([]);
    expect(findBytesInJson(asJson(png), 'line')).not.toEqual([]);
    expect(findBytesInJson(asJson(Array.from(png)), 'line')).not.toEqual([]);
    expect(findBytesInText(`<td>${Buffer.from(png).toString('base64')}</td>`, 'report', { knownBytes: [png] })).not.toEqual([]);
    expect(findBytesInText(`<td>${'QUJD'.repeat(LONG_BASE64_RUN / 4)}</td>`, 'report')).not.toEqual([]);
    expect(findBytesInText(Array.from({ length: LONG_NUMBER_RUN }, (_, i) => i).join(', '), 'report')).not.toEqual([]);
    expect(findBytesInText(Array.from({ length: LONG_NUMBER_RUN - 1 }, (_, i) => i).join(', '), 'report')).toEqual([]);
  });
});
