import type { DeviceScreen } from '../../../../shared/device';

export interface Size {
  width: number;
  height: number;
}

/**
 * The phone's screen in device pixels, as currently rotated: the frame may be downscaled, so its size only tells
 * the orientation; `wm size` (natural, portrait) gives the pixels.
 */
export function deviceSize(frame: Size, screen: DeviceScreen | undefined): Size {
  if (!screen) return frame;
  const long = Math.max(screen.width, screen.height);
  const short = Math.min(screen.width, screen.height);
  return frame.width > frame.height ? { width: long, height: short } : { width: short, height: long };
}

/** A point on the drawn canvas (CSS pixels inside its box) as device pixels. */
export function toDevicePoint(point: { x: number; y: number }, box: Size, device: Size): { x: number; y: number } {
  const clamp = (value: number, max: number) => Math.min(Math.max(Math.round(value), 0), max - 1);
  return {
    x: clamp((point.x / box.width) * device.width, device.width),
    y: clamp((point.y / box.height) * device.height, device.height),
  };
}
