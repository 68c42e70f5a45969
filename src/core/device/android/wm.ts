import { shellLine } from './shell-line';

/** `wm`, the window manager: the screen's natural size and density, and how their output reads. */
export const wm = {
  size: () => shellLine(['wm', 'size']),
  density: () => shellLine(['wm', 'density']),
};

/** `wm size`: the override size wins over the physical size. */
export function parseWmSize(output: string): { width: number; height: number } | undefined {
  const match = /Override size:\s*(\d+)x(\d+)/.exec(output) ?? /Physical size:\s*(\d+)x(\d+)/.exec(output);
  return match ? { width: Number(match[1]), height: Number(match[2]) } : undefined;
}

/** `wm density`: the override density wins over the physical density. */
export function parseWmDensity(output: string): number | undefined {
  const match = /Override density:\s*(\d+)/.exec(output) ?? /Physical density:\s*(\d+)/.exec(output);
  return match ? Number(match[1]) : undefined;
}
