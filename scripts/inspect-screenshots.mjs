// The README's Inspect screenshots (1280x800, English and Chinese): the browser tests of Inspect take them in headless
// Chromium on the demo phone (test/e2e/ui-inspect.test.ts saves them to test-artifacts/), and this copies them to
// docs/screenshots. Build first (npx electron-vite build). Usage: node scripts/inspect-screenshots.mjs
import { copyFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** Each screenshot the tests save, and its name in docs/screenshots. */
const SHOTS = [
  ['ui-inspect-element.png', 'inspect-element-1280x800.png'],
  ['ui-inspect-search.png', 'inspect-search-1280x800.png'],
  ['ui-inspect-history.png', 'inspect-history-1280x800.png'],
  ['ui-zh-CN-inspect-1280x800.png', 'zh-CN-inspect-1280x800.png'],
];

const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'test/e2e/ui-inspect.test.ts'], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
for (const [taken, kept] of SHOTS) {
  copyFileSync(path.join('test-artifacts', taken), path.join('docs/screenshots', kept));
  console.log(`docs/screenshots/${kept}`);
}
