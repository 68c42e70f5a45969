import type { DeviceScreen } from '../../../../shared/device';

export interface Size {
  width: number;
  height: number;
}

/**
 * The phone's screen in device pixels, as currently rotated. The frame may be downscaled, so it only tells the
 * orientation; the pixels come from main's measure, else from `wm size` (natural, portrait).
 */
export function deviceSize(frame: Size & { deviceWidth?: number; deviceHeight?: number }, screen: DeviceScreen | undefined): Size {
  const known = frame.deviceWidth && frame.deviceHeight ? { width: frame.deviceWidth, height: frame.deviceHeight } : screen;
  if (!known) return { width: frame.width, height: frame.height };
  const long = Math.max(known.width, known.height);
  const short = Math.min(known.width, known.height);
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
