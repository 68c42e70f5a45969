// `amc mcp` in a Chinese terminal: what the person is asked through the agent's client, and the errors the agent
// gets for it, come from the catalogs in Chinese; the tools stay as they are. A real child process, the official
// MCP SDK's Client over stdio, the real adb server and the virtual device.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { amcBin } from '../support/cli';
import { directAnthropicEnv } from '../support/planner-env';
import { latinSentences } from '../support/latin-sentences';

let harness: AdbHarness;
let home: string;
const clients: Client[] = [];

beforeAll(async () => {
  harness = await startAdbHarness();
  home = await mkdtemp(path.join(tmpdir(), 'amc-mcp-language-home-'));
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

/** An agent on its own `amc mcp` in a Chinese terminal, whose Settings ask before every action; its person answers `answer`. */
async function chineseStepModeAgent(answer?: 'decline', confirm = 'every'): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const client = new Client({ name: 'test-agent', version: '1.0.0' }, answer ? { capabilities: { elicitation: {} } } : {});
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: answer };
    });
  }
  // The model is never called here: every action is the agent's own.
  const env = { PATH: process.env.PATH ?? '', ...directAnthropicEnv(harness, home, 'http://127.0.0.1:9'), TASK_CONFIRM_ACTIONS: confirm, LANG: 'zh_CN.UTF-8' };
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [amcBin, 'mcp'], env, stderr: 'pipe' }));
  clients.push(client);
  return { client, asked };
}

const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');

describe('amc mcp in Chinese', { timeout: 120_000 }, () => {
  it('Scenario: The MCP server asks the person and explains refusals in the terminal language', async () => {
    const launch = { serial: harness.serial, tool: 'launch_app', args: { app: 'Settings' } };
    const unasked = await chineseStepModeAgent();
    const refused = (await unasked.client.callTool({ name: 'act', arguments: launch })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^没有执行：打开 Settings：.*这个 MCP 客户端无法询问你/);
    await unasked.client.callTool({ name: 'release_phone', arguments: { serial: harness.serial } });

    const declining = await chineseStepModeAgent('decline');
    const declined = (await declining.client.callTool({ name: 'act', arguments: launch })) as CallToolResult;
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toMatch(/^没有执行，你没有确认：打开 Settings/);
    expect(declining.asked).toEqual([expect.stringMatching(/^允许在手机上执行这个操作吗？打开 Settings/)]);
    // The tools themselves are the agent's interface: their names and descriptions do not change.
    const { tools } = await declining.client.listTools();
    expect(tools.find((entry) => entry.name === 'act')?.description).toMatch(/^[\x20-\x7e]/);
  });

  it("Scenario: A failed action's error is worded from its code over MCP in a Chinese terminal", async () => {
    await harness.reset();
    const { client } = await chineseStepModeAgent(undefined, 'sensitive');
    const act = async (args: Record<string, unknown>) => (await client.callTool({ name: 'act', arguments: { serial: harness.serial, tool: 'tap', args } })) as CallToolResult;
    const missing = await act({ element_id: 'e999' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^这一轮的屏幕布局里没有元素 e999（编号：e1 到 e\d+）。编号每一轮都会变。$/);
    expect(missing.structuredContent).toMatchObject({ ok: false, error: expect.stringMatching(/^There is no element e999 in this turn's Scene/), errorSaid: { code: 'step.noSuchElement' } });
    const wrongType = await act({ element_id: 5 });
    expect(textOf(wrongType)).toMatch(/^tap 的参数无效：element_id：/);
    expect(wrongType.structuredContent).toMatchObject({ error: expect.stringMatching(/^Invalid arguments for tap: element_id/), errorSaid: { code: 'step.invalidArguments' } });
    for (const result of [missing, wrongType]) expect(latinSentences(textOf(result), ['tap', 'element_id']), textOf(result)).toEqual([]);
    await client.callTool({ name: 'release_phone', arguments: { serial: harness.serial } });
    // Nothing reached the phone.
    expect((await harness.state()).foreground).toBe('com.android.launcher3');
  });
});
