import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread running one of main's entries (`name`, beside the module at `baseUrl`). From source (tsx, Vitest)
 * it registers tsx (as bin/amc.mjs does) before it imports the TypeScript entry; in the built app it runs the
 * bundle's `name.js`, an entry of its own in electron.vite.config.ts.
 */
export function startModuleWorker(baseUrl: string, name: string): Worker {
  const fromSource = baseUrl.endsWith('.ts');
  const entry = new URL(`./${name}.${fromSource ? 'ts' : 'js'}`, baseUrl);
  if (!fromSource) return new Worker(entry);
  return new Worker(`import(${JSON.stringify(tsxEsmApi())}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`, { eval: true });
}

/** tsx's `tsx/esm/api` as a file URL, by its package's exports map (require.resolve would give the CommonJS one). */
function tsxEsmApi(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('tsx/package.json');
  const { exports } = require(manifest) as { exports: Record<string, { import: { default: string } }> };
  return new URL(exports['./esm/api']!.import.default, pathToFileURL(manifest)).href;
}
