import { defineConfig } from 'vitest/config';

/** The provider clients' own tests, run alone with `npm test -w @amc/provider-clients` (the root's `npm test` runs them too). */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // A timeout only guards against a hang on a busy machine; it asserts nothing.
    testTimeout: 60_000,
  },
});
