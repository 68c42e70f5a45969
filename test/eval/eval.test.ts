// `amc eval` as a user runs it: a child process that starts demo phones of its own on the real adb server and
// drives them through the real Anthropic SDK against the loopback fake playing a scripted (or misbehaving) model.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvalReportSchema, type EvalReport } from '../../src/eval/summary';
import { PHONE_TASKS } from '../../src/eval/tasks/index';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { launchTestBrowser } from '../support/browser';
import { runAmc } from '../support/cli';
import { finish, startAnthropicFake, type AnthropicFake, type FakePolicy } from '../fakes/index';
import { directAnthropicEnv } from '../support/planner-env';
import { SUITE_SCRIPTS, stepsPolicy, suitePolicy } from '../fakes/suite-agent';
import { writeHelperStandIn } from '../support/helper-stand-in';

let harness: AdbHarness;
let fake: AnthropicFake;
let home: string;
let policy: FakePolicy = () => finish(true, 'idle');

beforeAll(async () => {
  harness = await startAdbHarness();
  fake = await startAnthropicFake({ policy: (turn) => policy(turn) });
  home = await mkdtemp(path.join(tmpdir(), 'amc-eval-home-'));
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

const env = () => directAnthropicEnv(harness, home, fake.url);

/** Runs `amc eval --json`; `exitCode` 0 when every task should pass, 1 when some should fail. */
async function evaluate(args: string[], extraEnv: Record<string, string> = {}, exitCode = 0): Promise<{ report: EvalReport; stderr: string }> {
  const result = await runAmc(['eval', '--json', ...args], { env: { ...env(), ...extraEnv }, timeoutMs: 240_000 });
  expect(result.code, result.stderr).toBe(exitCode);
  // One JSON document on stdout, nothing else.
  return { report: EvalReportSchema.parse(JSON.parse(result.stdout)), stderr: result.stderr };
}

const scripted = (taskId: string) => stepsPolicy(SUITE_SCRIPTS[taskId]!());
const byId = (report: EvalReport, id: string) => report.tasks.find((task) => task.id === id)!;

/** A model that misbehaves in the ways real ones do, on all but one task; on a second one only in its second run. */
const MISBEHAVIOUR: Record<string, (run: number) => FakePolicy> = {
  'clock-add-0630': () => scripted('clock-add-0630'),
  'settings-airplane-mode-on': (run) => (run === 1 ? scripted('settings-airplane-mode-on') : () => finish(false, 'I could not find airplane mode.')),
  // Loops on the home key: the loop guard stops it (no one is there to let it go on).
  'settings-wifi-off': () => () => ({ kind: 'call', tool: 'press_key', args: { key: 'home' }, text: 'Going home.' }),
  // Taps an element id that no Scene ever had.
  'settings-bluetooth-on': () => () => ({ kind: 'call', tool: 'tap', args: { element_id: 'e999' }, text: 'Tapping Bluetooth.' }),
  'contacts-bob-number': () => () => finish(true, "Bob's number is 555-0000."),
  // Claims to have done the impossible.
  'clock-timer-infeasible': () => () => finish(true, 'The timer is running.'),
  'notes-door-code': () => () => ({ kind: 'http-error', status: 500 }),
  'settings-dark-theme-on': () => () => finish(false, 'Dark theme is not supported.'),
};

describe('amc eval', () => {
  let scriptedRun: EvalReport;
  let misbehavingOut: string;

  it('Scenario: The scripted model passes every task of the suite', async () => {
    policy = suitePolicy();
    const { report } = await evaluate(['--parallel', '2']);
    scriptedRun = report;
    expect(report.tasks.map((task) => task.id)).toEqual(PHONE_TASKS.map((task) => task.id));
    expect(report.tasks.filter((task) => !task.success).map((task) => `${task.id}: ${task.failureReason}`)).toEqual([]);
    expect(report).toMatchObject({ passed: PHONE_TASKS.length, successRate: 1, complete: true, parallel: 2, repeat: 1 });
    expect(report.planner).toMatchObject({ kind: 'ai', provider: 'anthropic', transport: 'direct' });
    expect(report.successInterval.low).toBeGreaterThan(0.85);
    expect(report.successInterval.high).toBe(1);
    expect(byId(report, 'settings-wifi-off')).toMatchObject({ steps: 3, success: true });
    expect(report.totals.inputTokens).toBeGreaterThan(0);
    // The default model's entry in the price table costs every run: $3 in, $15 out per million tokens.
    expect(report.price).toEqual({ model: 'claude-sonnet-4-6', input: 3, output: 15 });
    for (const run of report.tasks.flatMap((task) => task.attempts)) {
      expect(run.costUsd).toBeCloseTo((run.inputTokens * 3 + run.outputTokens * 15) / 1_000_000, 12);
    }
    expect(report.totals.costUsd).toBeCloseTo((report.totals.inputTokens * 3 + report.totals.outputTokens * 15) / 1_000_000, 12);
    expect(report.totals.costUsd).toBeGreaterThan(0);
  }, 300_000);

  it('Scenario: amc eval types text adb cannot type through yadb', async () => {
    const typedTasks = ['contacts-add-li-lei', 'messages-nonascii-alice'];
    // Settings allow yadb only, so a run could not have typed these any other way (ADBKeyBoard, `input text`).
    // No shipped copy either (AMC_PHONE_HELPERS_DIR empty): the second run must find no yadb at all.
    const yadbOnly = { AMC_TYPING_METHOD: 'yadb', AMC_HELPER_DOWNLOAD: 'off', AMC_PHONE_HELPERS_DIR: '' };
    const yadb = path.join(home, 'yadb-v1.1.1');
    // Any bytes do: the demo phone checks the jar was pushed, not what it holds.
    await writeHelperStandIn('yadb', yadb);
    policy = suitePolicy();
    const { report } = await evaluate(['--tasks', typedTasks.join(','), '--parallel', '2'], { ...yadbOnly, YADB_PATH: yadb });
    // The verdicts come from each phone's state (GET /state): the contact and the message hold the typed text.
    expect(report.tasks.map((task) => [task.id, task.success, task.attempts[0]!.verdict])).toEqual([
      ['contacts-add-li-lei', true, '李雷 was saved with 13800138000'],
      ['messages-nonascii-alice', true, 'sent "你好"'],
    ]);
    // Without yadb the same Settings type nothing, and the phones' states say so.
    policy = suitePolicy();
    const { report: withoutYadb } = await evaluate(['--tasks', typedTasks.join(','), '--parallel', '2'], yadbOnly, 1);
    expect(withoutYadb.passed).toBe(0);
    expect(byId(withoutYadb, 'contacts-add-li-lei').attempts[0]!.verdict).toMatch(/^there is no contact named 李雷/);
    expect(byId(withoutYadb, 'messages-nonascii-alice').attempts[0]!.verdict).toMatch(/^expected "你好" to be sent/);
  }, 300_000);

  it('Scenario: A misbehaving model is scored honestly, pass^k included', async () => {
    policy = suitePolicy((taskId, run) => MISBEHAVIOUR[taskId]!(run));
    misbehavingOut = await mkdtemp(path.join(tmpdir(), 'amc-eval-out-'));
    // A model the price table does not list: no cost anywhere, never a guessed one.
    const { report, stderr } = await evaluate([
      ...['--tasks', Object.keys(MISBEHAVIOUR).join(','), '--repeat', '2', '--parallel', '2', '--max-steps', '6', '--out', misbehavingOut],
      ...['--model', 'claude-unlisted-9'],
    ], {}, 1);
    expect(stderr).toContain(path.join(misbehavingOut, 'index.html'));
    expect(report.tasks).toHaveLength(8);
    expect(report.passed).toBe(1);
    expect(report.successRate).toBe(1 / 8);
    expect(report.runSuccessRate).toBe(3 / 16);
    expect(report.planner.model).toBe('claude-unlisted-9');
    expect(report.price).toBeNull();
    expect(report.totals.costUsd).toBeNull();
    expect(report.tasks.flatMap((task) => task.attempts.map((run) => run.costUsd))).toEqual(Array(16).fill(null));
    expect(byId(report, 'clock-add-0630')).toMatchObject({ success: true, passes: 2 });
    expect(byId(report, 'settings-airplane-mode-on')).toMatchObject({ success: false, passes: 1, failureReason: 'the agent gave up: I could not find airplane mode.' });
    expect(byId(report, 'settings-wifi-off').failureReason).toBe(
      'the task failed: stopped a loop: Pressed Home 3 times in a row and the screen did not change; no person is present to answer',
    );
    expect(byId(report, 'settings-wifi-off').attempts[0]).toMatchObject({ steps: 3, status: 'failed' });
    expect(byId(report, 'settings-bluetooth-on').failureReason).toMatch(/^the task failed: 3 actions in a row failed.*e999/);
    expect(byId(report, 'contacts-bob-number').failureReason).toMatch(/does not contain Bob's number/);
    expect(byId(report, 'clock-timer-infeasible').failureReason).toMatch(/impossible on this phone/);
    // In the app's words: no internal error names.
    expect(byId(report, 'notes-door-code').failureReason).toMatch(/^the task failed: .*HTTP 500/);
    expect(byId(report, 'notes-door-code').failureReason).not.toMatch(/ToolCallUnavailable|Error:/);
    expect(byId(report, 'settings-dark-theme-on').failureReason).toBe('the agent gave up: Dark theme is not supported.');
    expect(JSON.parse(await readFile(path.join(misbehavingOut, 'eval.json'), 'utf8'))).toEqual(report);
  }, 300_000);

  it('Scenario: The eval report renders in a browser and links each task to its report', async () => {
    const browser = await launchTestBrowser();
    try {
      const page = await browser.context.newPage();
      await page.goto(pathToFileURL(path.join(misbehavingOut, 'index.html')).href);
      await expect.poll(() => page.locator('tbody tr').count()).toBe(8);
      expect(await page.locator('.totals').innerText()).toMatch(/^1\/8 tasks passed: 12\.5% \[95% CI/);
      const row = page.locator('tbody tr', { hasText: 'contacts-bob-number' });
      expect(await row.locator('td').nth(2).innerText()).toBe('FAIL 0/2');
      expect(await row.locator('td').nth(5).innerText()).toBe('—');
      expect(await page.locator('.price').innerText()).toBe('Cost: not shown, claude-unlisted-9 has no entry in the price table (Settings → Limits)');
      await row.locator('a', { hasText: 'run 1' }).click();
      await page.waitForURL(/tasks\/contacts-bob-number-1\.html$/);
      expect(await page.locator('body').innerText()).toContain("What is Bob Smith's phone number?");
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('Scenario: Two eval results compare side by side', async () => {
    const a = path.join(misbehavingOut, 'scripted.json');
    await writeFile(a, JSON.stringify(scriptedRun));
    const b = path.join(misbehavingOut, 'eval.json');
    const result = await runAmc(['eval', '--compare', a, b], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    const line = (id: string) => result.stdout.split('\n').find((l) => l.startsWith(`${id} `)) ?? '';
    expect(line('settings-wifi-off')).toMatch(/pass .*FAIL 0\/2.*\*$/);
    expect(line('clock-add-0630')).toMatch(/pass \d+ steps? \$0\.\d+ [\d.]+ s +pass 2\/2 \d+ steps? — .*$/);
    expect(line('clock-add-0630')).not.toMatch(/\*$/);
    expect(line('messages-reply-bob')).toMatch(/pass .*not run/);
    expect(result.stdout).toMatch(new RegExp(`^A: ${PHONE_TASKS.length}/${PHONE_TASKS.length} tasks passed: 100%.*; cost \\$[\\d.]+ in all;`, 'm'));
    expect(result.stdout).toMatch(/^B: 1\/8 tasks passed: 12\.5%/m);
    const bad = await runAmc(['eval', '--compare', a, path.join(misbehavingOut, 'index.html')], { env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/index\.html is not JSON/);
  }, 60_000);

  it('Scenario: The stub planner runs the suite and scores near zero; Scenario: amc eval exits 1 unless every task passed', async () => {
    const result = await runAmc(['eval', '--planner', 'stub', '--tasks', 'settings,clock', '--parallel', '2'], { env: env(), timeoutMs: 120_000 });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/^task +result +steps +tokens +cost +time +failure reason$/m);
    expect(result.stdout).toMatch(/^settings-wifi-off +FAIL +1 +0 +— +[\d.]+ s +Wi-Fi is still on$/m);
    expect(result.stdout).toMatch(/^0\/14 tasks passed: 0% \[95% CI 0%–21\.5%\]/m);
    expect(result.stdout).toContain('Planner: built-in planner (no AI)');
    expect(result.stdout).toContain('Cost: none (no model)');
  }, 120_000);

  it('Scenario: amc eval refuses bad options in plain words', async () => {
    const unknown = await runAmc(['eval', '--tasks', 'settings,teleport'], { env: env() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--tasks: no task matches "teleport"; tasks: settings-wifi-off/);
    const parallel = await runAmc(['eval', '--parallel', '0'], { env: env() });
    expect(parallel.code).toBe(2);
    expect(parallel.stderr).toMatch(/--parallel must be a whole number from 1 to 16, got "0"/);
    const noKey = await runAmc(['eval', '--tasks', 'settings-wifi-off'], { env: { ...env(), ANTHROPIC_API_KEY: '' } });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/Anthropic API key is not set \(Settings → Direct access\)/);
  }, 60_000);
});
