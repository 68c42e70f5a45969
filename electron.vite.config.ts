import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { contentSecurityPolicy } from './src/shared/contract/web-protocol';

/**
 * Puts the CSP into the built page itself: the Electron window loads it from file://, where no response header can
 * carry one. Only at build time, so the dev server's hot reload keeps working. (frame-ancestors only works as a
 * header, which the web host sends.)
 */
function contentSecurityPolicyMeta(): Plugin {
  const policy = contentSecurityPolicy.split('; ').filter((d) => !d.startsWith('frame-ancestors')).join('; ');
  return {
    name: 'amc-csp-meta',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: policy }, injectTo: 'head-prepend' }],
  };
}

export default defineConfig({
  main: {
    // The history worker and the flow checker are entries of their own: task-loader.ts and flow-checker.ts start
    // out/main/history-worker.js and out/main/flow-check-worker.js in worker threads.
    build: {
      // The workspace packages ship as TypeScript source: bundled into main, not loaded at run time. (The provider
      // SDKs they import stay external, as the root's dependencies, so a direct client still loads its SDK lazily.)
      externalizeDeps: { exclude: ['@amc/demo-phone', '@amc/provider-clients'] },
      rollupOptions: { input: { index: resolve('src/main/index.ts'), 'history-worker': resolve('src/core/storage/history-worker.ts'), 'flow-check-worker': resolve('src/core/flows/flow-check-worker.ts') } },
    },
  },
  preload: {
    // Sandboxed preloads cannot be ES modules nor require packages: bundle everything but electron itself.
    build: {
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    build: { rollupOptions: { input: { index: resolve('src/renderer/index.html') } } },
    plugins: [react(), contentSecurityPolicyMeta()],
  },
});
