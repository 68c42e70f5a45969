// The closing "Tests: N passed, N failed" line of `npm test` stays honest when suites cannot even start.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

describe('summary reporter', () => {
  it('Scenario: A suite that failed to load or set up is counted as failed, not skipped', () => {
    // Fixtures: one passing file (plus a deliberate skip), one that throws on import, one whose beforeAll
    // fails under two tests, one whose afterAll fails after a passing test.
    const run = spawnSync(process.execPath, [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'test/fixtures/summary-reporter/vitest.config.ts'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout.trim().split('\n').at(-1)).toBe('Tests: 2 passed, 4 failed, 1 skipped');
  });
});
