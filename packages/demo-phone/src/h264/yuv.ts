/** 8-bit 4:2:0 planes covering whole macroblocks (the picture's right and bottom edges repeated into the padding). */
export interface I420Picture {
  /** The visible size (even numbers). */
  width: number;
  height: number;
  /** Macroblocks across and down. */
  widthInMbs: number;
  heightInMbs: number;
  /** widthInMbs*16 by heightInMbs*16. */
  y: Uint8Array;
  /** widthInMbs*8 by heightInMbs*8 each. */
  u: Uint8Array;
  v: Uint8Array;
}

export const MB_SIZE = 16;

/** Empty planes for a `width` x `height` picture, padded to whole macroblocks. */
export function blankI420(width: number, height: number): I420Picture {
  if (width % 2 !== 0 || height % 2 !== 0) throw new Error(`the picture size must be even, got ${width}x${height}`);
  const widthInMbs = Math.ceil(width / MB_SIZE);
  const heightInMbs = Math.ceil(height / MB_SIZE);
  const lumaSize = widthInMbs * MB_SIZE * heightInMbs * MB_SIZE;
  return { width, height, widthInMbs, heightInMbs, y: new Uint8Array(lumaSize), u: new Uint8Array(lumaSize / 4), v: new Uint8Array(lumaSize / 4) };
}

/**
 * RGBA to limited-range BT.601 YCbCr (what the SPS signals), chroma averaged over each 2x2 block. Limited range
 * never yields a zero sample, so PCM data needs no emulation prevention.
 */
export function rgbaToI420(rgba: Uint8Array, width: number, height: number): I420Picture {
  const picture = blankI420(width, height);
  for (let mbY = 0; mbY < picture.heightInMbs; mbY++) convertMacroblockRow(rgba, picture, mbY);
  return picture;
}

/**
 * Converts the 16 pixel rows of macroblock row `mbY` of `rgba` into `picture`'s planes, padding included: a
 * delta frame converts only the rows whose pixels changed.
 */
export function convertMacroblockRow(rgba: Uint8Array, picture: I420Picture, mbY: number): void {
  const { width, height, y, u, v } = picture;
  if (rgba.length < width * height * 4) throw new Error(`expected ${width * height * 4} bytes of RGBA, got ${rgba.length}`);
  const lumaStride = picture.widthInMbs * MB_SIZE;
  const chromaStride = lumaStride / 2;
  const luma = (source: number): number => ((66 * rgba[source]! + 129 * rgba[source + 1]! + 25 * rgba[source + 2]! + 128) >> 8) + 16;
  const firstRow = mbY * MB_SIZE;
  const endRow = Math.min(height, firstRow + MB_SIZE);
  for (let row = firstRow; row < endRow; row += 2) {
    let top = row * width * 4;
    let bottom = top + width * 4;
    let lumaTop = row * lumaStride;
    let chroma = (row / 2) * chromaStride;
    for (let column = 0; column < width; column += 2, top += 8, bottom += 8, lumaTop += 2, chroma++) {
      y[lumaTop] = luma(top);
      y[lumaTop + 1] = luma(top + 4);
      y[lumaTop + lumaStride] = luma(bottom);
      y[lumaTop + lumaStride + 1] = luma(bottom + 4);
      const r = rgba[top]! + rgba[top + 4]! + rgba[bottom]! + rgba[bottom + 4]!;
      const g = rgba[top + 1]! + rgba[top + 5]! + rgba[bottom + 1]! + rgba[bottom + 5]!;
      const b = rgba[top + 2]! + rgba[top + 6]! + rgba[bottom + 2]! + rgba[bottom + 6]!;
      // Sums of four samples: the averaging's division by 4 folds into the shift.
      u[chroma] = ((-38 * r - 74 * g + 112 * b + 512) >> 10) + 128;
      v[chroma] = ((112 * r - 94 * g - 18 * b + 512) >> 10) + 128;
    }
  }
  padRows(y, lumaStride, firstRow, endRow, width, height, firstRow + MB_SIZE);
  padRows(u, chromaStride, firstRow / 2, endRow / 2, width / 2, height / 2, (firstRow + MB_SIZE) / 2);
  padRows(v, chromaStride, firstRow / 2, endRow / 2, width / 2, height / 2, (firstRow + MB_SIZE) / 2);
}

/**
 * Repeats the last visible column of rows [from, to) into the padding, and below the picture (up to `padEnd`)
 * the last visible row: the decoder crops it away.
 */
function padRows(plane: Uint8Array, stride: number, from: number, to: number, width: number, height: number, padEnd: number): void {
  for (let row = from; row < to; row++) {
    const last = plane[row * stride + width - 1]!;
    plane.fill(last, row * stride + width, (row + 1) * stride);
  }
  if (to < height) return;
  const lastRow = plane.subarray((height - 1) * stride, height * stride);
  for (let row = Math.max(height, from); row < padEnd; row++) plane.set(lastRow, row * stride);
}
