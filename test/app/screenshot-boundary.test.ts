// Seed D5 end to end: with screenshots ON, the AI planner (and only it) gets the phone's image. A structural
// scan of every other output of the real app finds no bytes: router results and events as IPC would carry
// them, WebSocket text messages, history lines on disk, the JSON and HTML exports, and `amc run --json`.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebHost, type WebHost } from '../../src/app/web/web-host';
import { TASKS_FOLDER } from '../../src/core/storage/task-store';
import type { TaskEvent } from '../../src/shared/task';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { findBytesInJson, findBytesInText, findBytesInValue, type ScanOptions } from '../support/byte-leak-scan';
import { anthropicDirectEnv, runAmc } from '../support/cli';
import { finish, scriptedPolicy, startAnthropicFake, tapLabel, FAKE_ANTHROPIC_KEY, type AnthropicFake } from '../fakes/index';
import { isolatedEnv, removeHome, startTestApp, type TestApp } from './app-fixture';

let harness: AdbHarness;
let fake: AnthropicFake;
let app: TestApp;
let host: WebHost;
let rendererDir: string;
let socket: WebSocket;
/** Every value that left main as a structured object (what Electron IPC sends as is). */
const structured: Array<{ where: string; value: unknown }> = [];
const socketMessages: string[] = [];

const openSettings = () => scriptedPolicy([tapLabel(/^Settings$/)], finish(true, 'Settings is open'));
let policy = openSettings();

beforeAll(async () => {
  harness = await startAdbHarness();
  fake = await startAnthropicFake({ policy: (turn) => policy(turn) });
  app = await startTestApp({ env: isolatedEnv(harness.env) });
  app.app.events.subscribe((name, payload) => structured.push({ where: `event ${name}`, value: payload }));
  rendererDir = await mkdtemp(path.join(tmpdir(), 'amc-renderer-'));
  host = await startWebHost({ router: app.app.router, events: app.app.events, rendererDir });
  socket = new WebSocket(`${host.origin.replace('http', 'ws')}/ws?token=${host.token}`, { headers: { origin: host.origin } });
  socket.on('message', (data, isBinary) => {
    if (!isBinary) socketMessages.push(data.toString());
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
}, 60_000);

afterAll(async () => {
  socket?.close();
  await host?.close();
  await app?.close();
  await fake?.close();
  await harness?.stop();
  if (app) await removeHome(app.home);
  if (rendererDir) await rm(rendererDir, { recursive: true, force: true });
});

/** Calls the router as both transports do, keeping the structured result. */
async function call(method: string, input: unknown): Promise<unknown> {
  const result = await app.app.router.call(method, input, { transport: 'electron' });
  structured.push({ where: `result of ${method}`, value: result });
  if (!result.ok) throw new Error(`${method} failed: ${result.error.message}`);
  return result.value;
}

/** Sends a request over the WebSocket and resolves with the answer's text. */
function socketCall(id: number, method: string, input: unknown): Promise<string> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData, isBinary: boolean) => {
      const text = data.toString();
      if (!isBinary && (JSON.parse(text) as { id?: number }).id === id) {
        socket.off('message', onMessage);
        resolve(text);
      }
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, method, input }));
  });
}

/** The images the provider received: the bytes that must appear nowhere else. */
function screenshotsSentToTheModel(): Uint8Array[] {
  const images: Uint8Array[] = [];
  for (const body of fake.bodies()) {
    for (const message of body.messages ?? []) {
      if (typeof message.content === 'string') continue;
      for (const block of message.content as Array<{ type: string; source?: { data?: string } }>) {
        if (block.type === 'image' && block.source?.data) images.push(Buffer.from(block.source.data, 'base64'));
      }
    }
  }
  return images;
}

