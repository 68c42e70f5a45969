// A provider that repeats the key in its error bodies, driven through the real SDKs and the real CLI, MCP server
// and storage: afterwards the key is found in nothing the app shows, stores, logs or sends.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { amcBin, childEnv, runAmc } from '../support/cli';
import { directAnthropicEnv } from '../support/planner-env';
import { echoKeyError, FAKE_ANTHROPIC_KEY, FAKE_OPENAI_KEY, startAnthropicFake, startOpenAIFake, type AnthropicFake, type OpenAIFake } from '../fakes/index';

let harness: AdbHarness;
let anthropic: AnthropicFake;
let openai: OpenAIFake;
let home: string;
let status = 400;

beforeAll(async () => {
  harness = await startAdbHarness();
  anthropic = await startAnthropicFake({ policy: () => echoKeyError(FAKE_ANTHROPIC_KEY, status) });
  openai = await startOpenAIFake({ policy: () => echoKeyError(FAKE_OPENAI_KEY, status) });
  home = await mkdtemp(path.join(tmpdir(), 'amc-secrets-home-'));
}, 60_000);

afterAll(async () => {
  await anthropic?.close();
  await openai?.close();
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

const anthropicEnv = () => childEnv(directAnthropicEnv(harness, home, anthropic.url));
const openaiEnv = () =>
  childEnv({ ...directAnthropicEnv(harness, home, anthropic.url), AI_PLANNER_PROVIDER: 'openai', OPENAI_API_KEY: FAKE_OPENAI_KEY, OPENAI_BASE_URL: `${openai.url}/v1` });

const KEYS = [FAKE_ANTHROPIC_KEY, FAKE_OPENAI_KEY];
function expectNoKey(where: string, text: string): void {
  for (const key of KEYS) expect(text.includes(key), `${where} holds the key "${key}"`).toBe(false);
}

/** Every file under `folder`, with its text. */
async function filesUnder(folder: string): Promise<Array<{ file: string; text: string }>> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return Promise.all(
    entries.filter((entry) => entry.isFile()).map(async (entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return { file, text: await readFile(file, 'utf8') };
    }),
  );
}

describe('secrets are redacted everywhere', () => {
  it('Scenario: A key the provider repeats in an error body is found nowhere afterwards', async () => {
    for (const [provider, env] of [['anthropic', anthropicEnv], ['openai', openaiEnv]] as const) {
      for (const code of [400, 429, 500]) {
        status = code;
        const run = await runAmc(['run', '-s', harness.serial, '--goal', `Open the Notes app (${provider} ${code})`], { env: env() });
        const output = run.stdout + run.stderr;
        // The provider's words are still there (the failure is explained), only the key is not.
        expect(output, `${provider} ${code}`).toContain(`HTTP ${code}`);
        expect(output).toContain('[redacted]');
        expectNoKey(`amc run output (${provider}, HTTP ${code})`, output);
        const json = await runAmc(['run', '-s', harness.serial, '--goal', 'Open the Notes app', '--json'], { env: env() });
        expectNoKey(`amc run --json (${provider}, HTTP ${code})`, json.stdout + json.stderr);
      }
    }

    status = 500;
    const doctor = await runAmc(['doctor', '--json'], { env: anthropicEnv() });
    expect(doctor.stdout).toContain('HTTP 500');
    expectNoKey('amc doctor --json', doctor.stdout + doctor.stderr);

    const evalFolder = path.join(home, 'eval-report');
    const evaluation = await runAmc(['eval', '--json', '--tasks', 'settings-wifi-off', '--out', evalFolder], { env: anthropicEnv(), timeoutMs: 120_000 });
    expect(evaluation.stdout).toContain('HTTP 500');
    expectNoKey('amc eval --json', evaluation.stdout + evaluation.stderr);
    const evalFiles = await filesUnder(evalFolder);
    expect(evalFiles.map((f) => path.basename(f.file))).toEqual(expect.arrayContaining(['eval.json', 'index.html']));
    for (const { file, text } of evalFiles) expectNoKey(file, text);

    const client = new Client({ name: 'secrets-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [amcBin, 'mcp'], env: anthropicEnv() as Record<string, string>, stderr: 'pipe' }));
    try {
      const goal = await client.callTool({ name: 'run_goal', arguments: { serial: harness.serial, goal: 'Open the Notes app' } });
      expect(JSON.stringify(goal)).toContain('HTTP 500');
      expectNoKey('MCP run_goal answer', JSON.stringify(goal));
      const history = await client.readResource({ uri: 'amc://history' });
      const listing = JSON.parse((history.contents[0] as { text: string }).text) as { tasks: Array<{ id: string }> };
      expectNoKey('MCP amc://history', JSON.stringify(history));
      const task = await client.readResource({ uri: `amc://tasks/${listing.tasks[0]!.id}` });
      const report = await client.readResource({ uri: `amc://tasks/${listing.tasks[0]!.id}/report` });
      expect(JSON.stringify(report)).toContain('HTTP 500');
      expectNoKey('MCP task resource', JSON.stringify(task));
      expectNoKey('MCP task report (the exported HTML)', JSON.stringify(report));
    } finally {
      await client.close();
    }

    // Every history file and every log the runs above left behind.
    const stored = await filesUnder(home);
    expect(stored.filter((f) => f.file.endsWith('.jsonl')).length).toBeGreaterThanOrEqual(12);
    for (const { file, text } of stored) expectNoKey(file, text);
  }, 300_000);
});
