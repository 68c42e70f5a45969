#!/usr/bin/env node
// Does the suite notice a real bug? Applies deliberate one-line bugs, one at a time, each to its own temporary
// copy of the repository (tracked and new files, node_modules linked, the workspace packages to the copy's own),
// runs only the tests that should catch it, and reports how many were caught. Not part of `npm test`: run it by
// hand or through `npm run bench`.
//
//   node scripts/mutation-check.mjs [--only NAME[,NAME]] [--json] [--list]
//
// A mutation is (file, exact search text, replacement). When the text is not in the file (exactly once), the
// mutation is reported as "could not apply" and counts neither way: re-target it after a refactor.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export const MUTATIONS = [
  {
    name: 'leak a screenshot into an event',
    file: 'src/core/runtime/task-runner.ts',
    search: '      screenChanged,\n      observeMs:',
    replace: '      screenChanged,\n      ...(shot ? { raw: Buffer.from(shot.bytes) } : {}),\n      observeMs:',
    tests: ['test/core/runtime/task-runner.test.ts', 'test/app/screenshot-boundary.test.ts'],
  },
  {
    name: 'skip an Executor action (press_key sends nothing)',
    file: 'src/core/tools/actions/keys.ts',
    search: '    await context.send(`input keyevent ${KEY_CODES[args.key]}`);',
    replace: '    void KEY_CODES;',
    tests: ['test/core/tools/executor.test.ts', 'test/core/tools/registry.test.ts', 'test/app/devices-and-tasks.test.ts'],
    testNamePattern: 'press|key|gesture',
  },
  {
    name: 'ignore --adb-host',
    file: 'src/cli/commands/devices.ts',
    search: "    ...(values['adb-host'] ? { host: values['adb-host'] } : {}),\n",
    replace: '',
    tests: ['test/cli/run.test.ts'],
    testNamePattern: 'adb-host',
  },
  {
    name: 'ignore --adb-path',
    file: 'src/cli/commands/devices.ts',
    search: "    ...(values['adb-path'] ? { adbPath: values['adb-path'] } : {}),\n",
    replace: '',
    tests: ['test/cli/run.test.ts'],
    testNamePattern: 'adb-path',
  },
  {
    name: 'drop a setting on save (the AI planner model)',
    file: 'src/core/storage/settings-store.ts',
    search: '        await writeFileAtomic(file, `${JSON.stringify(withUnknownKeysOf(stored, next.data), null, 2)}\\n`);',
    replace: '        await writeFileAtomic(file, `${JSON.stringify(withUnknownKeysOf(stored, { ...next.data, aiPlanner: { ...next.data.aiPlanner, model: undefined } }), null, 2)}\\n`);',
    tests: ['test/core/storage/settings-store.test.ts', 'test/app/settings.test.ts'],
  },
  {
    name: 'accept a second tool call',
    file: 'packages/provider-clients/src/tool-call-checks.ts',
    search: '  if (calls.length > 1) {',
    replace: '  if (calls.length > 99) {',
    tests: ['test/core/runtime/clients.test.ts'],
  },
  {
    name: 'goal_reached answers true',
    file: 'src/core/runtime/ai-planner.ts',
    search: '    goalReached: () => false,',
    replace: '    goalReached: () => true,',
    tests: ['test/core/runtime/ai-planner.test.ts'],
  },
];

/** Tracked and new (not ignored) files of the working tree, as git lists them. */
function projectFiles() {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  return listed.stdout.split('\0').filter(Boolean);
}

function copyOfProject(files) {
  const copy = mkdtempSync(path.join(tmpdir(), 'amc-mutant-'));
  for (const file of files) {
    const target = path.join(copy, file);
    mkdirSync(path.dirname(target), { recursive: true });
    try {
      cpSync(path.join(root, file), target);
    } catch {
      // A file listed by git but deleted in the working tree: the copy goes without it, like the tree.
    }
  }
  linkDependencies(copy);
  return copy;
}

/**
 * The copy's node_modules: a link to each of the repository's installed packages, except the workspace packages
 * (packages/*), which point at the copy's own, so a mutation inside one of them is what the tests load.
 */
