import { useState, useSyncExternalStore } from 'react';
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
/** The window's height the phone cannot use beside the list: the header, the layout's and the panel's paddings. */
const CHROME_HEIGHT_PX = 112;
/** The panel's width beside the phone: the side column (list, hints and controls), the mirror's keys and the paddings. */
const BESIDE_PHONE_PX = 262 + 62 + 32;
/** Below this the panel's container query stacks the phone under the list (its side column needs the room). */
const SIDE_BY_SIDE_MIN_PX = 640;

interface WindowSize {
  width: number;
  height: number;
}

/**
 * Until the person sets a width: the phone beside the device list, as tall as the window allows, when that leaves the
 * timeline comfortable room; otherwise the classic stacked panel.
 */
export function defaultPanelWidth(viewport: WindowSize): number {
  const phoneWidth = (viewport.height - CHROME_HEIGHT_PX) * PHONE_ASPECT;
  const sideBySide = Math.min(PANEL_WIDTH.max, Math.max(SIDE_BY_SIDE_MIN_PX, Math.round(phoneWidth + BESIDE_PHONE_PX)));
  return viewport.width - sideBySide >= TIMELINE_COMFORT_PX ? sideBySide : PANEL_WIDTH.default;
}

const onWindowResize = (changed: () => void) => {
  window.addEventListener('resize', changed);
  return () => window.removeEventListener('resize', changed);
};
/** One string, so React sees the size change only when it does. */
const windowSizeKey = () => `${window.innerWidth}x${window.innerHeight}`;

function useWindowSize(): WindowSize {
  const [width, height] = useSyncExternalStore(onWindowResize, windowSizeKey).split('x').map(Number) as [number, number];
  return { width, height };
}

/**
 * The device panel's width (which sizes the mirror), clamped to the window: the width the person last set, or until
 * they set one (or after `reset`) the default for the window as it is now, so a window made larger gets a larger phone.
 */
export function usePanelWidth(): { width: number; resize(width: number): void; reset(): void } {
  const size = useWindowSize();
  const [chosen, setChosen] = useState(() => readStored(WIDTH_KEY, z.number().int().nullable(), null));
  const clamp = (value: number) =>
    Math.round(Math.min(Math.max(value, PANEL_WIDTH.min), PANEL_WIDTH.max, Math.max(PANEL_WIDTH.min, size.width - TIMELINE_MIN_PX)));
  const remember = (width: number | null) => {
    setChosen(width);
    writeStored(WIDTH_KEY, width);
  };
  return { width: clamp(chosen ?? defaultPanelWidth(size)), resize: (width) => remember(clamp(width)), reset: () => remember(null) };
}
