import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { VirtualPhone } from '../../../packages/demo-phone/src/phone/phone';
import { SCREEN_HEIGHT, SCREEN_WIDTH } from '../../../packages/demo-phone/src/phone/properties';
import type { PhoneUi } from '../../../packages/demo-phone/src/phone/ui/phone-ui';
import type { Rect } from '../../../packages/demo-phone/src/phone/ui/view';
import { drawWindows, renderPng, renderRgba, type Drawing } from '../../../packages/demo-phone/src/phone/ui/render';
import { textMarkup } from '../../../packages/demo-phone/src/phone/ui/text-tiles';

const signal = new AbortController().signal;

/** A step's markup inside a viewport that clips it as its scroll container does. */
function clipped(markup: string, clip: Rect): string {
  const width = clip.right - clip.left;
  const height = clip.bottom - clip.top;
  return `<svg x="${clip.left}" y="${clip.top}" width="${width}" height="${height}" viewBox="${clip.left} ${clip.top} ${width} ${height}">${markup}</svg>`;
}

/** The whole drawing as one SVG, every shape and text in place: what librsvg alone would paint. */
function oneSvg(drawing: Drawing): Buffer {
  const body = drawing.ops.map((op) => {
    if (op.kind === 'fill') return op.markup;
    if (op.kind === 'sprite') return clipped(op.markup, op.clip);
    return clipped(textMarkup(op.run, op.x, op.y), op.clip);
  });
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SCREEN_WIDTH}" height="${SCREEN_HEIGHT}" viewBox="0 0 ${SCREEN_WIDTH} ${SCREEN_HEIGHT}">${body.join('')}</svg>`,
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

describe('screen rendering from cached tiles', () => {
  it('Scenario: Composed text matches a single rasterisation, under dialogs and inside scroll clips', async () => {
    // The contacts list opens under the permission dialog: shapes painted over text.
    const underDialog = new VirtualPhone();
    await underDialog.shell('monkey -p com.android.contacts -c android.intent.category.LAUNCHER 1', { signal });
    // A long list scrolled by part of a row: rows cut by the list's clip at both ends.
    const contacts = Array.from({ length: 30 }, (_, index) => ({ name: `Person ${index + 1}`, phone: `+1555010${String(index).padStart(2, '0')}` }));
    const scrolled = new VirtualPhone({ seed: { contacts, contactsPermission: 'granted', foreground: 'com.android.contacts' } });
    await scrolled.shell('input swipe 540 1800 540 1500 300', { signal });

    const dialogDrawing = currentDrawing(underDialog);
    const textIndex = dialogDrawing.ops.findIndex((op) => op.kind === 'text');
    expect(dialogDrawing.ops.slice(textIndex).some((op) => op.kind !== 'text')).toBe(true);
    const listDrawing = currentDrawing(scrolled);
    const cut = listDrawing.ops.filter((op) => {
      if (op.kind !== 'text') return false;
      const top = op.y - op.source.originY;
      return (top < op.clip.top && op.clip.top > 0) || (top + op.source.height > op.clip.bottom && op.clip.bottom < SCREEN_HEIGHT);
    });
    expect(cut.length).toBeGreaterThan(0);

    for (const drawing of [dialogDrawing, listDrawing]) {
      const composed = await renderRgba(drawing);
      const reference = await sharp(oneSvg(drawing)).ensureAlpha().raw().toBuffer();
      expect(composed.length).toBe(reference.length);
      expect(differingShare(composed, reference)).toBeLessThan(0.005);
    }
  });

  it('Scenario: A screen drawn again from cached runs gives the same valid PNG', async () => {
    const phone = new VirtualPhone();
    await phone.shell('monkey -p com.android.settings -c android.intent.category.LAUNCHER 1', { signal });
    const drawing = currentDrawing(phone);
    const first = await renderPng(drawing);
    // Another screen in between, and two at once: the pooled buffers they are composed in never mix.
    const home = new VirtualPhone();
    const other = await renderPng(currentDrawing(home));
    const [again, otherAgain] = await Promise.all([renderPng(currentDrawing(phone)), renderPng(currentDrawing(home))]);
    const meta = await sharp(again).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', SCREEN_WIDTH, SCREEN_HEIGHT]);
    expect(again.equals(first)).toBe(true);
    expect(otherAgain.equals(other)).toBe(true);
    expect(other.equals(first)).toBe(false);
    // The same pixels as the raw capture's own buffer.
    expect((await sharp(again).ensureAlpha().raw().toBuffer()).equals(await renderRgba(drawing))).toBe(true);
    const reference = await sharp(oneSvg(drawing)).ensureAlpha().raw().toBuffer();
    expect(differingShare(await sharp(again).ensureAlpha().raw().toBuffer(), reference)).toBeLessThan(0.005);
  });

});
