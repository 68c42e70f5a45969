import type { Reporter, TestCase, TestModule } from 'vitest/node';

/** A test meant to run that never did because a hook or the file around it failed (adb missing, a bad import). */
function blockedByFailure(test: TestCase): boolean {
  if (test.options.mode !== 'run' && test.options.mode !== 'only') return false;
  for (let parent: TestCase['parent'] | undefined = test.parent; parent; parent = parent.type === 'module' ? undefined : parent.parent) {
    if (parent.state() === 'failed') return true;
  }
  return false;
}

/**
 * Ends the run with one plain line, "Tests: N passed, N failed", that any CI log reader understands. A test
 * that could not run because its suite failed to set up counts as failed, never as skipped; a file that
 * failed outside its tests (an import that threw, a failing afterAll) counts as one failure.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      const failedBefore = failed;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed' || blockedByFailure(test)) failed++;
        else skipped++;
      }
      // A file that failed with no failing test (an import that threw, an afterAll that failed) is one failure.
      if (module.state() === 'failed' && failed === failedBefore) failed++;
    }
    console.log(`\nTests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  }
}
