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

/**
 * RGBA to limited-range BT.601 YCbCr (what the SPS signals), chroma averaged over each 2x2 block. Limited range
 * never yields a zero sample, so PCM data needs no emulation prevention.
 */
export function rgbaToI420(rgba: Uint8Array, width: number, height: number): I420Picture {
  if (width % 2 !== 0 || height % 2 !== 0) throw new Error(`the picture size must be even, got ${width}x${height}`);
  if (rgba.length < width * height * 4) throw new Error(`expected ${width * height * 4} bytes of RGBA, got ${rgba.length}`);
  const widthInMbs = Math.ceil(width / MB_SIZE);
  const heightInMbs = Math.ceil(height / MB_SIZE);
  const lumaStride = widthInMbs * MB_SIZE;
  const lumaRows = heightInMbs * MB_SIZE;
  const chromaStride = lumaStride / 2;
  const y = new Uint8Array(lumaStride * lumaRows);
  const u = new Uint8Array(chromaStride * (lumaRows / 2));
  const v = new Uint8Array(chromaStride * (lumaRows / 2));
  for (let row = 0; row < height; row += 2) {
    for (let column = 0; column < width; column += 2) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let dy = 0; dy < 2; dy++) {
        for (let dx = 0; dx < 2; dx++) {
          const source = ((row + dy) * width + column + dx) * 4;
          const red = rgba[source]!;
          const green = rgba[source + 1]!;
          const blue = rgba[source + 2]!;
          y[(row + dy) * lumaStride + column + dx] = ((66 * red + 129 * green + 25 * blue + 128) >> 8) + 16;
          r += red;
          g += green;
          b += blue;
        }
      }
      // Sums of four samples: the averaging's division by 4 folds into the shift.
      const chroma = (row / 2) * chromaStride + column / 2;
      u[chroma] = ((-38 * r - 74 * g + 112 * b + 512) >> 10) + 128;
      v[chroma] = ((112 * r - 94 * g - 18 * b + 512) >> 10) + 128;
    }
  }
  padPlane(y, lumaStride, lumaRows, width, height);
  padPlane(u, chromaStride, lumaRows / 2, width / 2, height / 2);
  padPlane(v, chromaStride, lumaRows / 2, width / 2, height / 2);
  return { width, height, widthInMbs, heightInMbs, y, u, v };
}

/** Repeats the last visible column and row into the padding (the decoder crops it away). */
function padPlane(plane: Uint8Array, stride: number, rows: number, width: number, height: number): void {
  for (let row = 0; row < height; row++) {
    const last = plane[row * stride + width - 1]!;
    plane.fill(last, row * stride + width, (row + 1) * stride);
  }
  const lastRow = plane.subarray((height - 1) * stride, height * stride);
  for (let row = height; row < rows; row++) plane.set(lastRow, row * stride);
}
