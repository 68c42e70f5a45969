import os from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * Test files spend most of their time waiting on child processes (adb, `amc`, Chromium), sockets and the fakes'
 * delays rather than computing, so more files run at once than there are cores (Vitest's default is one fewer
 * than the cores: a single file at a time on a 2-core machine).
 */
const parallelFiles = Math.max(2, Math.ceil(os.availableParallelism() * 1.5));

export default defineConfig({
  plugins: [react()],
  test: {
    // The app's tests and each workspace package's own (npm test runs them all).
    include: ['test/**/*.test.{ts,tsx}', 'packages/*/test/**/*.test.ts'],
    environment: 'node',
    // Generous, as files share the cores: a timeout only guards against a hang, it asserts nothing.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // expect.poll retries until its condition holds; 1 s (Vitest's default) is short for a busy machine.
    expect: { poll: { timeout: 10_000 } },
    // Integration tests share one machine's adb binary and ports: files run in parallel but each owns its ports.
    pool: 'forks',
    maxWorkers: parallelFiles,
    setupFiles: ['test/support/dom-wait-timeout.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
