// The README's "Record a flow" screenshots (1280x800, English and Chinese): the browser tests of recording take them in
// headless Chromium on the demo phone (test/e2e/ui-record.test.ts and ui-record-words.test.ts save them to
// test-artifacts/), and this copies them to docs/screenshots. Build first (npx electron-vite build).
// Usage: node scripts/record-screenshots.mjs
import { copyFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** Each screenshot the tests save, and its name in docs/screenshots. */
const SHOTS = [
  ['ui-record-wifi.png', 'record-wifi-1280x800.png'],
  ['ui-zh-CN-record-check.png', 'zh-CN-record-check-1280x800.png'],
];

const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'test/e2e/ui-record.test.ts', 'test/e2e/ui-record-words.test.ts'], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
for (const [taken, kept] of SHOTS) {
  copyFileSync(path.join('test-artifacts', taken), path.join('docs/screenshots', kept));
  console.log(`docs/screenshots/${kept}`);
}
