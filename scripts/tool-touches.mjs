#!/usr/bin/env node
// How many files adding a tool takes, tried rather than guessed: in a temporary worktree of HEAD it declares a
// sample phone tool the way a new tool is declared (its own file, its line in the registry and in the shared tool
// vocabulary, its verb in English and Chinese), regenerates what is generated from the registry, checks that the
// typecheck and the catalog's walk test pass with it, runs the tests that name every tool, and prints the files
// touched and the tests that then ask for the tool. Not part of `npm test`: run it by hand.
//
//   node scripts/tool-touches.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const SAMPLE_TOOL = `import { z } from 'zod';
import { defineTool } from '../tool';
import { GROUNDING, pointArgs } from './arguments';

export const tripleTap = defineTool({
  name: 'triple_tap',
  schema: z.strictObject(pointArgs),
  title: 'Triple-tap',
  description: \`Tap three times quickly (selects a paragraph). Give element_id, or x and y. \${GROUNDING}\`,
  aim: 'element',
  offeredTo: ['model', 'agent'],
  effects: { target: 'element', verb: 'triple-taps', verifies: 'screen-changed' },
  async run(args, context) {
    const target = await context.aimAt(args, 'triple_tap');
    context.setTarget(target);
    for (let tap = 0; tap < 3; tap++) await context.send(\`input tap \${target.x} \${target.y}\`);
    return target;
  },
});
`;

/** Each edit: the file, the exact text it follows or replaces, and the new text. */
const EDITS = [
  ['src/core/tools/registry.ts', "import { typeText } from './actions/type-text';", "import { typeText } from './actions/type-text';\nimport { tripleTap } from './actions/triple-tap';"],
  ['src/core/tools/registry.ts', 'eraseText, hideKeyboard];', 'eraseText, hideKeyboard, tripleTap];'],
  ['src/shared/tool-vocabulary.ts', "  hide_keyboard: { kind: 'phone', phrase: 'verb' },", "  hide_keyboard: { kind: 'phone', phrase: 'verb' },\n  triple_tap: { kind: 'phone', phrase: 'point' },"],
  ['src/shared/i18n/catalogs/en/common.ts', "      hide_keyboard: { do: 'Hide the keyboard', done: 'Hid the keyboard' },", "      hide_keyboard: { do: 'Hide the keyboard', done: 'Hid the keyboard' },\n      triple_tap: { do: 'Triple-tap', done: 'Triple-tapped' },"],
  ['src/shared/i18n/catalogs/zh-CN/common.ts', "      hide_keyboard: { do: '收起键盘', done: '收起了键盘' },", "      hide_keyboard: { do: '收起键盘', done: '收起了键盘' },\n      triple_tap: { do: '三击', done: '三击了' },"],
];

/** Tests that name every tool one by one (an exercise on the demo phone, the model's order). */
const NAMING_TESTS = ['test/core/tools/registry.test.ts', 'test/core/tools/specs.test.ts', 'test/scripts/flow-schema.test.ts', 'test/core/flows/flow-file.test.ts'];

function run(cwd, command, args) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' } });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

const copy = mkdtempSync(path.join(tmpdir(), 'amc-tool-touches-'));
let failed = false;
try {
  if (!run(root, 'git', ['worktree', 'add', '--detach', copy, 'HEAD']).ok) throw new Error('git worktree add failed');
  symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  writeFileSync(path.join(copy, 'src/core/tools/actions/triple-tap.ts'), SAMPLE_TOOL);
  for (const [file, from, to] of EDITS) {
    const text = readFileSync(path.join(copy, file), 'utf8');
    if (!text.includes(from)) throw new Error(`${file} no longer holds the line a new tool goes after: update this script`);
    writeFileSync(path.join(copy, file), text.replace(from, to));
  }
  run(copy, process.execPath, ['node_modules/.bin/tsx', 'scripts/flow-schema.ts']);
  const typecheck = run(copy, process.execPath, ['node_modules/.bin/tsc', '-p', 'tsconfig.node.json', '--noEmit']);
  const walk = run(copy, process.execPath, ['node_modules/.bin/vitest', 'run', 'test/core/tools/tool-catalog.test.ts']);
  const asking = NAMING_TESTS.filter((test) => !run(copy, process.execPath, ['node_modules/.bin/vitest', 'run', test]).ok);
  // The node_modules link is the copy's means, not a touch.
  const touched = run(copy, 'git', ['status', '--porcelain', '--untracked-files=all']).output.split('\n').filter((line) => line && !line.endsWith(' node_modules'));
  console.log(`The typecheck ${typecheck.ok ? 'passes' : 'fails'} and the catalog's walk test ${walk.ok ? 'passes' : 'fails'} with the sample tool.`);
  console.log(`Adding a tool touched ${touched.length} files (docs/flow.schema.json regenerated):\n${touched.map((line) => `  ${line}`).join('\n')}`);
  console.log(`plus ${asking.length} test file(s) that name every tool and then ask for it:${asking.map((test) => `\n  ${test}`).join('') || ' none'}`);
  failed = !typecheck.ok || !walk.ok;
  if (failed) console.log(`${typecheck.output}\n${walk.output}`);
} finally {
  run(root, 'git', ['worktree', 'remove', '--force', copy]);
  rmSync(copy, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
