// `amc mcp` as another agent uses it: a real child process, the official MCP SDK's Client over stdio and over
// Streamable HTTP, the real adb server and the virtual device, and the loopback provider fake for run_goal.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SceneSchema, type Scene } from '../../src/shared/scene';
import type { PhoneStateView } from '@amc/demo-phone';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { amcBin, interrupt, runAmc, startAmc } from '../support/cli';
import { finish, findElement, startAnthropicFake, type AnthropicFake, type FakePolicy } from '../fakes/index';
import { directAnthropicEnv } from '../support/planner-env';
import { SUITE_SCRIPTS, stepsPolicy } from '../fakes/suite-agent';
import { TASKS_FOLDER } from '../../src/core/storage/task-store';
import { writeLongTaskFile } from '../core/storage/task-fixtures';

let harness: AdbHarness;
let fake: AnthropicFake;
let home: string;
let policy: FakePolicy = () => finish(true, 'idle');
let httpServer: { child: ChildProcess; url: string } | undefined;
const TOKEN = 'test-token-0123456789abcdef';
const clients: Client[] = [];

beforeAll(async () => {
  harness = await startAdbHarness();
  fake = await startAnthropicFake({ policy: (turn) => policy(turn) });
  home = await mkdtemp(path.join(tmpdir(), 'amc-mcp-home-'));
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  if (httpServer) await interrupt(httpServer.child);
  await fake?.close();
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

beforeEach(async () => {
  await harness.control('/reset', { body: { settings: { wifi: true, bluetooth: false } } });
});

/** A user whose configured planner is Anthropic direct (here: the fake). */
function env(extra: Record<string, string> = {}): Record<string, string> {
  const vars: NodeJS.ProcessEnv = { ...process.env, ...directAnthropicEnv(harness, home, fake.url), AMC_MCP_TOKEN: TOKEN, ...extra };
  delete vars.ANDROID_SERIAL;
  return Object.fromEntries(Object.entries(vars).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

async function httpUrl(): Promise<string> {
  if (!httpServer) {
    const { child, match } = await startAmc(['mcp', '--http'], /MCP server \(Streamable HTTP\) at (\S+)/, { env: env() });
    httpServer = { child, url: match[1]! };
  }
  return httpServer.url;
}

type Kind = 'stdio' | 'http';

/** A new agent: its own MCP client (stdio: its own `amc mcp` process; http: its own session on the shared server). */
async function connect(kind: Kind): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  const transport =
    kind === 'stdio'
      ? new StdioClientTransport({ command: process.execPath, args: [amcBin, 'mcp'], env: env(), stderr: 'pipe' })
      : new StreamableHTTPClientTransport(new URL(await httpUrl()), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const state = async () => (await harness.control<PhoneStateView>('/state')).body;
const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');

async function tool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

async function observe(client: Client): Promise<Scene> {
  const result = await tool(client, 'observe', { serial: harness.serial });
  expect(result.isError, textOf(result)).toBeFalsy();
  return SceneSchema.parse(JSON.parse(textOf(result)));
}

async function tapLabel(client: Client, label: string): Promise<void> {
  const element = findElement(await observe(client), label);
  expect(element, `no "${label}" on screen`).toBeDefined();
  const result = await tool(client, 'act', { serial: harness.serial, tool: 'tap', args: { element_id: element!.id } });
  expect(result.isError, textOf(result)).toBeFalsy();
}

describe.each(['stdio', 'http'] as const)('amc mcp over %s', (kind) => {
  let agent: Client;
  beforeAll(async () => {
    agent = await connect(kind);
  }, 60_000);

  it('Scenario: An MCP agent lists the tools and observes the demo phone', async () => {
    const { tools } = await agent.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['act', 'list_devices', 'observe', 'release_phone', 'run_goal', 'start_demo_phone', 'task_history', 'task_status']),
    );
    const devices = JSON.parse(textOf(await tool(agent, 'list_devices'))) as { devices: Array<{ serial: string; state: string }> };
    expect(devices.devices).toContainEqual(expect.objectContaining({ serial: harness.serial, state: 'device' }));
    const scene = await observe(agent);
    expect(scene.screen.package).toBe('com.android.launcher3');
    expect(findElement(scene, 'Settings')).toBeDefined();
  });

  it('Scenario: Observe returns the screen image only when asked', async () => {
    const withImage = await tool(agent, 'observe', { serial: harness.serial, screenshot: true });
    const image = withImage.content.find((part) => part.type === 'image');
    expect(image).toMatchObject({ type: 'image', mimeType: expect.stringMatching(/^image\//) });
    expect(Buffer.from((image as { data: string }).data, 'base64').length).toBeGreaterThan(1000);
    expect((await tool(agent, 'observe', { serial: harness.serial })).content.some((part) => part.type === 'image')).toBe(false);
  });

  it('Scenario: An MCP agent acts on the phone and the phone changes', async () => {
    const launched = await tool(agent, 'act', { serial: harness.serial, tool: 'launch_app', args: { app: 'Settings' } });
    expect(launched.isError, textOf(launched)).toBeFalsy();
    await tapLabel(agent, 'Network & internet');
    expect((await state()).settings.wifi).toBe(true);
    await tapLabel(agent, 'Wi-Fi');
    expect((await state()).settings.wifi).toBe(false);
    expect(textOf(await tool(agent, 'release_phone', { serial: harness.serial }))).toMatch(/^Released/);
  });

  it('Scenario: Bad arguments are MCP errors in plain words', async () => {
    const wrongType = await tool(agent, 'act', { serial: harness.serial, tool: 'tap', args: { element_id: 5 } });
    expect(wrongType.isError).toBe(true);
    expect(textOf(wrongType)).toMatch(/^Invalid arguments for tap: element_id/);
    // The English text is what it was; the structured content carries it again with its code, for a client to word.
    expect(wrongType.structuredContent).toMatchObject({ ok: false, error: textOf(wrongType), errorSaid: { code: 'step.invalidArguments', values: { tool: 'tap' } } });
    const unknownTool = await tool(agent, 'act', { serial: harness.serial, tool: 'fly', args: {} });
    expect(unknownTool.isError).toBe(true);
    expect(textOf(unknownTool)).toMatch(/tool/);
    const noSerial = await tool(agent, 'observe', {});
    expect(noSerial.isError).toBe(true);
    expect(textOf(noSerial)).toMatch(/serial/);
    const missingPhone = await tool(agent, 'observe', { serial: '127.0.0.1:1' });
    expect(missingPhone.isError).toBe(true);
    expect(textOf(missingPhone)).toMatch(/No phone "127\.0\.0\.1:1" is connected/);
    const noGoal = await tool(agent, 'run_goal', { serial: harness.serial, goal: '' });
    expect(noGoal.isError).toBe(true);
    await tool(agent, 'release_phone', { serial: harness.serial });
    // Nothing happened to the phone.
    expect((await state()).settings.wifi).toBe(true);
  });

  it('Scenario: run_goal carries out a goal with progress notifications', async () => {
    policy = stepsPolicy(SUITE_SCRIPTS['settings-bluetooth-on']!());
    const progress: Progress[] = [];
    const result = (await agent.callTool(
      { name: 'run_goal', arguments: { serial: harness.serial, goal: 'Turn on Bluetooth.' } },
      undefined,
      { onprogress: (p) => progress.push(p), timeout: 60_000 },
    )) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'completed', outcome: 'done', steps: 3 });
    // The words of `amc run` and the app, with the default model's price.
    expect((result.structuredContent as { summary: string }).summary).toMatch(/^Done \(3 actions, [\d,]+ tokens in · [\d,]+ out, \$[\d.]+, AI planner · anthropic · claude-sonnet-4-6 · via direct\)/);
    expect((result.structuredContent as { costUsd: number }).costUsd).toBeGreaterThan(0);
    expect((await state()).settings.bluetooth).toBe(true);
    // One notification when each turn is planned and one when it is done, in order.
    expect(progress.map((p) => p.message)).toEqual([
      expect.stringMatching(/^step 1: Open /),
      'step 1: done',
      expect.stringMatching(/^step 2: Tap/),
      'step 2: done',
      expect.stringMatching(/^step 3: Tap/),
      'step 3: done',
      expect.stringMatching(/^step 4: Finish/),
    ]);
    const taskId = (result.structuredContent as { taskId: string }).taskId;
    // History is written as the events come: the end may land a moment after the answer.
    await expect.poll(async () => JSON.parse(textOf(await tool(agent, 'task_status', { task_id: taskId }))) as { status: string }).toMatchObject({ status: 'completed' });
    const report = await agent.readResource({ uri: `amc://tasks/${taskId}/report` });
    expect(report.contents[0]).toMatchObject({ mimeType: 'text/html' });
    expect(String((report.contents[0] as { text: string }).text)).toContain('Turn on Bluetooth.');
    const resources = await agent.listResources();
    expect(resources.resources.map((r) => r.uri)).toContain('amc://history');
  }, 90_000);

  it('Scenario: run_goal says how a failed goal ended in plain words', async () => {
    policy = () => finish(false, 'This phone has no Bluetooth switch I can find.');
    const result = await tool(agent, 'run_goal', { serial: harness.serial, goal: 'Turn on Bluetooth.' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      status: 'failed',
      outcome: 'failed',
      failureReason: 'This phone has no Bluetooth switch I can find.',
    });
    expect((result.structuredContent as { summary: string }).summary).toMatch(/^Failed \(\d+ actions?, .*\): This phone has no Bluetooth switch I can find\.$/);
    expect(textOf(result)).not.toMatch(/[A-Z][a-z]+Error/);
    expect((await state()).settings.bluetooth).toBe(false);
  }, 90_000);

  it('Scenario: Cancelling run_goal stops the task', async () => {
    const before = fake.requests.length;
    policy = () => ({ kind: 'hang' });
    const controller = new AbortController();
    const running = agent.callTool({ name: 'run_goal', arguments: { serial: harness.serial, goal: 'Open the Notes app' } }, undefined, {
      signal: controller.signal,
      timeout: 60_000,
    });
    await expect.poll(() => fake.requests.length, { timeout: 30_000 }).toBeGreaterThan(before);
    controller.abort();
    await expect(running).rejects.toThrow();
    await expect
      .poll(async () => (JSON.parse(textOf(await tool(agent, 'task_history', { limit: 1 }))) as { tasks: Array<{ goal: string; status: string }> }).tasks[0], { timeout: 20_000 })
      .toMatchObject({ goal: 'Open the Notes app', status: 'cancelled' });
  }, 90_000);

  it('Scenario: task_history lists damaged task files with their reason', async () => {
    const fileName = `damaged-${kind}.jsonl`;
    const file = path.join(home, TASKS_FOLDER, fileName);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, 'SECRET-LOOKING CONTENT that is not a task record\n');
    try {
      const result = await tool(agent, 'task_history', { limit: 1 });
      const listed = JSON.parse(textOf(result)) as { tasks: unknown[]; damaged: Array<{ fileName: string; problem: string; problemSaid?: { code: string }; action: string }> };
      const entry = listed.damaged.find((damaged) => damaged.fileName === fileName);
      expect(entry, textOf(result)).toBeDefined();
      expect(entry!.problem.length).toBeGreaterThan(0);
      // The reason's code rides beside its English words, for a client that words it in its reader's language.
      expect(entry!.problemSaid?.code).toBe('taskFile.notTaskRecord');
      expect(entry!.action).toContain(`Move or delete ${file}`);
      // The reason says what is wrong without quoting the file.
      expect(textOf(result)).not.toContain('SECRET-LOOKING');
    } finally {
      await rm(file, { force: true });
    }
  });

  it('Scenario: A long task is read over MCP a page at a time', async () => {
    const id = `long-mcp-${kind}`;
    await writeLongTaskFile(path.join(home, TASKS_FOLDER, `${id}.jsonl`), id, 450, { finished: true });
    type Page = { steps: { step: number }[]; page?: { from: number; turnCount: number; actionCount: number }; from?: number; turnCount?: number };
    const read = async (args: Record<string, unknown>) => {
      const result = await tool(agent, 'task_status', { task_id: id, ...args });
      expect(result.isError, textOf(result)).toBeFalsy();
      return JSON.parse(textOf(result)) as Page;
    };
    const latest = await read({});
    expect(latest.page).toEqual({ from: 250, turnCount: 450, actionCount: 450 });
    expect(latest.steps.map((step) => step.step)).toEqual(Array.from({ length: 200 }, (_, index) => 251 + index));
    const first = await read({ from_turn: 0 });
    expect(first).toMatchObject({ from: 0, turnCount: 450 });
    expect(first.steps.map((step) => step.step)).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
    expect((await read({ from_turn: 400 })).steps.map((step) => step.step)).toEqual(Array.from({ length: 50 }, (_, index) => 401 + index));
    const refused = await tool(agent, 'task_status', { task_id: id, from_turn: -1 });
    expect(refused.isError).toBe(true);
    // The task's resource stays whole: every turn.
    const resource = await agent.readResource({ uri: `amc://tasks/${id}` });
    const whole = JSON.parse((resource.contents[0] as { text: string }).text) as Page;
    expect(whole.steps).toHaveLength(450);
    expect(whole.page).toBeUndefined();
  });

  it('Scenario: The device lock refuses a second agent', async () => {
    const second = await connect(kind);
    try {
      await refusesTheSecondAgent(second);
    } finally {
      await tool(agent, 'release_phone', { serial: harness.serial });
      await tool(second, 'release_phone', { serial: harness.serial });
    }
  }, 60_000);

  async function refusesTheSecondAgent(second: Client) {
    const first = await tool(agent, 'act', { serial: harness.serial, tool: 'press_key', args: { key: 'home' } });
    expect(first.isError, textOf(first)).toBeFalsy();
    const refused = await tool(second, 'act', { serial: harness.serial, tool: 'launch_app', args: { app: 'Settings' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/is being driven by an MCP agent \(test-agent, session started \d\d:\d\d, process \d+\)\. It is freed when the agent calls release_phone/);
    const refusedGoal = await tool(second, 'run_goal', { serial: harness.serial, goal: 'Turn off Wi-Fi.' });
    expect(refusedGoal.isError).toBe(true);
    expect(textOf(refusedGoal)).toMatch(/is being driven by an MCP agent/);
    expect((await state()).settings.wifi).toBe(true);
    // Handed back, the phone is the second agent's to drive.
    await tool(agent, 'release_phone', { serial: harness.serial });
    const allowed = await tool(second, 'act', { serial: harness.serial, tool: 'launch_app', args: { app: 'Settings' } });
    expect(allowed.isError, textOf(allowed)).toBeFalsy();
  }
});

describe('amc mcp confirmation', () => {
  /** An agent on its own `amc mcp` whose Settings ask before every action; `answer` is its person's, when its client can ask. */
  async function stepModeAgent(answer?: 'accept' | 'decline'): Promise<{ client: Client; asked: string[] }> {
    const asked: string[] = [];
    const client = new Client({ name: 'test-agent', version: '1.0.0' }, answer ? { capabilities: { elicitation: {} } } : {});
    if (answer) {
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request.params.message);
        return { action: answer };
      });
    }
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [amcBin, 'mcp'], env: env({ TASK_CONFIRM_ACTIONS: 'every' }), stderr: 'pipe' }));
    clients.push(client);
    return { client, asked };
  }

  it('Scenario: An action the settings hold waits for the person through the MCP client', async () => {
    const launch = { serial: harness.serial, tool: 'launch_app', args: { app: 'Settings' } };
    // A client that cannot ask its person: the agent cannot say yes for them.
    const unasked = await stepModeAgent();
    const refused = await tool(unasked.client, 'act', launch);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^Not done: Open Settings: step mode: every action waits for your yes\. .*cannot ask its person/);
    expect((await state()).foreground).toBe('com.android.launcher3');
    await tool(unasked.client, 'release_phone', { serial: harness.serial });

    const declining = await stepModeAgent('decline');
    const declined = await tool(declining.client, 'act', launch);
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toMatch(/the person did not say yes to Open Settings/);
    expect(declining.asked).toEqual([expect.stringMatching(/^Allow this action on the phone\? Open Settings/)]);
    expect((await state()).foreground).toBe('com.android.launcher3');
    await tool(declining.client, 'release_phone', { serial: harness.serial });

    const accepting = await stepModeAgent('accept');
    const done = await tool(accepting.client, 'act', launch);
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(accepting.asked).toHaveLength(1);
    expect((await state()).foreground).toBe('com.android.settings');
    await tool(accepting.client, 'release_phone', { serial: harness.serial });
  }, 90_000);
});

