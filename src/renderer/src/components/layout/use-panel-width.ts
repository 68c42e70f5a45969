import { useState } from 'react';
import { z } from 'zod';
import { readStored, writeStored } from '../../lib/local-store';

const WIDTH_KEY = 'amc.devicePanelWidth';
export const PANEL_WIDTH = { min: 300, default: 400, max: 1100 } as const;

/** Until the person sets a width: a little more room for the phone on large screens. */
export const defaultPanelWidth = (): number => (window.innerWidth >= 1800 ? 480 : PANEL_WIDTH.default);

/** Keeps the timeline at least this wide, whatever the window. */
const TIMELINE_MIN_PX = 420;

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
