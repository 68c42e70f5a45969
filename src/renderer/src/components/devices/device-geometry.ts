import type { DeviceScreen } from '../../../../shared/device';

export interface Size {
  width: number;
  height: number;
}

/**
 * The phone's screen in device pixels, as currently rotated. The frame may be downscaled: main's measure wins;
 * otherwise the frame tells the orientation and `wm size` (natural, portrait) the pixels.
 */
export function deviceSize(frame: Size & { deviceWidth?: number; deviceHeight?: number }, screen: DeviceScreen | undefined): Size {
  if (frame.deviceWidth && frame.deviceHeight) return { width: frame.deviceWidth, height: frame.deviceHeight };
  if (!screen) return { width: frame.width, height: frame.height };
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
