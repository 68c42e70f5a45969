// The web host under hostile and unlucky clients: malformed frames, oversized frames, a window that stops
// reading, a flood of requests. The real app drives the virtual phone meanwhile; its task must finish.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createRouter } from '../../../src/app/ipc/router';
import { EventHub } from '../../../src/app/ipc/event-hub';
import { startWebHost, type WebHost } from '../../../src/app/web/web-host';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';
import { finish, startAnthropicFake, tapLabel, type AnthropicFake } from '../../fakes/index';
import { OPCODE, openRawWebSocket } from '../../support/raw-websocket';
import { runWebFuzz } from '../../support/web-fuzz';
import { isolatedEnv, removeHome, startTestApp, until, type TestApp } from '../app-fixture';

const UNSENT_LIMIT = 256 * 1024;

let harness: AdbHarness;
let fake: AnthropicFake;
let app: TestApp;
let host: WebHost;
let rendererDir: string;
/** Per goal: the first model call waits for its gate, then taps Settings; the next one finishes. */
const gates = new Map<string, { open: Promise<void>; release: () => void; calls: number }>();
function gateFor(goal: string) {
  let gate = gates.get(goal);
  if (!gate) {
    let release!: () => void;
    const open = new Promise<void>((resolve) => (release = resolve));
    gate = { open, release, calls: 0 };
    gates.set(goal, gate);
  }
  return gate;
}

beforeAll(async () => {
  harness = await startAdbHarness();
  // A task's first turn waits until the test has thrown everything at the host; then it opens Settings.
  fake = await startAnthropicFake({
    policy: async (turn) => {
      const gate = gateFor(turn.goal ?? '');
      if (gate.calls++ > 0) return finish(true, 'Settings is open');
      await gate.open;
      return tapLabel('Settings')(turn) ?? finish(false, 'no Settings icon on the screen');
    },
  });
  app = await startTestApp({ env: isolatedEnv(harness.env) });
  rendererDir = await mkdtemp(path.join(os.tmpdir(), 'amc-renderer-'));
  host = await startWebHost({ router: app.app.router, events: app.app.events, rendererDir, limits: { unsentBytes: UNSENT_LIMIT } });
}, 60_000);

afterAll(async () => {
  for (const gate of gates.values()) gate.release();
  await host?.close();
  await app?.close();
  await fake?.close();
  await harness?.stop();
  if (app) await removeHome(app.home);
  if (rendererDir) await rm(rendererDir, { recursive: true, force: true });
});

const wsPath = () => `/ws?token=${host.token}`;
const openRaw = () => openRawWebSocket(host.port, wsPath(), host.origin);

