// Every `amc` subcommand's success path in a Chinese terminal (LANG=zh_CN.UTF-8), run for real: the demo phone on a
// real adb server, the real Anthropic SDK against the loopback fake (which answers in Chinese, as the prompt asks),
// a real redis-server for the fleet, and the official MCP SDK client. The list of subcommands is the CLI's own, so a
// new one without a case here fails. Every line each command prints is swept; an English sentence left (not a name,
// path, number or code) fails, and the failure lists every such line with the command that printed it.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands/index';
import { labelParts, type Scene } from '../../src/shared/scene';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { amcBin, anthropicDirectEnv, childEnv, interrupt, runAmc, startAmc, type CliResult } from '../support/cli';
import { latinSentences } from '../support/latin-sentences';
import { startInPty } from '../support/pty';
import { startTestRedis, type TestRedis } from '../support/redis-server';
import { finish, findElement, scriptedPolicy, startAnthropicFake, tapLabel, type AnthropicFake, type FakePolicy } from '../fakes/index';

let harness: AdbHarness;
let fake: AnthropicFake;
let redis: TestRedis;
let home: string;
let policy: FakePolicy = () => finish(false, '没有脚本');

beforeAll(async () => {
  [harness, fake, redis] = await Promise.all([startAdbHarness(), startAnthropicFake({ policy: (turn) => policy(turn) }), startTestRedis()]);
  home = await mkdtemp(path.join(tmpdir(), 'amc-every-success-zh-'));
}, 60_000);

afterAll(async () => {
  await stopWorker();
  await fake?.close();
  await harness?.stop();
  await redis?.dispose();
  if (home) await rm(home, { recursive: true, force: true });
});

/** A Chinese terminal whose planner is the fake, on the harness's adb server; nothing from the developer's shell. */
const env = (extra: NodeJS.ProcessEnv = {}) =>
  anthropicDirectEnv(harness, home, fake.url, { LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '', AMC_APP_NOTES: 'true', AMC_CP_TOKENS_FILE: path.join(home, 'tokens.json'), ...extra });
const amc = (args: string[], extra: NodeJS.ProcessEnv = {}, timeoutMs = 90_000) => runAmc(args, { env: env(extra), timeoutMs });
const redisUrl = () => `redis://127.0.0.1:${redis.port}`;
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Names a person reads as they are: the app's and the protocols' names, and the demo phone's apps, rows and
 * labels (shown as the phone shows them).
 */
const NAMES = [
  'Agentic Mobile Control',
  'Model Context Protocol',
  'Streamable HTTP',
  'Network & internet',
  'Shopping list',
  'Milk, eggs',
  'New note',
];

/** Every line with an English sentence, with the command that printed it; the sweep fails on the whole list at once. */
const found: string[] = [];
function sweep(command: string, result: CliResult | string) {
  const text = typeof result === 'string' ? result : `${result.stdout}\n${result.stderr}`;
  for (const line of new Set(text.split('\n'))) if (latinSentences(line, NAMES).length) found.push(`amc ${command}: ${line.trim()}`);
}
/** Runs `amc ARGS`, expects `code`, sweeps what it printed and returns it. */
async function ran(args: string[], code = 0, extra: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const result = await amc(args, extra);
  expect(result.code, `amc ${args.join(' ')}:\n${result.stdout}\n${result.stderr}`).toBe(code);
  sweep(args.join(' '), result);
  return result;
}

/** The model turns Wi-Fi off in three grounded actions, saying each in Chinese, then says it is done. */
const wifiOff: FakePolicy = (turn) => {
  const tapOn = (label: string, why: string) => {
    const element = findElement(turn.scene, label);
    return element ? ({ kind: 'call', tool: 'tap', args: { element_id: element.id }, text: why } as const) : null;
  };
  const screen = turn.scene?.screen.package ?? '';
  if (!screen.includes('settings')) return { kind: 'call', tool: 'launch_app', args: { app: 'Settings' }, text: '打开设置。' };
  const wifiRow = turn.scene?.elements.map((element) => labelParts(element.text ?? '')).find((parts) => parts[0] === 'Wi-Fi');
  if (wifiRow?.includes('Off')) return finish(true, '无线网络已关闭');
  return tapOn('Wi-Fi', '点按无线网络开关。') ?? tapOn('Network & internet', '进入网络设置。') ?? finish(false, '找不到网络设置');
};
const WIFI_ON = { settings: { wifi: true } };
const GOAL = '关闭无线网络';

