import { useState } from 'react';
import { z } from 'zod';
import { readStored, writeStored } from '../../lib/local-store';

const WIDTH_KEY = 'amc.devicePanelWidth';
export const PANEL_WIDTH = { min: 300, default: 400, max: 1100 } as const;

/** Keeps the timeline at least this wide, whatever the window. */
const TIMELINE_MIN_PX = 420;
/** The timeline's room below which the default keeps the phone stacked under the list rather than beside it. */
const TIMELINE_COMFORT_PX = 600;
/** Most phones' shape (width / height, as the demo phone's 1080x2400), to size the panel before a phone is shown. */
const PHONE_ASPECT = 9 / 20;
/** The window's height the phone cannot use: the header, paddings and the lines under the mirror. */
const CHROME_HEIGHT_PX = 190;
/** The panel's width beside the phone: the side column (list and controls), the mirror's keys and the paddings. */
const BESIDE_PHONE_PX = 262 + 62 + 32;
/** Below this the panel's container query stacks the phone under the list (its side column needs the room). */
const SIDE_BY_SIDE_MIN_PX = 640;

/**
 * Until the person sets a width: the phone beside the device list, as tall as the window allows, when that leaves the
 * timeline comfortable room; otherwise the classic stacked panel.
 */
export function defaultPanelWidth(): number {
  const phoneWidth = (window.innerHeight - CHROME_HEIGHT_PX) * PHONE_ASPECT;
  const sideBySide = Math.min(PANEL_WIDTH.max, Math.max(SIDE_BY_SIDE_MIN_PX, Math.round(phoneWidth + BESIDE_PHONE_PX)));
  return window.innerWidth - sideBySide >= TIMELINE_COMFORT_PX ? sideBySide : PANEL_WIDTH.default;
}

/** The device panel's width (which sizes the mirror), as the person last set it; clamped to the window. */
export function usePanelWidth(): [number, (width: number) => void] {
  const [width, setWidth] = useState(() => readStored(WIDTH_KEY, z.number().int(), defaultPanelWidth()));
  const clamp = (value: number) =>
    Math.round(Math.min(Math.max(value, PANEL_WIDTH.min), PANEL_WIDTH.max, Math.max(PANEL_WIDTH.min, window.innerWidth - TIMELINE_MIN_PX)));
  const update = (next: number) => {
    const clamped = clamp(next);
    setWidth(clamped);
    writeStored(WIDTH_KEY, clamped);
  };
  return [clamp(width), update];
}