describe('amc mcp --http', () => {
  it('Scenario: The HTTP transport refuses requests without the bearer token', async () => {
    const url = await httpUrl();
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const anonymous = await fetch(url, { method: 'POST', headers, body: JSON.stringify(init) });
    expect(anonymous.status).toBe(401);
    const wrong = await fetch(url, { method: 'POST', headers: { ...headers, authorization: 'Bearer wrong-token-0123456789' }, body: JSON.stringify(init) });
    expect(wrong.status).toBe(401);
    const foreign = await fetch(url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${TOKEN}`, origin: 'http://evil.example' }, body: JSON.stringify(init) });
    expect(foreign.status).toBe(403);
    // A token too weak to guard the phone is refused before anything listens.
    const weak = await runAmc(['mcp', '--http'], { env: { ...env(), AMC_MCP_TOKEN: 'short' } });
    expect(weak.code).toBe(2);
    expect(weak.stderr).toContain('AMC_MCP_TOKEN must be 16 to 200 characters');
  }, 60_000);
});

describe('amc mcp Scene budget', () => {
  /** An agent on its own `amc mcp` with the given environment (e.g. a Scene token budget from Settings' variable). */
  async function agentWith(extra: Record<string, string>): Promise<Client> {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [amcBin, 'mcp'], env: env(extra), stderr: 'pipe' }));
    clients.push(client);
    return client;
  }

  it('Scenario: Observe keeps the Scene to the token budget in Settings', async () => {
    // The Settings list fits the default budget but not the smallest one Settings allow.
    await harness.shell('am start -n com.android.settings/.Settings');
    expect((await state()).foreground).toBe('com.android.settings');
    const roomy = await observe(await agentWith({}));
    expect(roomy.elementsLeftOut).toBeUndefined();
    const tight = await observe(await agentWith({ AMC_SCENE_TOKEN_BUDGET: '500' }));
    expect(tight.elementsLeftOut).toBeGreaterThan(0);
    expect(tight.elements.length + tight.elementsLeftOut!).toBe(roomy.elements.length);
  }, 90_000);
});
