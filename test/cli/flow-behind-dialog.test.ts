// `amc flow run` as a CI job runs it, against the real adb server and the demo phone: a step whose element lies behind
// a modal prompt fails naming the prompt, never tapping behind it; what happened is read back with GET /state.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { runAmc } from '../support/cli';

let harness: AdbHarness;
let home: string;

beforeAll(async () => {
  harness = await startAdbHarness();
  home = await mkdtemp(path.join(tmpdir(), 'amc-flow-dialog-'));
}, 60_000);

afterAll(async () => {
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

describe('amc flow run with a dialog in front', () => {
  it('Scenario: A flow step whose target is behind a modal prompt fails naming it', async () => {
    await harness.control('/reset', { body: {} });
    const file = path.join(home, 'loan.yaml');
    await writeFile(file, 'goal: Ask the bank for a loan quote\nsteps:\n  - open_url: https://bank.example/offers\n  - tap: {text: Get a loan quote}\n');
    const env = { ANDROID_ADB_SERVER_PORT: String(harness.adbPort), HOME: harness.env.HOME, AMC_HOME: home };
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial, '--yes'], { env });
    expect(result.stdout).toMatch(/FAILED +2\. tap: \{ text: Get a loan quote \}/);
    expect(result.stdout).toContain("a dialog 'bank.example wants to use your location' is in front: 'Get a loan quote' lies behind it and cannot be reached");
    expect(result.stdout).not.toMatch(/did not change/);
    expect(result.code).toBe(1);
    // Nothing was tapped behind the prompt: the page and its prompt are as they were.
    expect((await harness.control<{ browser: { url: string }; dialog: string | null }>('/state')).body).toMatchObject({
      browser: { url: 'https://bank.example/offers' },
      dialog: 'bank.example wants to use your location',
    });
  });
});
