import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { VirtualPhone } from '../../../src/virtual-device/phone/phone';
import { SCREEN_HEIGHT, SCREEN_WIDTH } from '../../../src/virtual-device/phone/properties';
import type { PhoneUi } from '../../../src/virtual-device/phone/ui/phone-ui';
import { drawWindows, renderPng, renderRgba, type Drawing } from '../../../src/virtual-device/phone/ui/render';
import { textMarkup } from '../../../src/virtual-device/phone/ui/text-tiles';

const signal = new AbortController().signal;

/** The whole drawing as one SVG, text in place: what librsvg alone would paint. */
function oneSvg(drawing: Drawing): Buffer {
  const body = drawing.layers.map((layer) => layer.shapes.join('') + layer.texts.map((placed) => textMarkup(placed.run, placed.x, placed.y)).join('')).join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SCREEN_WIDTH}" height="${SCREEN_HEIGHT}" viewBox="0 0 ${SCREEN_WIDTH} ${SCREEN_HEIGHT}"><defs>${drawing.defs}</defs>${body}</svg>`,
  );
}

function currentDrawing(phone: VirtualPhone): Drawing {
  const ui = (phone as unknown as { ui: PhoneUi }).ui;
  return drawWindows(ui.snapshot().windows);
}

/** Share of bytes that differ by more than a rounding step (glyph edges blend a little differently). */
function differingShare(a: Buffer, b: Buffer): number {
  let differing = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs((a[i] as number) - (b[i] as number)) > 3) differing++;
  return differing / a.length;
}

describe('screen rendering from cached text runs', () => {
  it('Scenario: Composed text matches a single rasterisation, under dialogs and inside scroll clips', async () => {
    const phone = new VirtualPhone();
    // The contacts list opens under the permission dialog: a modal layer over text, and a clipped scroll list.
    await phone.shell('monkey -p com.android.contacts -c android.intent.category.LAUNCHER 1', { signal });
    const drawing = currentDrawing(phone);
    expect(drawing.layers.length).toBeGreaterThan(1);
    const composed = await renderRgba(drawing);
    const reference = await sharp(oneSvg(drawing)).ensureAlpha().raw().toBuffer();
    expect(composed.length).toBe(reference.length);
    expect(differingShare(composed, reference)).toBeLessThan(0.005);
  });

  it('Scenario: A screen drawn again from cached runs gives the same valid PNG', async () => {
    const phone = new VirtualPhone();
    await phone.shell('monkey -p com.android.settings -c android.intent.category.LAUNCHER 1', { signal });
    const drawing = currentDrawing(phone);
    const first = await renderPng(drawing);
    const again = await renderPng(currentDrawing(phone));
    const meta = await sharp(again).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', SCREEN_WIDTH, SCREEN_HEIGHT]);
    expect(again.equals(first)).toBe(true);
    const reference = await sharp(oneSvg(drawing)).ensureAlpha().raw().toBuffer();
    expect(differingShare(await sharp(again).ensureAlpha().raw().toBuffer(), reference)).toBeLessThan(0.005);
  });
});
