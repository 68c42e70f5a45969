// `amc run` as a user runs it: a child process against the real adb server, the virtual device and the
// loopback provider fakes.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TaskEventSchema } from '../../src/shared/task';
import { createTaskStore } from '../../src/core/storage/task-store';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { anthropicDirectEnv, interrupt, plantDeveloperShellEnv, runAmc, startAmc } from '../support/cli';
import { finish, findElement, startAnthropicFake, type AnthropicFake, type FakePolicy } from '../fakes/index';

let harness: AdbHarness;
let fake: AnthropicFake;
let home: string;
let policy: FakePolicy = () => finish(true, 'idle');
let restoreShellEnv: () => void;

beforeAll(async () => {
  // A developer's shell with keys and planner switches set: every child below must behave as without them.
  restoreShellEnv = plantDeveloperShellEnv();
  harness = await startAdbHarness();
  fake = await startAnthropicFake({ policy: (turn) => policy(turn) });
  home = await mkdtemp(path.join(tmpdir(), 'amc-run-home-'));
}, 60_000);

afterAll(async () => {
  restoreShellEnv?.();
  await fake?.close();
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

beforeEach(async () => {
  await harness.control('/reset', { body: {} });
});

/** The real adb binary (the wrapper in the --adb-path test execs it). */
const realAdb = execFileSync('sh', ['-c', 'readlink -f "$(command -v adb)"'], { encoding: 'utf8' }).trim();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** A TCP forwarder from `host`:(free port) to 127.0.0.1:`targetPort`, counting the connections it carried. */
async function forwardPort(host: string, targetPort: number): Promise<{ port: number; connections(): number; close(): Promise<void> }> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    connections += 1;
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The environment of a user whose AI planner talks to Anthropic directly (here: the fake), with thinking on. */
const env = (extra: NodeJS.ProcessEnv = {}) => anthropicDirectEnv(harness, home, fake.url, { AI_PLANNER_THINKING_BUDGET_TOKENS: '1024', ...extra });

const openNotes: FakePolicy = (turn) => {
  if (turn.scene?.screen.package.includes('notes')) return finish(true, 'Notes is open', 'The Notes list is showing.');
  const notes = findElement(turn.scene, 'Notes');
  return notes
    ? { kind: 'call', tool: 'tap', args: { element_id: notes.id }, text: 'Notes is on the home screen; tapping it.', thinking: 'The launcher shows a Notes icon.' }
    : { kind: 'call', tool: 'press_key', args: { key: 'home' }, text: 'Going home first.' };
};

describe('amc run', () => {
  it('Scenario: amc run prints each turn and the result', async () => {
    policy = openNotes;
    const result = await runAmc(['run', '-s', harness.serial, '--goal', 'Open the Notes app'], { env: env() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(/planner: ai \(anthropic, direct, claude-/);
    expect(out).toContain('Goal: Open the Notes app');
    expect(out).toContain('[1] tap {"element_id":"e4"}');
    expect(out).toContain('rationale: Notes is on the home screen; tapping it.');
    expect(out).toContain('thinking: The launcher shows a Notes icon.');
    expect(out).toMatch(/-> ok on TextView "Notes" \([\d,.]+ m?s\)/);
    expect(out).toContain('[2] finish_task {"success":true,"reason":"Notes is open"}');
    expect(out).toMatch(/Done \(1 action, [\d.,]+ m?s, [\d,.]+ tokens in · [\d,.]+ out\): Notes is open/);
    expect((await harness.control<{ foreground: string }>('/state')).body.foreground).toMatch(/notes/);
  });

  it('Scenario: amc run keeps the task in the app history', async () => {
    policy = openNotes;
    const before = (await createTaskStore(home).list()).tasks;
    const result = await runAmc(['run', '-s', harness.serial, '--goal', 'Open the Notes app, from the CLI'], { env: env() });
    expect(result.code).toBe(0);
    const after = (await createTaskStore(home).list()).tasks;
    expect(after).toHaveLength(before.length + 1);
    const saved = after.find((task) => task.goal === 'Open the Notes app, from the CLI');
    expect(saved).toMatchObject({ serial: harness.serial, status: 'completed', steps: 1 });
    const record = await createTaskStore(home).get(saved!.id);
    expect(record?.steps.map((step) => step.planned?.tool)).toEqual(['tap', 'finish_task']);
  });

  it('Scenario: amc run --json prints one JSON object per event', async () => {
    policy = openNotes;
    const result = await runAmc(['run', '-s', harness.serial, '--goal', 'Open the Notes app', '--json'], { env: env() });
    expect(result.code).toBe(0);
    const events = result.stdout.trim().split('\n').map((line) => TaskEventSchema.parse(JSON.parse(line)));
    expect(events.map((e) => e.type)).toEqual(['task.started', 'step.observed', 'step.planned', 'step.executed', 'step.observed', 'step.verified', 'step.planned', 'task.finished']);
    expect(events.at(-1)).toMatchObject({ status: 'completed', result: 'Notes is open' });
  });

  it('Scenario: amc run with the built-in planner says it only looked at the screen', async () => {
    const before = fake.requests.length;
    const result = await runAmc(['run', '-s', harness.serial, '--goal', 'Turn on Wi-Fi', '--planner', 'stub'], { env: env() });
    // The seed's stub behaviour stays (one look at the screen, then "completed" in the record), but nothing was
    // carried out, so a script must not read it as a pass.
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('planner: built-in (no AI)');
    expect(result.stdout).toContain('[1] describe_screen {}');
    expect(result.stdout).toMatch(/Looked at the screen only — the AI planner is off \(1 action, .*\)\. Turn it on in Settings/);
    expect(result.stdout).not.toMatch(/Done|Completed/);
    expect(fake.requests.length).toBe(before);
  });

  it('Scenario: amc run reaches the adb server given by --adb-host, --adb-port and --adb-path', async () => {
    // No ANDROID_ADB_SERVER_PORT and no adb on PATH: only the options can lead amc to a server and a binary.
    const { ANDROID_ADB_SERVER_PORT: _port, ...environment } = env({ PATH: home });
    const stub = ['--goal', 'Look at the screen', '--planner', 'stub'];

    // --adb-host: the harness's server, reachable only at another loopback address (127.0.0.2) on another port.
    // Were the host ignored, amc would look on 127.0.0.1 and, finding nothing, fail to start adb from a bad path.
    const forward = await forwardPort('127.0.0.2', harness.adbPort);
    try {
      const remote = ['--adb-host', '127.0.0.2', '--adb-port', String(forward.port), '--adb-path', path.join(home, 'no-adb-here')];
      const result = await runAmc(['run', '-s', harness.serial, ...stub, ...remote], { env: environment });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(3); // the built-in planner only looks
      expect(result.stdout).toContain('[1] describe_screen {}');
      expect(forward.connections()).toBeGreaterThan(0);
    } finally {
      await forward.close();
    }

    // --adb-path: a fresh port with no server yet, started by the given binary (a wrapper that logs its calls).
    const log = path.join(home, 'adb-wrapper.log');
    const wrapper = path.join(home, 'my-adb');
    await writeFile(wrapper, `#!/bin/sh\necho "$@" >> '${log}'\nexec '${realAdb}' "$@"\n`, { mode: 0o755 });
    const freshPort = String(await freePort());
    const local = ['--adb-port', freshPort, '--adb-path', wrapper];
    try {
      // amc run starts that server with the wrapper; the new server does not know the phone yet.
      // An unknown serial is a usage error, found before any task starts.
      const first = await runAmc(['run', '-s', harness.serial, ...stub, ...local], { env: environment });
      expect(first.code).toBe(2);
      expect(first.stderr).toContain(`No device "${harness.serial}" is connected to the adb server at 127.0.0.1:${freshPort}`);
      expect(first.stdout).toBe('');
      expect(await readFile(log, 'utf8')).toContain('start-server');
      const connected = await runAmc(['connect', harness.serial, ...local], { env: environment });
      expect(connected.code).toBe(0);
      const result = await runAmc(['run', '-s', harness.serial, ...stub, ...local], { env: environment });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(3); // the built-in planner only looks
      expect(result.stdout).toContain('[1] describe_screen {}');
    } finally {
      await harness.adb(['-P', freshPort, 'kill-server'], { timeoutMs: 5_000 }).catch(() => undefined);
    }

    const badPort = await runAmc(['run', '-s', harness.serial, '--goal', 'x', '--adb-port', 'seven'], { env: environment });
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('--adb-port must be a whole number from 0 to 65535, got "seven"');
  }, 90_000); // five child processes and an adb server start: slow on a busy machine

  it('Scenario: amc run reports a failed task with exit code 1', async () => {
    policy = () => finish(false, 'There is no Calculator app on this phone');
    const result = await runAmc(['run', '-s', harness.serial, '--goal', 'Open the Calculator'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/Failed \(0 actions, .*\): There is no Calculator app on this phone/);
    // Plain words: the recorded reason keeps its class name (seed D7), the terminal does not show it.
    expect(result.stdout).not.toContain('TaskFailedError');
  });

  it('Scenario: amc run exits 3 when it only looked and 4 when a success is not verified', async () => {
    await harness.control('/reset', { body: { settings: { wifi: false, bluetooth: false } } });
    const lookedOnly = await runAmc(['run', '-s', harness.serial, '--goal', 'Turn on Wi-Fi', '--planner', 'stub'], { env: env() });
    expect(lookedOnly.code).toBe(3);
    // The model claims success without having done anything: the runtime cannot confirm it.
    policy = () => finish(true, 'Wi-Fi is on');
    const claimed = await runAmc(['run', '-s', harness.serial, '--goal', 'Turn on Wi-Fi'], { env: env() });
    expect(claimed.code).toBe(4);
    expect(claimed.stdout).toMatch(/Done, not verified: no action was taken in this task, so nothing confirms the goal was reached \(0 actions, .*\)\. The model said: Wi-Fi is on/);
    expect((await harness.control<{ settings: { wifi: boolean } }>('/state')).body.settings.wifi).toBe(false);
  });

  it('Scenario: amc run rejects bad options and configuration with exit code 2', async () => {
    const badOption = await runAmc(['run', '-s', harness.serial, '--goal', 'x', '--transport', 'pigeon'], { env: env() });
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toContain('--transport must be one of cloud-proxy, direct, got "pigeon"');
    const missingGoal = await runAmc(['run', '-s', harness.serial], { env: env() });
    expect(missingGoal.code).toBe(2);
    expect(missingGoal.stderr).toContain('--goal TEXT is required');
    const badEnv = await runAmc(['run', '-s', harness.serial, '--goal', 'x'], { env: env({ AI_PLANNER_MAX_STEPS: 'many' }) });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain('AI_PLANNER_MAX_STEPS must be a whole number from 1 to 500 (got "many")');
    const longGoal = await runAmc(['run', '-s', harness.serial, '--goal', 'g'.repeat(5_000)], { env: env() });
    expect(longGoal.code).toBe(2);
    expect(longGoal.stderr).toMatch(/^amc run: goal: must be at most 2,000 characters/);
    const noKey = await runAmc(['run', '-s', harness.serial, '--goal', 'x', '--provider', 'openai'], { env: env() });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('OpenAI API key is not set (Settings → Direct access)');
  });

  it('Scenario: Ctrl-C cancels amc run cleanly', async () => {
    policy = () => ({ kind: 'hang' });
    const abandoned = fake.abandoned();
    const before = fake.requests.length;
    const { child, output } = await startAmc(['run', '-s', harness.serial, '--goal', 'Open the Notes app'], /Goal: /, { env: env() });
    await expect.poll(() => fake.requests.length, { timeout: 20_000 }).toBe(before + 1);
    const code = await interrupt(child);
    expect(code).toBe(130);
    expect(output()).toMatch(/Stopped \(0 actions/);
    await expect.poll(() => fake.abandoned()).toBe(abandoned + 1);
  });

  it('Scenario: SIGTERM to amc run records interrupted: the app was closed', async () => {
    policy = () => ({ kind: 'hang' });
    const before = fake.requests.length;
    const goal = 'Open the Notes app, then be shut down';
    const { child } = await startAmc(['run', '-s', harness.serial, '--goal', goal], /Goal: /, { env: env() });
    await expect.poll(() => fake.requests.length, { timeout: 20_000 }).toBe(before + 1);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    // The machine shut the CLI down; no person stopped the task: interrupted (exit 1), not stopped (130).
    expect(await exited).toBe(1);
    const saved = (await createTaskStore(home).list()).tasks.find((task) => task.goal === goal);
    expect(saved).toMatchObject({ status: 'cancelled', failureReason: 'interrupted: the app was closed', failureSaid: { code: 'stop.appClosed' } });
  });
});