/** Stops the worker `amc worker` started (the fleet's case stops it, having seen it offer the phone). */
let stopWorker = async () => undefined;

/** The task `amc run` carried out, from its first line. */
let taskId = '';

/** Reads the Scene as `amc observe --json` prints it. */
async function sceneNow(): Promise<Scene> {
  const observed = await amc(['observe', '-s', harness.serial, '--json']);
  return (JSON.parse(observed.stdout) as { scene: Scene }).scene;
}

/** One success path (or more) per subcommand, in the order they run: a run comes before its replay, notes and cache. */
const SUCCESS: Record<string, () => Promise<void>> = {
  devices: async () => {
    const listed = await ran(['devices']);
    expect(listed.stdout).toContain(`${harness.serial}  就绪`);
  },
  doctor: async () => {
    const checked = await amc(['doctor']);
    expect(checked.stdout).toContain(harness.serial);
    // The model's check: what was tested and what it found, both worded here (not "Anthropic direct: OK: … answered in").
    expect(checked.stdout).toMatch(/^正常 +模型 +Anthropic 直连：正常：\S+ 在 [\d,]+ 毫秒内回答了。$/m);
    sweep('doctor', checked);
  },
  observe: async () => {
    const observed = await ran(['observe', '-s', harness.serial]);
    expect(observed.stdout).toContain('"package":"com.android.launcher3"');
  },
  act: async () => {
    await harness.reset({});
    const notes = findElement(await sceneNow(), 'Notes');
    const tapped = await ran(['act', '-s', harness.serial, 'tap', '--element_id', notes!.id]);
    expect(tapped.stdout).toMatch(/^成功：tap，位置 \(\d+, \d+\)，作用于 TextView "Notes"，用时 \d+ 毫秒$/m);
    expect((await harness.state()).foreground).toBe('com.amc.notes');
    const newNote = findElement(await sceneNow(), 'New note');
    await ran(['act', '-s', harness.serial, 'tap', '--element_id', newNote!.id]);
    const title = (await sceneNow()).elements.find((element) => element.editable);
    await ran(['act', '-s', harness.serial, 'type_text', '--element_id', title!.id, '--text', '买牛奶']);
    expect((await sceneNow()).elements.find((element) => element.id === title!.id)?.text).toBe('买牛奶');
  },
  run: async () => {
    await harness.reset(WIFI_ON);
    policy = wifiOff;
    const run = await ran(['run', '-s', harness.serial, '--goal', GOAL, '--yes']);
    expect(run.stdout).toMatch(/^完成（\d+ 个操作，.*）：无线网络已关闭$/m);
    taskId = /^任务 (\S+)，/m.exec(run.stdout)![1]!;
    expect((await harness.state()).settings.wifi).toBe(false);
  },
  replay: async () => {
    await harness.reset(WIFI_ON);
    const calls = fake.requests.length;
    await ran(['replay', taskId, '-s', harness.serial, '--yes']);
    expect((await harness.state()).settings.wifi).toBe(false);
    expect(fake.requests.length).toBe(calls);
  },
  flow: async () => {
    const exported = await ran(['flow', 'export', taskId]);
    expect(exported.stdout).toMatch(/^# Agentic Mobile Control 的流程文件。/);
    const file = path.join(home, '关闭无线网络.yaml');
    await writeFile(file, exported.stdout);
    await ran(['flow', 'export', taskId, '--format', 'maestro']);
    await ran(['flow', 'check', file]);
    await harness.reset(WIFI_ON);
    await ran(['flow', 'run', file, '-s', harness.serial, '--yes']);
    expect((await harness.state()).settings.wifi).toBe(false);
    // A step whose label changed since the flow was written: the model repairs it and the healed file is written.
    const renamed = path.join(home, '购物清单.yaml');
    await writeFile(renamed, 'goal: 打开购物清单\nsteps:\n  - launch_app: Notes\n  - tap: {text: Shoping list, timeout: 1000}\n  - assert: {visible: "Milk, eggs"}\n');
    await harness.reset({});
    policy = scriptedPolicy([tapLabel(/^Shopping list/)]);
    await ran(['flow', 'heal', renamed, '-s', harness.serial]);
    expect(await readFile(path.join(home, '购物清单.healed.yaml'), 'utf8')).toMatch(/^ {2}# 已修复：第 2 步原来是 `tap: \{text: Shoping list, timeout: 1000\}`；/m);
  },
  notes: async () => {
    const listed = await ran(['notes']);
    const json = await amc(['notes', 'list', '--json']);
    const [note] = JSON.parse(json.stdout) as Array<{ id: string }>;
    expect(note, listed.stdout).toBeDefined();
    await ran(['notes', 'list', '--app', 'com.android.settings']);
    await ran(['notes', 'remove', note!.id]);
  },
  cache: async () => {
    // A second run of the goal, with "Reuse successful runs" on, follows the first.
    await harness.reset(WIFI_ON);
    const calls = fake.requests.length;
    await ran(['run', '-s', harness.serial, '--goal', GOAL, '--yes'], 0, { AI_PLANNER_REUSE_RUNS: 'true' });
    expect(fake.requests.length).toBe(calls);
    expect((await harness.state()).settings.wifi).toBe(false);
    const listed = await ran(['cache']);
    expect(listed.stdout).toContain(GOAL);
    await ran(['cache', 'forget', GOAL]);
  },
  schedule: async () => {
    await ran(['schedule', 'add', '--name', '早上', '--cron', '0 8 * * *', '--goal', GOAL, '--device', harness.serial]);
    expect((await ran(['schedule', 'list'])).stdout).toContain('早上');
    await ran(['schedule', 'remove', '早上']);
    await ran(['schedule', 'add', '--redis', redisUrl(), '--name', '每分钟检查', '--goal', GOAL, '--any', '--cron', '0 8 * * *']);
    expect((await ran(['schedule', 'list', '--redis', redisUrl()])).stdout).toContain('每分钟检查');
    await ran(['schedule', 'remove', '--redis', redisUrl(), '每分钟检查']);
  },
  serve: async () => {
    const serve = await startAmc(['serve', '--port', '0'], /Ctrl-C/, { env: env() });
    await interrupt(serve.child);
    sweep('serve', serve.output());
  },
  mcp: async () => {
    const http = await startAmc(['mcp', '--http', '--port', '0'], /Ctrl-C/, { env: env() });
    await interrupt(http.child);
    expect(http.output()).toMatch(/^MCP 服务器（Streamable HTTP）在 http:\/\/127\.0\.0\.1:\d+/m);
    sweep('mcp --http', http.output());
    const client = new Client({ name: 'chinese-sweep', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [amcBin, 'mcp'], env: childEnv(env()) as Record<string, string>, stderr: 'pipe' }));
    try {
      const devices = (await client.callTool({ name: 'list_devices', arguments: {} })) as CallToolResult;
      const text = devices.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      expect(text).toContain(harness.serial);
      sweep('mcp (list_devices)', text);
    } finally {
      await client.close();
    }
  },
  eval: async () => {
    await ran(['eval', '--list']);
    policy = wifiOff;
    await ran(['eval', '--tasks', 'settings-wifi-off', '--profile', 'instant', '--out', path.join(home, 'eval')]);
    const result = path.join(home, 'eval', 'eval.json');
    await ran(['eval', '--compare', result, result]);
  },
  disconnect: async () => {
    await ran(['disconnect', harness.serial]);
  },
  connect: async () => {
    await ran(['connect', harness.serial]);
    await harness.waitForState('device');
  },
  pair: async () => {
    // Debian's adb cannot pair (platform-tools 30 can), and the demo phone has no pairing service: what a person
    // reads instead names this adb's version and the way round it.
    const refused = await ran(['pair', '127.0.0.1:1', '123456'], 1);
    expect(refused.stderr).toMatch(/无线配对需要 platform-tools 30 或更新版本的 adb；这个 adb 是 .+。请更新 platform-tools，或者先用 USB 连接一次手机，运行 `adb tcpip 5555`/);
  },
  'virtual-device': async () => {
    const device = await startAmc(['virtual-device', '--port', '0', '--control-port', '0'], /adb connect/, { env: env() });
    await interrupt(device.child);
    sweep('virtual-device', device.output());
  },
  'control-plane': async () => {
    const created = await ran(['control-plane', 'token', 'create', '--name', '笔记本']);
    expect(created.stdout).toMatch(/amc_[0-9a-f]{16}_/);
    await ran(['control-plane', 'token', 'list']);
    await ran(['control-plane', 'usage']);
    // Started at a terminal, as a person starts it: where it listens, then its log (JSON lines, which stay a log).
    const plane = startInPty([process.execPath, amcBin, 'control-plane', '--port', '0', '--host', '127.0.0.1', '--workers', '1'], env({ AMC_CP_MODEL: 'fake-model' }));
    await plane.waitFor(/"msg":"listening"/);
    plane.type('\x03');
    const { output } = await plane.done;
    expect(output).toMatch(/云控制平面正在 http:\/\/127\.0\.0\.1:\d+ 上监听/);
    sweep('control-plane', output.split('\n').filter((line) => !line.startsWith('{')).join('\n'));
    await ran(['control-plane', 'token', 'revoke', '笔记本']);
  },
  worker: async () => {
    const worker = await startAmc(['worker', '--redis', redisUrl(), '--name', '工作机'], new RegExp(escaped(harness.serial)), { env: env() });
    expect(worker.output()).toMatch(new RegExp(`^工作端 工作机 在 redis://127\\.0\\.0\\.1:\\d+ 上提供 ${escaped(harness.serial)}。按 Ctrl-C 停止它。$`, 'm'));
    stopWorker = async () => {
      await interrupt(worker.child);
      expect(worker.output()).toMatch(/^正在停止：/m);
      // Each job's start and end, worded here (not "job … started", "job … completed").
      expect(worker.output()).toMatch(new RegExp(`^${escaped(harness.serial)}：任务 \\S+ 开始 — ${GOAL}$`, 'm'));
      expect(worker.output()).toMatch(new RegExp(`^${escaped(harness.serial)}：任务 \\S+ 完成$`, 'm'));
      sweep('worker', worker.output());
    };
  },
  submit: async () => {
    await harness.reset(WIFI_ON);
    policy = wifiOff;
    const submitted = await ran(['submit', '--redis', redisUrl(), '--goal', GOAL, '--device', harness.serial, '--wait']);
    expect(submitted.stdout).toContain(harness.serial);
    expect((await harness.state()).settings.wifi).toBe(false);
  },
  fleet: async () => {
    const shown = await ran(['fleet', '--redis', redisUrl()]);
    expect(shown.stdout).toContain('工作机');
    await stopWorker();
  },
};

describe('amc in a Chinese terminal, every success path', { timeout: 300_000 }, () => {
  it("Scenario: Every amc subcommand's success path is Chinese in a Chinese terminal", async () => {
    // Derived from the CLI's own list: a new subcommand needs its success case here.
    expect(Object.keys(SUCCESS).sort()).toEqual(commands.map(({ name }) => name).sort());
    for (const success of Object.values(SUCCESS)) await success();
    expect(found).toEqual([]);
  });
});