/** A well-behaved window: one request, its answer. */
async function call(method: string, input: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string; issues?: string[] } }> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}${wsPath()}`, { origin: host.origin });
  try {
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answer = new Promise<string>((resolve) =>
      ws.on('message', (data, binary) => {
        const text = binary ? '' : data.toString();
        if (text.includes('"type":"result"')) resolve(text);
      }),
    );
    ws.send(JSON.stringify({ id: 7, method, input }));
    return (JSON.parse(await answer) as { result: never }).result;
  } finally {
    ws.close();
  }
}

/** Starts a task whose first model call is held until `gateFor(goal).release()`. */
async function startHeldTask(goal: string): Promise<string> {
  await harness.shell('input keyevent 3');
  const calls = fake.requests.length;
  const saved = await app.call('settings.update', {
    patch: {
      aiPlanner: { enabled: true, provider: 'anthropic', transport: 'direct', model: 'claude-test', timeoutSeconds: 600, sendScreenshot: false },
      anthropic: { baseURL: fake.url },
    },
  });
  expect(saved.saved).toBe(true);
  await app.call('settings.setSecret', { name: 'ANTHROPIC_API_KEY', value: 'test-anthropic-key' });
  const started = await app.call('tasks.run', { serial: harness.serial, goal });
  await until(() => fake.requests.length > calls, 20_000, 'the first model call');
  return started.id;
}

describe('web host hardening', () => {
  it('Scenario: Bad frames and a slow reader close only their own connection while a task runs', async () => {
    const goal = 'Open the Settings app';
    const taskId = await startHeldTask(goal);

    const invalidUtf8 = await openRaw();
    invalidUtf8.send(OPCODE.text, Uint8Array.from([0xff, 0xfe]));
    expect(await invalidUtf8.closed).toEqual({ code: 1007, reason: 'a text frame was not valid UTF-8' });

    // Only the header of a 50 MB frame: the host refuses on the length alone, before buffering anything.
    const oversized = await openRaw();
    oversized.send(OPCODE.text, new Uint8Array(0), { claimedLength: 50 * 1024 * 1024 });
    expect(await oversized.closed).toEqual({ code: 1009, reason: 'a message was larger than 1048576 bytes' });

    // A window that sends requests but never reads their answers is disconnected, not buffered.
    const slow = await openRaw();
    slow.socket.pause();
    const request = JSON.stringify({ id: 1, method: 'settings.get', input: {} });
    let sent = 0;
    while (host.connections > 0 && sent < 200_000) {
      for (let i = 0; i < 200; i++) slow.send(OPCODE.text, request);
      sent += 200;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await until(() => host.connections === 0, 20_000, 'the slow reader to be disconnected');
    expect(sent).toBeLessThan(200_000);
    slow.socket.destroy();

    // The host still serves, and refuses a 100,000-character serial without echoing it.
    expect(await call('app.ping', { nonce: 'still-here' })).toMatchObject({ ok: true, value: { nonce: 'still-here' } });
    const longSerial = 'S'.repeat(100_000);
    for (const [method, input] of [
      ['mirror.start', { serial: longSerial }],
      ['tasks.run', { serial: longSerial, goal: 'x' }],
    ] as const) {
      const result = await call(method, input);
      expect(result.error?.code).toBe('invalid_input');
      expect(result.error?.issues).toEqual(['serial: must be at most 300 characters']);
      expect(JSON.stringify(result)).not.toContain('SSSS');
    }

    // The task was untouched by all of it: it finishes and the phone shows Settings.
    expect((await app.call('tasks.current', { serial: harness.serial })).task?.id).toBe(taskId);
    gateFor(goal).release();
    const finished = await app.waitForTaskEvent(taskId, 'task.finished', 30_000);
    expect(finished).toMatchObject({ status: 'completed', failureReason: null });
    expect((await harness.control<{ foreground: string }>('/state')).body.foreground).toBe('com.android.settings');
  });

  it('a window that goes away mid-connection (a reset) leaves no warning, and the host serves on', async () => {
    const warnings: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args.join(' ')));
    try {
      for (let round = 0; round < 5; round++) {
        const window = await openRaw();
        // The host is sending the mirror's frames when the window's side resets: a write fails with EPIPE or ECONNRESET.
        window.send(OPCODE.text, JSON.stringify({ id: 1, method: 'mirror.start', input: { serial: harness.serial } }));
        await new Promise((resolve) => setTimeout(resolve, 400));
        window.socket.resetAndDestroy();
        await window.closed;
      }
      expect(await call('app.ping', { nonce: 'after-resets' })).toMatchObject({ ok: true, value: { nonce: 'after-resets' } });
      expect(warnings.filter((line) => line.startsWith('Web host:'))).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });

  it('Scenario: A thousand fuzzed frames leave the host serving and the task finishing', async () => {
    const goal = 'Open the Settings app under fuzzing';
    const taskId = await startHeldTask(goal);
    const result = await runWebFuzz(host, 1_000, 10);
    expect(result.frames).toBeGreaterThanOrEqual(1_000);
    // Every protocol-breaking step was closed by the host with its code; none took the host down.
    const fatalSteps = ['invalid-utf8', 'oversized', 'orphan-continuation', 'unmasked', 'reserved-bits'].reduce((sum, kind) => sum + (result.byKind[kind] ?? 0), 0);
    expect(Object.values(result.closedBy).reduce((a, b) => a + b, 0)).toBe(fatalSteps);
    expect(Object.keys(result.closedBy).sort()).toEqual(['1002', '1007', '1009']);
    expect(await call('app.ping', { nonce: 'after-fuzz' })).toMatchObject({ ok: true, value: { nonce: 'after-fuzz' } });
    // No fuzz request was valid, so none touched the task: it is still waiting on its model call.
    expect((await app.call('tasks.current', { serial: harness.serial })).task).toMatchObject({ id: taskId, status: 'running' });
    gateFor(goal).release();
    expect(await app.waitForTaskEvent(taskId, 'task.finished', 30_000)).toMatchObject({ status: 'completed' });
    expect((await harness.control<{ foreground: string }>('/state')).body.foreground).toBe('com.android.settings');
    await until(() => host.connections === 0, 10_000, 'every fuzz connection to end');
  });

  it('Scenario: Requests beyond the in-flight cap are answered busy without running', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    const router = createRouter({
      'app.ping': async (input) => {
        started++;
        await gate;
        return { nonce: input.nonce, serverTime: 1 };
      },
    });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'amc-renderer-'));
    const gated = await startWebHost({ router, events: new EventHub(), rendererDir: dir, limits: { requestsInFlight: 3 } });
    try {
      const raw = await openRawWebSocket(gated.port, `/ws?token=${gated.token}`, gated.origin);
      for (let id = 1; id <= 5; id++) raw.send(OPCODE.text, JSON.stringify({ id, method: 'app.ping', input: { nonce: `n${id}` } }));
      await until(() => raw.texts.length === 2, 10_000, 'two busy answers');
      const busy = raw.texts.map((text) => JSON.parse(text) as { id: number; result: { error: { code: string; message: string } } });
      expect(busy.map((answer) => answer.id)).toEqual([4, 5]);
      expect(busy[0]!.result.error.code).toBe('unavailable');
      expect(busy[0]!.result.error.message).toBe('Too many requests at once on this connection (at most 3): wait for answers before sending more.');
      expect(started).toBe(3);
      release();
      await until(() => raw.texts.length === 5, 10_000, 'the held answers');
      expect(raw.texts.slice(2).map((text) => (JSON.parse(text) as { id: number }).id).sort()).toEqual([1, 2, 3]);
      raw.socket.destroy();
    } finally {
      await gated.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
