import type { SwipeDirection } from '../../shared/action';
import type { Bounds } from '../../shared/scene';

export interface Point {
  x: number;
  y: number;
}

/** Share of the region the finger travels: long enough to scroll a page, short of the region's edges. */
const TRAVEL = 0.6;

/**
 * Start and end of a swipe in `direction` (the way the finger moves) inside `region`, centred on it.
 * The whole screen region is narrowed vertically so the gesture starts clear of the status and nav bars.
 */
export function swipeInRegion(direction: SwipeDirection, [left, top, right, bottom]: Bounds): { from: Point; to: Point } {
  const cx = Math.round((left + right) / 2);
  const cy = Math.round((top + bottom) / 2);
  const dx = Math.round(((right - left) * TRAVEL) / 2);
  const dy = Math.round(((bottom - top) * TRAVEL) / 2);
  switch (direction) {
    case 'up':
      return { from: { x: cx, y: cy + dy }, to: { x: cx, y: cy - dy } };
    case 'down':
      return { from: { x: cx, y: cy - dy }, to: { x: cx, y: cy + dy } };
    case 'left':
      return { from: { x: cx + dx, y: cy }, to: { x: cx - dx, y: cy } };
    case 'right':
      return { from: { x: cx - dx, y: cy }, to: { x: cx + dx, y: cy } };
  }
}
