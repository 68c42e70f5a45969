// `amc doctor`, `amc act --help`, usage exit codes and the planning spinner, as a user meets them: child processes
// against the real adb server, the virtual device and the loopback Anthropic fake (through the real SDK).
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_TOOLS } from '../../src/core/tools/registry';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { amcBin, anthropicDirectEnv, childEnv, runAmc } from '../support/cli';
import { latinSentences } from '../support/latin-sentences';
import { findElement, finish, startAnthropicFake, type AnthropicFake, type FakePolicy } from '../fakes/index';

let harness: AdbHarness;
let fake: AnthropicFake;
let home: string;
let policy: FakePolicy = () => finish(true, 'idle');

beforeAll(async () => {
  harness = await startAdbHarness();
  fake = await startAnthropicFake({ policy: (turn) => policy(turn) });
  home = await mkdtemp(path.join(tmpdir(), 'amc-doctor-home-'));
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

const env = (extra: NodeJS.ProcessEnv = {}) => anthropicDirectEnv(harness, home, fake.url, extra);

describe('amc doctor', { timeout: 120_000 }, () => {
  it('Scenario: amc doctor says a task can run when adb, a phone, the settings and the model are fine', async () => {
    const before = fake.requests.length;
    const result = await runAmc(['doctor'], { env: env() });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^ok\s+adb\s+adb found, version \d+\.\d+/m);
    expect(result.stdout).toMatch(/^ok\s+adb server\s+reachable at 127\.0\.0\.1:\d+/m);
    expect(result.stdout).toContain(`phone ${harness.serial}`);
    expect(result.stdout).toMatch(/^ok\s+model\s+Anthropic direct: OK: claude-[\w.-]+ answered in [\d,.]+ ms/m);
    expect(result.stdout).toContain('A task can run.');
    expect(result.code).toBe(0);
    // One tiny real request reached the provider.
    expect(fake.requests.length).toBe(before + 1);
  });

  it('Scenario: amc doctor names a wrong key and an unreachable model and exits 1', async () => {
    const wrongKey = await runAmc(['doctor', '--json'], { env: env({ ANTHROPIC_API_KEY: 'sk-ant-wrong' }) });
    expect(wrongKey.code).toBe(1);
    const report = JSON.parse(wrongKey.stdout) as { canRun: boolean; checks: Array<{ check: string; status: string; detail: string }> };
    expect(report.canRun).toBe(false);
    expect(report.checks.find((row) => row.check === 'model')).toMatchObject({ status: 'fail', detail: expect.stringContaining('The key or token was refused') });
    expect(wrongKey.stdout).not.toContain('sk-ant-wrong');

    const dead = await runAmc(['doctor'], { env: env({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' }) });
    expect(dead.code).toBe(1);
    expect(dead.stdout).toMatch(/^FAIL\s+model\s+Anthropic direct: Unreachable: /m);
    expect(dead.stdout).toContain('A task cannot run yet: model.');
    expect(dead.stdout).not.toMatch(/ToolCallUnavailable|Error:/);
  });

  it("Scenario: amc doctor's model check is worded in a Chinese terminal, a missing key included", async () => {
    const chinese = { LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '' };
    const fine = await runAmc(['doctor'], { env: env(chinese) });
    expect(fine.stdout).toMatch(/^正常\s+模型\s+Anthropic 直连：正常：claude-[\w.-]+ 在 [\d,]+ 毫秒内回答了。$/m);
    const keyless = await runAmc(['doctor'], { env: env({ ...chinese, ANTHROPIC_API_KEY: '' }) });
    expect(keyless.code).toBe(1);
    const model = keyless.stdout.split('\n').find((line) => /^失败\s+模型/.test(line));
    expect(model).toMatch(/^失败\s+模型\s+Anthropic 直连：AI 规划器的设置不完整：.+（设置 → /);
    expect(latinSentences(model!, ['Anthropic', 'API'])).toEqual([]);
    // The same in English, as it was.
    const english = await runAmc(['doctor'], { env: env({ ANTHROPIC_API_KEY: '' }) });
    expect(english.stdout).toMatch(/^FAIL\s+model\s+Anthropic direct: the AI planner is incomplete: /m);
  });

  it('Scenario: amc doctor with the AI planner off warns but lets a task run', async () => {
    const result = await runAmc(['doctor'], { env: env({ AI_PLANNER_ENABLED: 'false' }) });
    expect(result.stdout).toMatch(/^warn\s+planner\s+the AI planner is off/m);
    expect(result.code).toBe(0);
  });

  it('Scenario: amc doctor names an unusable setting and exits 1', async () => {
    const broken = await runAmc(['doctor'], { env: env({ AI_PLANNER_MAX_STEPS: 'many' }) });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/^FAIL\s+settings\s+AI_PLANNER_MAX_STEPS must be a whole number/m);
  });
});

describe('amc act and usage', { timeout: 120_000 }, () => {
  it('Scenario: amc act --help lists every tool with its arguments', async () => {
    const result = await runAmc(['act', '--help']);
    expect(result.code).toBe(0);
    for (const tool of ACTION_TOOLS.values()) expect(result.stdout).toMatch(new RegExp(`^  ${tool.name}  `, 'm'));
    expect(result.stdout).toMatch(/--key back\|home\|enter/);
    expect(result.stdout).toMatch(/--text TEXT\s+The text to type/);
    expect(result.stdout).toMatch(/--element_id TEXT\s+\(optional\)/);
  });

  it('Scenario: Option names and named values are accepted in any case', async () => {
    const result = await runAmc(['act', '-s', harness.serial, 'press_key', '--KEY', 'HOME'], { env: env() });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^ok: press_key in [\d,.]+ m?s$/m);
    expect(result.code).toBe(0);
  });

  it("Scenario: Usage errors exit 2 with the CLI's own words", async () => {
    const unknownOption = await runAmc(['act', '-s', harness.serial, 'tap', '--text', 'hi'], { env: env() });
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toMatch(/unknown option --text; this command takes/);
    expect(unknownOption.stderr).not.toContain('To specify a positional argument');
    const noTarget = await runAmc(['act', '-s', harness.serial, 'tap'], { env: env() });
    expect(noTarget.code).toBe(2);
    const badChoice = await runAmc(['act', '-s', harness.serial, 'press_key', '--key', 'HOMER'], { env: env() });
    expect(badChoice.code).toBe(2);
    expect(badChoice.stderr).toContain('--key must be one of back, home');
    const missingValue = await runAmc(['run', '--goal'], { env: env() });
    expect(missingValue.code).toBe(2);
    expect(missingValue.stderr).toContain('--goal needs a value');
    // A negative number is the option's value, checked against its range (node's parser would call it ambiguous).
    const negative = await runAmc(['run', '--max-steps', '-5', '--goal', 'Open Notes'], { env: env() });
    expect(negative.code).toBe(2);
    expect(negative.stderr).toContain('--max-steps must be a whole number from 1 to 500, got "-5"');
    const unknownSerial = await runAmc(['run', '-s', 'nosuch', '--goal', 'Open Notes'], { env: env() });
    expect(unknownSerial.code).toBe(2);
    expect(unknownSerial.stderr).toContain('No device "nosuch" is connected');
    expect(unknownSerial.stdout).toBe('');
  });
});

/** Runs `amc ...` inside a pseudo-terminal (util-linux `script`), as on a person's terminal; resolves with what it drew. */
function runInTerminal(args: string[], environment: NodeJS.ProcessEnv): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, amcBin, ...args].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve) => {
    execFile('script', ['-qfec', command, '/dev/null'], { env: childEnv(environment), timeout: 60_000 }, (error, stdout) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, screen: stdout });
    });
  });
}

