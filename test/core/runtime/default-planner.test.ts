// TaskRunner's own default planner source (no plannerSource injected), in a child process so the test sees
// which modules the runtime really loads: with the AI planner disabled, the stub runs, no model is called and
// neither provider SDK is even imported (seed D6: default-disabled and additive).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../src/shared/task';
import { finish, sequencePolicy, startProviderFake, type ProviderFake } from '../../fakes/index';
import { childEnv } from '../../support/cli';

const fixtures = path.resolve('test/core/runtime/fixtures');
const SDK_MODULES = /node_modules\/(@anthropic-ai\/sdk|openai)\//;

let anthropic: ProviderFake;
let openai: ProviderFake;
let folder: string;

beforeAll(async () => {
  anthropic = await startProviderFake('anthropic', sequencePolicy(finish(true, 'done')));
  openai = await startProviderFake('openai', sequencePolicy(finish(true, 'done')));
  folder = await mkdtemp(path.join(tmpdir(), 'amc-default-planner-'));
});

afterAll(async () => {
  await anthropic?.close();
  await openai?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** Runs one task in a child whose environment holds working keys for both fakes; returns the record and the modules it loaded. */
async function runDefaultTask(name: string, extra: NodeJS.ProcessEnv): Promise<{ record: TaskRecord; executed: string[]; modules: string[] }> {
  const log = path.join(folder, `${name}.modules`);
  const env = childEnv({
    AMC_HOME: path.join(folder, name),
    AMC_TEST_MODULE_LOG: log,
    AI_PLANNER_TRANSPORT: 'direct',
    ANTHROPIC_API_KEY: anthropic.apiKey,
    ANTHROPIC_BASE_URL: anthropic.baseURL,
    OPENAI_API_KEY: openai.apiKey,
    OPENAI_BASE_URL: openai.baseURL,
    ...extra,
  });
  const args = ['--import', 'tsx', '--import', path.join(fixtures, 'record-modules.mjs'), path.join(fixtures, 'default-planner-task.ts')];
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, { env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ code: exitCode, stdout: out, stderr: err }));
  });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  const modules = (await readFile(log, 'utf8')).trim().split('\n');
  return { ...(JSON.parse(stdout) as { record: TaskRecord; executed: string[] }), modules };
}

describe("TaskRunner's default planner source", () => {
  it('Scenario: AI Planner disabled (default)', async () => {
    const { record, executed, modules } = await runDefaultTask('disabled', { AI_PLANNER_PROVIDER: 'anthropic' });
    expect(record.status).toBe('completed');
    expect(record.planner).toEqual({ kind: 'stub', exposesReasoning: false });
    expect(executed).toEqual(['describe_screen']);
    expect(anthropic.requests).toHaveLength(0);
    expect(openai.requests).toHaveLength(0);
    // The runtime itself was loaded and watched; no provider SDK was.
    expect(modules.some((url) => url.endsWith('/src/core/runtime/task-runner.ts'))).toBe(true);
    expect(modules.filter((url) => SDK_MODULES.test(url))).toEqual([]);
  });

  it('the same child loads the SDK and calls the model once the AI planner is enabled', async () => {
    const { record, modules } = await runDefaultTask('enabled', { AI_PLANNER_ENABLED: 'true', AI_PLANNER_PROVIDER: 'openai' });
    expect(record.status).toBe('completed');
    expect(record.planner).toMatchObject({ kind: 'ai', provider: 'openai', transport: 'direct' });
    expect(openai.requests).toHaveLength(1);
    expect(anthropic.requests).toHaveLength(0);
    expect(modules.some((url) => /node_modules\/openai\//.test(url))).toBe(true);
  });
});
