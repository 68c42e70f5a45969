// `amc mcp --http` sessions whose agents go away, misbehave or go quiet: the official MCP SDK client against a real
// `amc mcp` child process, the real adb server and the demo phone; `amc run`, `amc doctor` and the app's router
// are the ones kept waiting. The lock folder shared by all of them is where a hold is seen.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locksFolder } from '../../src/core/storage/device-lock';
import type { PhoneStateView } from '@amc/demo-phone';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { interrupt, runAmc, startAmc } from '../support/cli';
import { isolatedEnv, startTestApp } from '../app/app-fixture';

const TOKEN = 'sessions-token-0123456789abcdef';
let harness: AdbHarness;
let home: string;
const servers: ChildProcess[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  harness = await startAdbHarness();
  home = await mkdtemp(path.join(tmpdir(), 'amc-mcp-sessions-'));
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await Promise.all(servers.map((child) => interrupt(child)));
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

const env = (): NodeJS.ProcessEnv => isolatedEnv(harness.env, { AMC_HOME: home, AMC_MCP_TOKEN: TOKEN });

/** `amc mcp --http` with the given idle timeout (seconds), as its own process. */
async function startServer(idleTimeoutSeconds: string): Promise<string> {
  const { child, match } = await startAmc(['mcp', '--http', '--idle-timeout', idleTimeoutSeconds], /MCP server \(Streamable HTTP\) at (\S+)/, { env: env() });
  servers.push(child);
  return match[1]!;
}

async function connect(url: string, name: string, authorization = `Bearer ${TOKEN}`): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: authorization } } }));
  clients.push(client);
  return client;
}

const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
const release = async (client: Client) => (await client.callTool({ name: 'release_phone', arguments: { serial: harness.serial } })) as CallToolResult;
const act = async (client: Client, tool: string, args: Record<string, unknown>) =>
  (await client.callTool({ name: 'act', arguments: { serial: harness.serial, tool, args } })) as CallToolResult;
const heldLocks = async () => (await readdir(locksFolder(home)).catch(() => [])).filter((name) => name.endsWith('.lock'));
const state = async () => (await harness.control<PhoneStateView>('/state')).body;
/** `amc run` with the stub planner on the demo phone: it only has to be allowed to start. */
const amcRun = () => runAmc(['run', '-s', harness.serial, '--planner', 'stub', '--max-steps', '1', '--goal', 'Look at the screen'], { env: env() });

