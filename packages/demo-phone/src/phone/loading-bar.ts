import { SCREEN_HEIGHT } from './properties';

/**
 * A loading bar across the top of the screen that the display redraws on every frame while it runs, as a
 * progress indicator does on a phone: it gives the video mirror a screen that changes 60 times a second (the
 * benchmark starts it through the control API). The bar fills from the left once per period, so its filled
 * width tells the wall-clock time the frame was captured: a reader of the picture (the benchmark, reading the
 * mirror's canvas) knows how old the picture is without trusting anything the frames carry.
 */
export const LOADING_BAR = {
  /** Band in screen pixels, under the status bar. */
  top: 96,
  height: 24,
  /** One fill from empty to full; longer than any latency worth measuring, so the reading is unambiguous. */
  periodMs: 2000,
} as const;

const FILLED = 255;
const TRACK = 0;
const OPAQUE = 255;

/** How far the bar is filled (0..1) at wall-clock `atMs`. */
export function loadingBarFill(atMs: number): number {
  return (atMs % LOADING_BAR.periodMs) / LOADING_BAR.periodMs;
}

/**
 * Draws the bar as it is at `atMs` into an RGBA picture of the screen scaled to `width` x `height`: white fill,
 * black track, full rows (so a scaled, chroma-subsampled picture still reads clearly).
 */
export function drawLoadingBar(rgba: Uint8Array, width: number, height: number, atMs: number): void {
  const top = Math.round((LOADING_BAR.top * height) / SCREEN_HEIGHT);
  const bottom = Math.max(top + 1, Math.round(((LOADING_BAR.top + LOADING_BAR.height) * height) / SCREEN_HEIGHT));
  const filled = Math.round(loadingBarFill(atMs) * width);
  for (let y = top; y < bottom && y < height; y++) {
    const row = y * width * 4;
    rgba.fill(FILLED, row, row + filled * 4);
    rgba.fill(TRACK, row + filled * 4, row + width * 4);
    // The track's alpha too: the band is opaque.
    for (let x = filled; x < width; x++) rgba[row + x * 4 + 3] = OPAQUE;
  }
}
