// The repository's own spec check, run as `npm test` runs it, on a small project of its own.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = path.resolve(__dirname, '../../scripts/spec-trace.mjs');
const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function project(spec: string, tests: string): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'amc-spec-trace-'));
  roots.push(root);
  await mkdir(path.join(root, 'openspec/specs/demo'), { recursive: true });
  await mkdir(path.join(root, 'test'), { recursive: true });
  await writeFile(path.join(root, 'openspec/specs/demo/spec.md'), spec);
  await writeFile(path.join(root, 'test/demo.test.ts'), tests);
  return root;
}

function check(root: string) {
  const result = spawnSync(process.execPath, [script, '--strict', '--root', root], { encoding: 'utf8' });
  return { code: result.status, out: result.stdout + result.stderr };
}

const SPEC = `# demo
### Requirement: Demo
#### Scenario: The person's note is kept
- **WHEN** x
- **THEN** y

#### Scenario: A \`wait\` sends nothing
- **WHEN** x
- **THEN** y
`;

describe('spec check', () => {
  it('Scenario: Escaped quotes in a test title still name the Scenario', async () => {
    const root = await project(
      SPEC,
      `const TITLES = { wait: 'Scenario: A wait sends nothing' } as const;
describe('notes', () => {
  it('Scenario: The person\\'s note is kept', () => {});
  it(TITLES['wait'], () => {});
});
`,
    );
    const { code, out } = check(root);
    expect(out).toContain('openspec scenarios: 2, named in a test: 2');
    expect(code).toBe(0);
  });

  it('Scenario: A Scenario no test names fails the spec check with the closest title', async () => {
    const root = await project(
      SPEC,
      `describe('notes', () => {
  it('Scenario: The person\\'s notes are kept', () => {});
  it(\`Scenario: A \${'wait'} sends nothing\`, () => {});
  it('something else entirely', () => {});
});
`,
    );
    const { code, out } = check(root);
    expect(code).toBe(1);
    expect(out).toContain('named in a test: 0');
    expect(out).toMatch(/not named in any test: openspec\/specs\/demo\/spec.md:3 "The person's note is kept"\n\s+closest test title: test\/demo.test.ts:2 "Scenario: The person's notes are kept"/);
    // An interpolated title matches nothing (only a run could tell its text), but it is still the nearest.
    expect(out).toMatch(/closest test title: test\/demo.test.ts:3 "Scenario: A \$\{…\} sends nothing"/);
  });
});