describe('amc mcp --http sessions', () => {
  let url: string;
  beforeAll(async () => {
    // Long enough that only the client's own disconnect can explain a release within these tests.
    url = await startServer('600');
  }, 60_000);

  it('Scenario: An agent that disconnects without DELETE frees its phone', async () => {
    const agent = await connect(url, 'vanishing-agent');
    const first = await act(agent, 'press_key', { key: 'home' });
    expect(first.isError, textOf(first)).toBeFalsy();

    // Held: `amc run` and `amc doctor` name the holder as it is, and how to free it.
    const refused = await amcRun();
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(/is being driven by an MCP agent \(vanishing-agent, session started \d\d:\d\d, process \d+\)\. It is freed when the agent calls release_phone or disconnects, and at the latest 600 s after its last request; to take it back now, press Stop on this phone in the app/);
    const doctor = await runAmc(['doctor', '--json'], { env: env() });
    const phoneRow = (JSON.parse(doctor.stdout) as { checks: Array<{ check: string; status: string; detail: string }> }).checks.find((row) => row.check === `phone ${harness.serial}`);
    expect(phoneRow).toMatchObject({ status: 'warn', detail: expect.stringMatching(/^busy: driven by an MCP agent \(vanishing-agent, session started/) });

    // What the SDK's close() does (as the MCP Inspector and mcp-remote): the connections drop, no DELETE is sent.
    await agent.close();
    await expect.poll(heldLocks, { timeout: 20_000 }).toEqual([]);
    const run = await amcRun();
    expect(run.stdout + run.stderr).not.toMatch(/being driven/);
    expect(run.stdout).toMatch(new RegExp(`Task \\S+ on ${harness.serial.replace(/[.]/g, '\\.')}`));
  }, 90_000);

  it('Scenario: A rejected first act takes no lock', async () => {
    const careless = await connect(url, 'careless-agent');
    const rejected = await act(careless, 'tap', { element_id: 5 });
    expect(rejected.isError).toBe(true);
    expect(textOf(rejected)).toMatch(/Invalid arguments for tap: element_id/);
    expect(await heldLocks()).toEqual([]);
    // Another agent (or `amc run`) may take the phone at once.
    const other = await connect(url, 'other-agent');
    const allowed = await act(other, 'press_key', { key: 'home' });
    expect(allowed.isError, textOf(allowed)).toBeFalsy();
    await other.callTool({ name: 'release_phone', arguments: { serial: harness.serial } });
    expect(await heldLocks()).toEqual([]);
  }, 60_000);

  it('Scenario: Releasing a phone another agent holds says who holds it', async () => {
    const holder = await connect(url, 'holding-agent');
    expect((await act(holder, 'press_key', { key: 'home' })).isError).toBeFalsy();
    const bystander = await connect(url, 'bystander-agent');
    expect(textOf(await release(bystander))).toMatch(/^This session does not hold .+, so it cannot release it: an MCP agent \(holding-agent, session started \d\d:\d\d, process \d+\) drives it\. It is freed when the agent calls release_phone/);
    expect(await heldLocks()).toHaveLength(1);
    await release(holder);
    expect(textOf(await release(bystander))).toMatch(/is free: this session did not hold it, and nobody else does/);
    expect(await heldLocks()).toEqual([]);
  }, 60_000);

  it("Scenario: The app's Stop takes the phone back from an MCP agent", async () => {
    const agent = await connect(url, 'stubborn-agent');
    expect((await act(agent, 'press_key', { key: 'home' })).isError).toBeFalsy();
    const app = await startTestApp({ home, env: isolatedEnv(harness.env) });
    try {
      const refused = await app.fail('tasks.run', { serial: harness.serial, goal: 'Look at the screen', overrides: { planner: 'stub' } });
      expect(refused.message).toMatch(/driven by an MCP agent \(stubborn-agent/);
      const stopped = await app.call('tasks.stop', { serial: harness.serial });
      expect(stopped).toMatchObject({ taskId: expect.stringMatching(/^mcp-agent-/), status: 'cancelled' });
      const task = await app.call('tasks.run', { serial: harness.serial, goal: 'Look at the screen', maxSteps: 1, overrides: { planner: 'stub' } });
      await app.waitForTaskEvent(task.id, 'task.finished');
      // The agent hears it at its next action, which does nothing to the phone.
      await harness.shell('am start -n com.android.settings/.Settings');
      const next = await act(agent, 'press_key', { key: 'home' });
      expect(next.isError).toBe(true);
      expect(textOf(next)).toMatch(/the person took phone \S+ back \(Stop in the app\)/);
      expect((await state()).foreground).toBe('com.android.settings');
      expect(await heldLocks()).toEqual([]);
    } finally {
      await app.close();
    }
  }, 90_000);

  it('Scenario: MCP over HTTP answers an oversized body with 413 and accepts a lower-case bearer scheme', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const huge = JSON.stringify({ ...init, params: { ...init.params, padding: 'x'.repeat(2 * 1024 * 1024) } });
    const oversized = await fetch(url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${TOKEN}` }, body: huge });
    expect(oversized.status).toBe(413);
    expect(((await oversized.json()) as { error: { message: string } }).error.message).toMatch(/larger than 1048576 bytes/);
    // RFC 9110: the scheme is case-insensitive; the SDK client works with it too.
    const lower = await fetch(url, { method: 'POST', headers: { ...headers, authorization: `bearer ${TOKEN}` }, body: JSON.stringify(init) });
    expect(lower.status).toBe(200);
    const agent = await connect(url, 'lower-case-agent', `bearer ${TOKEN}`);
    expect((await agent.listTools()).tools.length).toBeGreaterThan(0);
  }, 60_000);
});

describe('amc mcp --http idle timeout', () => {
  it('Scenario: A quiet session frees its phone after the idle timeout and an abandoned one ends', async () => {
    const url = await startServer('1');
    // A connected agent that goes quiet: its phone is freed, its session lives on and may take the phone again.
    const quiet = await connect(url, 'quiet-agent');
    expect((await act(quiet, 'press_key', { key: 'home' })).isError).toBeFalsy();
    await expect.poll(heldLocks, { timeout: 20_000 }).toEqual([]);
    const again = await act(quiet, 'press_key', { key: 'home' });
    expect(again.isError, textOf(again)).toBeFalsy();
    await quiet.callTool({ name: 'release_phone', arguments: { serial: harness.serial } });

    // A client that never opened the GET stream and stopped sending: its session ends and frees the phone.
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}` };
    const post = (body: object, sessionId?: string) =>
      fetch(url, { method: 'POST', headers: { ...headers, ...(sessionId && { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }) }, body: JSON.stringify(body) });
    const initialized = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'post-only', version: '1' } } });
    const sessionId = initialized.headers.get('mcp-session-id')!;
    await initialized.text();
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId)).text();
    const acted = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'act', arguments: { serial: harness.serial, tool: 'press_key', args: { key: 'home' } } } }, sessionId);
    expect(await acted.text()).not.toMatch(/"isError":true/);
    await expect.poll(heldLocks, { timeout: 20_000 }).toEqual([]);
    await expect.poll(async () => (await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, sessionId)).status, { timeout: 20_000 }).toBe(404);
  }, 90_000);
});
