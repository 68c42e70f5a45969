/**
 * The display's rotation in quarter turns (Surface.ROTATION_0..270), as `settings put system user_rotation N` sets
 * it while auto-rotate is off. The demo phone lays its apps out in portrait only: a rotated display shows the
 * portrait picture turned (ROTATION_90 a quarter turn counter-clockwise), and a point on the turned picture maps
 * back onto the portrait layout.
 */
export type DisplayRotation = 0 | 1 | 2 | 3;

/** The rotation the display settings ask for: `user_rotation` while `accelerometer_rotation` is off (no sensor here). */
export function displayRotation(settings: ReadonlyMap<string, string>): DisplayRotation {
  if (settings.get('system/accelerometer_rotation') === '1') return 0;
  const asked = Number(settings.get('system/user_rotation') ?? 0);
  return asked === 1 || asked === 2 || asked === 3 ? asked : 0;
}

/** The display's size once turned. */
export function rotatedSize(width: number, height: number, rotation: DisplayRotation): { width: number; height: number } {
  return rotation % 2 === 1 ? { width: height, height: width } : { width, height };
}

/** The clockwise angle that turns the portrait picture into the rotated display's (sharp's `rotate`). */
export function pictureAngle(rotation: DisplayRotation): number {
  return [0, 270, 180, 90][rotation]!;
}

/** A point on the rotated display, in its pixels, back on the portrait layout (`width` x `height`). */
export function toNatural(x: number, y: number, rotation: DisplayRotation, width: number, height: number): { x: number; y: number } {
  switch (rotation) {
    case 1:
      return { x: width - 1 - y, y: x };
    case 2:
      return { x: width - 1 - x, y: height - 1 - y };
    case 3:
      return { x: y, y: height - 1 - x };
    default:
      return { x, y };
  }
}
