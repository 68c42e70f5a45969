import type { ScreenFacts } from '../../shared/scene';
import type { PlannerScreenshot } from './planner';

/**
 * How a model is asked to give a point on a screen with no usable UI tree, where the screenshot is all it can aim by:
 * - `image-pixels`: pixels of the attached screenshot, from its top-left corner. Claude answers in the pixels of the
 *   image it sees, and Anthropic's API does not rescale ours (long edge at most 1,568 px, under ~1.15 megapixels).
 * - `per-mille`: thousandths of the screenshot's width and height (0-1000). OpenAI's API and OpenAI-compatible
 *   servers (and whatever model a cloud proxy picks) may resize the image before the model sees it, so pixels of our
 *   image are not the model's; a share of the width and height survives any resize.
 */
export type CoordinateConvention = 'image-pixels' | 'per-mille';

export const COORDINATE_CONVENTIONS: Record<'anthropic' | 'openai' | 'cloud-proxy', CoordinateConvention> = {
  anthropic: 'image-pixels',
  openai: 'per-mille',
  'cloud-proxy': 'per-mille',
};

/** The tool arguments that are points, x with its y. */
const POINT_ARGUMENTS = [
  ['x', 'y'],
  ['from_x', 'from_y'],
  ['to_x', 'to_y'],
] as const;

/** What the model is told, for a screenshot of `shot`'s size. */
export function conventionWords(convention: CoordinateConvention, shot: Pick<PlannerScreenshot, 'width' | 'height'>): string {
  return convention === 'image-pixels'
    ? `give x and y (and from_x, from_y, to_x, to_y) as pixels of the attached ${shot.width}x${shot.height} screenshot, counted from its top-left corner`
    : 'give x and y (and from_x, from_y, to_x, to_y) as thousandths of the attached screenshot\'s width and height (0 to 1000, from its top-left corner)';
}

/** The device pixel a model's point names, the screenshot showing the screen as currently rotated (as `screencap` does). */
export function toDevicePoint(
  point: { x: number; y: number },
  convention: CoordinateConvention,
  shot: Pick<PlannerScreenshot, 'width' | 'height'>,
  screen: Pick<ScreenFacts, 'width' | 'height'>,
): { x: number; y: number } {
  // The share of the image's width and height, measured at the centre of the pixel named.
  const share =
    convention === 'image-pixels' ? { x: (point.x + 0.5) / shot.width, y: (point.y + 0.5) / shot.height } : { x: point.x / 1000, y: point.y / 1000 };
  const pixel = (fraction: number, size: number) => Math.min(size - 1, Math.max(0, Math.floor(fraction * size)));
  return { x: pixel(share.x, screen.width), y: pixel(share.y, screen.height) };
}

/** A tool call's arguments with every point turned from the model's convention into device pixels. */
export function argumentsInDevicePixels(
  args: Record<string, unknown>,
  convention: CoordinateConvention,
  shot: Pick<PlannerScreenshot, 'width' | 'height'>,
  screen: Pick<ScreenFacts, 'width' | 'height'>,
): Record<string, unknown> {
  const converted = { ...args };
  for (const [xName, yName] of POINT_ARGUMENTS) {
    const x = args[xName];
    const y = args[yName];
    if (typeof x !== 'number' || typeof y !== 'number') continue;
    const device = toDevicePoint({ x, y }, convention, shot, screen);
    converted[xName] = device.x;
    converted[yName] = device.y;
  }
  return converted;
}