describe('the screenshot boundary (D5)', () => {
  it('Scenario: No output of the app carries screenshot bytes, with screenshots sent to the planner', async () => {
    await call('settings.update', {
      patch: { aiPlanner: { enabled: true, provider: 'anthropic', transport: 'direct', model: 'claude-test', sendScreenshot: true }, anthropic: { baseURL: fake.url } },
    });
    await call('settings.setSecret', { name: 'ANTHROPIC_API_KEY', value: FAKE_ANTHROPIC_KEY });
    const started = (await call('tasks.run', { serial: harness.serial, goal: 'Open Settings' })) as { id: string };
    expect((await app.waitForTaskEvent(started.id, 'task.finished')).status).toBe('completed');
    await app.waitForEvent('history.changed', (p) => p.id === started.id && p.change === 'updated');
    expect((await harness.control<{ foreground: string }>('/state')).body.foreground).toBe('com.android.settings');

    // Screenshots really were on: the planner sent an image every turn.
    const scan: ScanOptions = { knownBytes: screenshotsSentToTheModel() };
    expect(scan.knownBytes).toHaveLength(2);
    expect(scan.knownBytes!.every((image) => image.byteLength > 1000)).toBe(true);

    await call('history.get', { id: started.id });
    await call('history.list', {});
    await call('tasks.current', {});
    const html = (await call('history.exportHtml', { id: started.id })) as { text: string };
    const json = (await call('history.exportJson', { id: started.id })) as { text: string };
    const overSocket = await socketCall(1, 'history.get', { id: started.id });
    const historyFile = await readFile(path.join(app.home, TASKS_FOLDER, `${started.id}.jsonl`), 'utf8');
    const historyLines = historyFile.trim().split('\n');
    expect(historyLines.length).toBeGreaterThanOrEqual(6);
    expect(socketMessages.some((m) => m.includes('"step.observed"'))).toBe(true);
    expect(historyFile).toContain('"screenshot":{"mediaType":"image/');

    const findings = [
      ...structured.flatMap(({ where, value }) => findBytesInValue(value, where, scan)),
      ...socketMessages.flatMap((message, i) => findBytesInJson(message, `WebSocket message ${i}`, scan)),
      ...findBytesInJson(overSocket, 'WebSocket history.get', scan),
      ...historyLines.flatMap((line, i) => findBytesInJson(line, `history line ${i + 1}`, scan)),
      ...findBytesInText(html.text, 'HTML report', scan),
      ...findBytesInJson(json.text, 'JSON export', scan),
    ];
    expect(findings).toEqual([]);
  });

  it('the scan sees bytes planted in an event, over IPC and over the WebSocket', async () => {
    const planted = new Uint8Array(Array.from({ length: 64 }, (_, i) => (i * 31 + 7) % 256));
    const before = socketMessages.length;
    const event = { type: 'task.paused', taskId: 'planted', at: 1, step: 0, raw: Buffer.from(planted) } as unknown as TaskEvent;
    app.app.events.publish('task.event', event);
    await expect.poll(() => socketMessages.length).toBeGreaterThan(before);
    const scan = { knownBytes: [planted] };
    expect(findBytesInValue(structured.at(-1)!.value, 'planted event', scan)).not.toEqual([]);
    expect(socketMessages.slice(before).flatMap((m) => findBytesInJson(m, 'planted message', scan))).not.toEqual([]);
  });

  it('Scenario: amc run --json lines carry no screenshot bytes', async () => {
    // Screenshots are on by default: the environment turns the AI planner on and sets nothing else.
    policy = openSettings();
    await harness.control('/reset', { body: {} });
    fake.requests.length = 0;
    const home = await mkdtemp(path.join(tmpdir(), 'amc-json-home-'));
    try {
      const result = await runAmc(['run', '-s', harness.serial, '--goal', 'Open Settings', '--json'], { env: anthropicDirectEnv(harness, home, fake.url) });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const scan: ScanOptions = { knownBytes: screenshotsSentToTheModel() };
      expect(scan.knownBytes).toHaveLength(2);
      expect((await harness.control<{ foreground: string }>('/state')).body.foreground).toBe('com.android.settings');
      const lines = result.stdout.trim().split('\n');
      expect(lines.some((line) => line.includes('"step.observed"') && line.includes('"screenshot":{'))).toBe(true);
      expect(lines.flatMap((line, i) => findBytesInJson(line, `--json line ${i + 1}`, scan))).toEqual([]);
      const files = await readdir(path.join(home, TASKS_FOLDER));
      const stored = await readFile(path.join(home, TASKS_FOLDER, files[0]!), 'utf8');
      expect(stored.trim().split('\n').flatMap((line, i) => findBytesInJson(line, `CLI history line ${i + 1}`, scan))).toEqual([]);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
