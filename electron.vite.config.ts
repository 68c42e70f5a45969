import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: { rollupOptions: { input: { index: resolve('src/main/index.ts') } } },
  },
  preload: {
    // Sandboxed preloads cannot be ES modules nor require packages: bundle everything but electron itself.
    build: { externalizeDeps: false, rollupOptions: { input: { index: resolve('src/preload/index.ts') }, external: ['electron'], output: { format: 'cjs', entryFileNames: '[name].cjs' } } },
  },
  renderer: {
    root: resolve('src/renderer'),
    build: { rollupOptions: { input: { index: resolve('src/renderer/index.html') } } },
    plugins: [react()],
  },
});
