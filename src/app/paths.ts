import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding package.json, found from this file whether it runs from src/ (tsx) or out/ (bundled). */
export function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the project folder (no package.json above the running code).');
    dir = parent;
  }
  return dir;
}

/** Where electron-vite writes the built renderer. */
export const rendererBuildDir = (): string => path.join(projectRoot(), 'out', 'renderer');

/**
 * Where the build puts the pinned phone helpers (scripts/fetch-phone-helpers.mjs), checked by their sums when read.
 * `AMC_PHONE_HELPERS_DIR` names another folder (a packager's), or none when empty (a package shipped without them).
 */
export function shippedHelpersDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const given = env.AMC_PHONE_HELPERS_DIR;
  if (given !== undefined) return given.trim() || null;
  return path.join(projectRoot(), 'resources', 'phone-helpers');
}
