// Testing Library's waits (findBy…, waitFor) give up after 1 s by default, which a test file sharing the cores
// with others can need for a render that is merely slow; waiting longer asserts the same and only fails later.
import { beforeAll } from 'vitest';

beforeAll(async () => {
  // Only files in a DOM environment use Testing Library; the others skip loading it.
  if (typeof document === 'undefined') return;
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 10_000 });
});
