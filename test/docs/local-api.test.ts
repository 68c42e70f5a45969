// docs/local-api.md: its method list is generated from the contract and must be current, and its Node example
// must work against a real `amc serve` (the web host), the real adb server and the provider fake.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventNames, methodNames } from '../../src/shared/contract';
import { createTaskStore } from '../../src/core/storage/task-store';
import { DOC_PATH, generatedSection, withGeneratedSection } from '../../scripts/local-api-doc';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { requireBuiltRenderer } from '../support/build';
import { interrupt, startAmc } from '../support/cli';
import { startAnthropicFake, type AnthropicFake } from '../fakes/index';
import { directAnthropicEnv } from '../support/planner-env';
import { suitePolicy } from '../fakes/suite-agent';

describe('the local API doc', () => {
  it('Scenario: The local API doc lists every method and event of the contract', async () => {
    const doc = await readFile(DOC_PATH, 'utf8');
    expect(withGeneratedSection(doc), 'run `npx tsx scripts/local-api-doc.ts`').toBe(doc);
    const section = generatedSection();
    for (const name of [...methodNames, ...eventNames]) expect(section).toContain(`| \`${name}\` |`);
    expect(section).toContain('| `tasks.run` | `{ serial: string, goal: string, maxSteps?: integer, allowedApps?: string[], overrides?: {…}, language?: "en" \\| "zh-CN" }` |');
  });
});

describe('the local API example', () => {
  let harness: AdbHarness;
  let fake: AnthropicFake;
  let home: string;
  let serve: ChildProcess | undefined;

  beforeAll(async () => {
    requireBuiltRenderer();
    harness = await startAdbHarness();
    fake = await startAnthropicFake({ policy: suitePolicy() });
    home = await mkdtemp(path.join(tmpdir(), 'amc-local-api-'));
  }, 60_000);

  afterAll(async () => {
    if (serve) await interrupt(serve);
    await fake?.close();
    await harness?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('Scenario: The Node example carries out a goal through the local API', async () => {
    const env = directAnthropicEnv(harness, home, fake.url);
    const started = await startAmc(['serve'], /serving at (http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/, { env });
    serve = started.child;
    const example = spawn(process.execPath, ['docs/examples/local-api.mjs', started.match[1]!, 'Turn on Bluetooth.'], { env: { ...process.env, ...env } });
    let output = '';
    example.stdout.on('data', (data) => (output += data));
    example.stderr.on('data', (data) => (output += data));
    const code = await new Promise((resolve) => example.on('close', resolve));
    expect(code, output).toBe(0);
    const lines = output.trim().split('\n');
    expect(lines[0]).toMatch(/^demo phone: 127\.0\.0\.1:\d+$/);
    expect(lines.slice(1)).toEqual([
      'step 1: launch_app {"app":"Settings"}',
      expect.stringMatching(/^step 2: tap \{"element_id":"e\d+"\}$/),
      expect.stringMatching(/^step 3: tap \{"element_id":"e\d+"\}$/),
      'step 4: finish_task {"success":true,"reason":"Done."}',
      'completed after 3 steps: Done.',
    ]);
    // The task went through the app: it is in the app's history.
    await expect.poll(async () => (await createTaskStore(home).list()).tasks.map((task) => [task.goal, task.status])).toEqual([['Turn on Bluetooth.', 'completed']]);
  }, 120_000);
});
