import { existsSync } from 'node:fs';
import path from 'node:path';

/** Browser tests serve the built renderer; `npm test` builds it first (scripts/test.mjs). */
export function requireBuiltRenderer(): string {
  const dir = path.resolve('out/renderer');
  if (!existsSync(path.join(dir, 'index.html'))) {
    throw new Error('out/renderer is missing: run `npm run build` (npm test does this) before the browser tests.');
  }
  return dir;
}
