import { shellLine } from './shell-line';

/** `screencap`: the screen as raw pixels (header, then RGBA) or as a PNG encoded on the phone; perception/screenshot.ts reads both. */
export const screencap = {
  raw: () => shellLine(['screencap']),
  png: () => shellLine(['screencap', '-p']),
};