describe('the planning spinner', { timeout: 120_000 }, () => {
  const slowPlanner: FakePolicy = (turn) => {
    const reply = turn.scene?.screen.package.includes('notes')
      ? finish(true, 'Notes is open')
      : { kind: 'call' as const, tool: 'tap', args: { element_id: findElement(turn.scene, 'Notes')?.id ?? 'e1' }, text: 'Opening Notes.' };
    return { kind: 'delay', ms: 700, then: reply };
  };

  it('Scenario: amc run shows a spinner with elapsed time on a terminal while the model plans', async () => {
    policy = slowPlanner;
    await harness.control('/reset', { body: {} });
    const result = await runInTerminal(['run', '--goal', 'Open the Notes app'], env());
    expect(result.code).toBe(0);
    expect(result.screen).toMatch(/⠋ planning step 1… \d+[.,]\d s/);
    expect(result.screen).toContain('Done (1 action');
  });

  it('Scenario: amc run draws no spinner with --json or when piped', async () => {
    policy = slowPlanner;
    await harness.control('/reset', { body: {} });
    const json = await runInTerminal(['run', '--goal', 'Open the Notes app', '--json'], env());
    expect(json.code).toBe(0);
    expect(json.screen).not.toContain('planning step');
    await harness.control('/reset', { body: {} });
    const piped = await runAmc(['run', '--goal', 'Open the Notes app'], { env: env() });
    expect(piped.code).toBe(0);
    expect(piped.stdout + piped.stderr).not.toContain('planning step');
  });
});
