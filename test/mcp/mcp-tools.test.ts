// The MCP tool catalog as another agent reads it: the official MCP SDK client over stdio against a real `amc mcp`
// child, the real adb server and the virtual device (its GET /state says what changed), the Anthropic fake for
// run_goal; the HTTP transport's answer to a missing or wrong bearer token.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PhoneStateView } from '@amc/demo-phone';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { amcBin, interrupt, startAmc } from '../support/cli';
import { finish, findElement, startAnthropicFake, type AnthropicFake, type FakePolicy } from '../fakes/index';
import { directAnthropicEnv } from '../support/planner-env';
import { SceneSchema } from '../../src/shared/scene';
import { ACTION_TOOLS as REGISTERED } from '../../src/core/tools/registry';
import { hintsOf } from '../../src/mcp/server';

let harness: AdbHarness;
let fake: AnthropicFake;
let home: string;
let policy: FakePolicy = () => finish(true, 'idle');
const clients: Client[] = [];
let httpServer: ChildProcess | undefined;
const TOKEN = 'test-token-0123456789abcdef';

beforeAll(async () => {
  harness = await startAdbHarness();
  fake = await startAnthropicFake({ policy: (turn) => policy(turn) });
  home = await mkdtemp(path.join(tmpdir(), 'amc-mcp-tools-'));
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  if (httpServer) await interrupt(httpServer);
  await fake?.close();
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

beforeEach(async () => {
  await harness.control('/reset', { body: { settings: { wifi: false, bluetooth: false } } });
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  const vars: NodeJS.ProcessEnv = { PATH: process.env.PATH, ...directAnthropicEnv(harness, home, fake.url), AMC_MCP_TOKEN: TOKEN, ...extra };
  return Object.fromEntries(Object.entries(vars).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

async function connect(extra: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [amcBin, 'mcp'], env: env(extra), stderr: 'pipe' }));
  clients.push(client);
  return client;
}

const state = async () => (await harness.control<PhoneStateView>('/state')).body;
const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult;

const ACTION_TOOLS = ['tap', 'long_press', 'swipe', 'type_text', 'press_key', 'launch_app', 'open_url', 'wait'];
const READ_TOOLS = ['list_devices', 'observe', 'screenshot', 'screen_info', 'list_apps', 'task_status', 'task_history'];

describe('amc mcp tool catalog', { timeout: 120_000 }, () => {
  let agent: Client;
  let tools: Tool[];
  beforeAll(async () => {
    agent = await connect();
    tools = (await agent.listTools()).tools;
  }, 60_000);
  const named = (name: string) => tools.find((t) => t.name === name)!;

  it('Scenario: Every MCP tool has a title and annotations saying whether it only reads', () => {
    for (const name of ['act', 'release_phone', 'run_goal', 'start_demo_phone', ...ACTION_TOOLS, ...READ_TOOLS]) expect(named(name), name).toBeDefined();
    for (const t of tools) {
      expect(t.title, t.name).toMatch(/\w/);
      expect(Object.keys(t.annotations ?? {}).sort(), t.name).toEqual(['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint']);
    }
    for (const name of READ_TOOLS) expect(named(name).annotations, name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    for (const name of ['tap', 'type_text', 'act', 'run_goal']) expect(named(name).annotations, name).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(named('launch_app').annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    // Each action tool's title and hints are the registry's declaration, not a table of the server's own.
    for (const tool of REGISTERED.values()) {
      if (tool.offeredTo.includes('agent')) expect(named(tool.name), tool.name).toMatchObject({ title: tool.title, annotations: hintsOf(tool) });
    }
  });

  it('Scenario: Each action is its own MCP tool with its own argument schema, and act stays short', () => {
    const tap = named('tap').inputSchema as { properties: Record<string, { type?: string; description?: string }>; required?: string[]; additionalProperties?: boolean };
    expect(Object.keys(tap.properties).sort()).toEqual(['element_id', 'serial', 'x', 'y']);
    expect(tap.required).toEqual(['serial']);
    expect(tap.additionalProperties).toBe(false);
    expect(tap.properties.x).toMatchObject({ type: 'integer' });
    const press = named('press_key').inputSchema as unknown as { properties: { key: { enum: string[] } } };
    expect(press.properties.key.enum).toEqual(expect.arrayContaining(['back', 'home', 'enter', 'volume_up']));
    expect(Object.keys((named('open_url').inputSchema as { properties: object }).properties).sort()).toEqual(['serial', 'url']);
    expect(named('act').description!.length).toBeLessThan(400);
    // run_goal's optional parameters say what they do.
    const runGoal = named('run_goal').inputSchema as { properties: Record<string, { description?: string }> };
    for (const [name, property] of Object.entries(runGoal.properties)) expect(property.description, name).toMatch(/\w{3}/);
  });

  it('Scenario: A per-action MCP tool changes the phone', async () => {
    const launched = await call(agent, 'launch_app', { serial: harness.serial, app: 'Settings' });
    expect(launched.isError, textOf(launched)).toBeFalsy();
    expect((await state()).foreground).toBe('com.android.settings');
    const scene = SceneSchema.parse((await call(agent, 'observe', { serial: harness.serial })).structuredContent);
    const network = findElement(scene, 'Network & internet');
    expect((await call(agent, 'tap', { serial: harness.serial, element_id: network!.id })).isError).toBeFalsy();
    const wifi = findElement(SceneSchema.parse((await call(agent, 'observe', { serial: harness.serial })).structuredContent), 'Wi-Fi');
    expect((await call(agent, 'tap', { serial: harness.serial, element_id: wifi!.id })).isError).toBeFalsy();
    expect((await state()).settings.wifi).toBe(true);
    // Arguments another tool takes are refused before anything reaches the phone.
    const stray = await call(agent, 'press_key', { serial: harness.serial, key: 'home', element_id: 'e1' });
    expect(stray.isError).toBe(true);
    expect((await state()).foreground).toBe('com.android.settings');
    expect((await call(agent, 'press_key', { serial: harness.serial, key: 'home' })).isError).toBeFalsy();
    expect((await state()).foreground).toBe('com.android.launcher3');
    const opened = await call(agent, 'open_url', { serial: harness.serial, url: 'https://example.com/' });
    expect(opened.isError, textOf(opened)).toBeFalsy();
    expect((await state()).foreground).toMatch(/chrome|browser/);
    await call(agent, 'release_phone', { serial: harness.serial });
  });

  it('Scenario: Observe returns the Scene as structured content', async () => {
    const result = await call(agent, 'observe', { serial: harness.serial });
    const scene = SceneSchema.parse(result.structuredContent);
    expect(scene.screen.package).toBe('com.android.launcher3');
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it('Scenario: An MCP agent reads the screen size, the installed apps and a screenshot', async () => {
    const info = (await call(agent, 'screen_info', { serial: harness.serial })).structuredContent as Record<string, unknown>;
    expect(info).toMatchObject({ orientation: 'portrait', rotation: 0, foregroundApp: 'com.android.launcher3', keyboardShown: false });
    expect(info.height as number).toBeGreaterThan(info.width as number);
    const apps = (await call(agent, 'list_apps', { serial: harness.serial })).structuredContent as { apps: string[] };
    expect(apps.apps).toEqual(expect.arrayContaining(['com.android.settings', 'com.android.contacts']));
    const shot = await call(agent, 'screenshot', { serial: harness.serial });
    expect(shot.content[0]).toMatchObject({ type: 'image', mimeType: expect.stringMatching(/^image\//) });
  });
});

describe('amc mcp run_goal outcomes', { timeout: 120_000 }, () => {
  it('Scenario: run_goal with the built-in planner is an MCP error with status looked_only', async () => {
    const agent = await connect();
    const result = await call(agent, 'run_goal', { serial: harness.serial, goal: 'Turn on Wi-Fi', planner: 'stub' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 'looked_only', outcome: 'looked only' });
    expect((await state()).settings.wifi).toBe(false);
  });

  it('Scenario: run_goal that claims success without an action is an MCP error with status not_verified', async () => {
    policy = () => finish(true, 'Wi-Fi is on');
    const agent = await connect();
    const result = await call(agent, 'run_goal', { serial: harness.serial, goal: 'Turn on Wi-Fi' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 'not_verified', outcome: 'done, not verified' });
    expect((result.structuredContent as { summary: string }).summary).toMatch(/^Done, not verified \(0 actions, .*\): no action was taken .*; the model said: Wi-Fi is on$/);
    expect((await state()).settings.wifi).toBe(false);
  });
});

describe('amc mcp --http bearer challenge', () => {
  it('Scenario: A missing or wrong bearer token gets a 401 that asks for a bearer token, not OAuth', async () => {
    const { child, match } = await startAmc(['mcp', '--http'], /MCP server \(Streamable HTTP\) at (\S+)/, { env: env() });
    httpServer = child;
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789']) {
      const answer = await fetch(match[1]!, { method: 'POST', headers: { ...headers, ...(authorization && { authorization }) }, body });
      expect(answer.status).toBe(401);
      const challenge = answer.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer realm="amc", error="invalid_token", error_description="[^"]*bearer token[^"]*"$/);
      expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(/Authorization: Bearer <token>.*not use OAuth/);
    }
  }, 60_000);
});