function linkDependencies(copy) {
  const modules = path.join(copy, 'node_modules');
  const workspaces = readdirSync(path.join(copy, 'packages')).map((folder) => ({
    folder: path.join(copy, 'packages', folder),
    name: JSON.parse(readFileSync(path.join(copy, 'packages', folder, 'package.json'), 'utf8')).name,
  }));
  const scopes = new Set(workspaces.map((workspace) => workspace.name.split('/')[0]));
  mkdirSync(modules);
  for (const entry of readdirSync(path.join(root, 'node_modules'))) {
    if (scopes.has(entry)) {
      // A scope the workspaces share with installed packages keeps those packages too.
      mkdirSync(path.join(modules, entry));
      for (const inScope of readdirSync(path.join(root, 'node_modules', entry))) {
        symlinkSync(path.join(root, 'node_modules', entry, inScope), path.join(modules, entry, inScope), 'dir');
      }
    } else {
      symlinkSync(path.join(root, 'node_modules', entry), path.join(modules, entry), 'dir');
    }
  }
  for (const workspace of workspaces) {
    const link = path.join(modules, workspace.name);
    rmSync(link, { force: true });
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(workspace.folder, link, 'dir');
  }
}

function runTests(copy, mutation) {
  const args = [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...mutation.tests, '--reporter=dot'];
  if (mutation.testNamePattern) args.push('-t', mutation.testNamePattern);
  const started = Date.now();
  const result = spawnSync(process.execPath, args, { cwd: copy, encoding: 'utf8', timeout: 10 * 60_000, env: { ...process.env, CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' } });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  const summary = output.match(/^\s*Tests\s+\d+ (?:passed|failed|skipped)[^\n]*/gm)?.at(-1)?.trim() ?? `exit ${result.status}`;
  const firstError = output.match(/^\s*(?:AssertionError|Error|TypeError)[^\n]*/m)?.[0].trim();
  return { passed: result.status === 0, seconds: (Date.now() - started) / 1000, summary: firstError ? `${summary}; ${firstError.slice(0, 200)}` : summary };
}

/** Applies one mutation to a fresh copy and runs its tests; `null` mutation = the unmutated baseline. */
function check(files, mutation) {
  const copy = copyOfProject(files);
  try {
    const target = path.join(copy, mutation.file);
    const text = readFileSync(target, 'utf8');
    const found = text.split(mutation.search).length - 1;
    if (!mutation.baseline) {
      if (found !== 1) return { name: mutation.name, status: 'could not apply', detail: `${mutation.file}: search text found ${found} times (expected once)` };
      writeFileSync(target, text.replace(mutation.search, mutation.replace));
    }
    const run = runTests(copy, mutation);
    if (mutation.baseline) return { name: mutation.name, status: run.passed ? 'baseline green' : 'baseline red', detail: run.summary, seconds: run.seconds };
    return { name: mutation.name, status: run.passed ? 'missed' : 'caught', detail: run.summary, seconds: run.seconds };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

export function runMutationCheck({ only } = {}) {
  const chosen = only ? MUTATIONS.filter((m) => only.includes(m.name)) : MUTATIONS;
  const files = projectFiles();
  const results = [];
  const baselines = new Map();
  for (const mutation of chosen) {
    // The same tests on the unmutated copy first (once per test selection): a red baseline would make
    // "caught" meaningless.
    const key = JSON.stringify([mutation.tests, mutation.testNamePattern]);
    if (!baselines.has(key)) baselines.set(key, check(files, { ...mutation, baseline: true }));
    const baseline = baselines.get(key);
    if (baseline.status !== 'baseline green') {
      results.push({ name: mutation.name, status: 'baseline red', detail: baseline.detail, seconds: baseline.seconds });
      continue;
    }
    results.push(check(files, mutation));
  }
  const applied = results.filter((r) => r.status === 'caught' || r.status === 'missed');
  return { caught: applied.filter((r) => r.status === 'caught').length, total: applied.length, results };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const argv = process.argv.slice(2);
  if (argv.includes('--list')) {
    for (const m of MUTATIONS) console.log(`${m.name}\n  ${m.file}\n  tests: ${m.tests.join(' ')}${m.testNamePattern ? ` -t "${m.testNamePattern}"` : ''}`);
    process.exit(0);
  }
  const onlyIndex = argv.indexOf('--only');
  const only = onlyIndex >= 0 ? argv[onlyIndex + 1]?.split(',') : undefined;
  const report = runMutationCheck({ only });
  if (argv.includes('--json')) {
    console.log(JSON.stringify(report));
  } else {
    for (const r of report.results) console.log(`${r.status.padEnd(16)} ${r.name}  (${r.detail}${r.seconds ? `, ${r.seconds.toFixed(0)} s` : ''})`);
    const skipped = report.results.length - report.total;
    console.log(`\nMutations caught: ${report.caught}/${report.total}${skipped ? ` (${skipped} could not be checked)` : ''}`);
  }
  process.exit(report.caught === report.total && report.results.length === report.total ? 0 : 1);
}
