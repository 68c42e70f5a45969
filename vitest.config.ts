import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests share one machine's adb binary and ports: files run in parallel but each owns its ports.
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
