// Every `amc` subcommand in a Chinese terminal (LANG=zh_CN.UTF-8), as a person runs it: its --help, and the
// refusals a person meets first (a missing argument, an unknown id, a bad pairing code, no target for a goal, a
// schedule's request its schema refuses, an option's value out of range) and an
// empty notes list and token list. The list of subcommands is the CLI's own, so a new one is swept too. Any English sentence left
// (not a name, path, number or code) fails.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands/index';
import { runAmc } from '../support/cli';
import { latinSentences } from '../support/latin-sentences';

let home = '';
beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'amc-help-chinese-'));
  // Flow folders a person points `amc flow run` at: one with no flow, one whose config.yaml has a key amc does not read.
  await mkdir(path.join(home, 'no-flows'));
  await mkdir(path.join(home, 'odd-config'));
  await writeFile(path.join(home, 'odd-config', 'config.yaml'), 'retries: 2\n');
});
afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

/** A Chinese terminal with nothing from the machine: no adb server to reach, an empty data folder. */
const env = () => ({ LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '', AMC_HOME: home, HOME: home, ANDROID_ADB_SERVER_PORT: '1' });
const NAMES = ['Agentic Mobile Control', 'Redis', 'Model Context Protocol', 'Streamable HTTP', 'Android'];
const expectChinese = (text: string, where: string) => expect(latinSentences(text, NAMES), `${where}:\n${text}`).toEqual([]);

describe('every amc command in a Chinese terminal', { timeout: 180_000 }, () => {
  it("Scenario: Every amc subcommand's help and first refusals are Chinese in a Chinese terminal", async () => {
    expect(commands.length).toBeGreaterThan(15);
    for (const { name } of commands) {
      const help = await runAmc([name, '--help'], { env: env() });
      expect(help.code, `${name} --help: ${help.stderr}`).toBe(0);
      expect(help.stdout).toMatch(/^用法：amc /);
      expectChinese(help.stdout, `amc ${name} --help`);
    }

    const refusals: [string[], number, RegExp][] = [
      [['schedule'], 2, /请说明要对计划任务做什么/],
      [['flow'], 2, /请说明要做什么：`run, check, heal, export`/],
      [['flow', 'export', 'nope'], 2, /历史中没有任务“nope”/],
      [['flow', 'export'], 2, /缺少要导出成流程的任务 ID（amc flow export TASK_ID；/],
      [['flow', 'export', 'a', 'b'], 2, /一次只能导出一个任务，收到的是 a, b/],
      [['flow', 'export', 'a', '--format', 'xml'], 2, /--format 只能是 yaml（我们的格式）或 maestro，不能是“xml”/],
      [['replay'], 2, /请给出要回放的正好一个任务 ID/],
      [['replay', 'nope'], 2, /历史中没有任务 nope/],
      [['connect'], 2, /请给出正好一个 HOST:PORT/],
      [['disconnect'], 2, /请给出正好一个 HOST:PORT/],
      [['pair', '192.168.1.20:37099', '12'], 2, /配对码是“使用配对码配对设备”下显示的 6 位数字，收到的是“12”/],
      [['run'], 2, /需要目标：`--goal TEXT`/],
      [['act'], 2, /没有给出工具；工具有 `tap, /],
      [['submit', '--redis', 'redis://127.0.0.1:1', '--goal', '打开通讯录'], 2, /请用 `--device SERIAL`、`--group NAME` 或 `--any` 中的正好一个/],
      [['notes', 'remove', 'nope'], 1, /没有编号为“nope”的笔记/],
      [['notes', 'forget'], 2, /请说明要做什么：`amc notes list`/],
      [['fleet'], 2, /需要 --redis URL/],
      // A schedule's request checked by its schema: the option and the schema's own words.
      [['schedule', 'add', '--name', '早上', '--goal', '打开通讯录', '--device', 'emulator-5554'], 2, /--cron：请说明何时运行，例如 "0 8 \* \* \*" 表示每天 08:00/],
      [['schedule', 'add', '--name', '早上', '--cron', '0 8 * * *', '--goal', '打开通讯录', '--any'], 2, /`--any` 只用于设备队列的计划任务/],
      [['run', '--goal', '打开通讯录', '--max-steps', '0'], 2, /--max-steps 必须是 1 到 \d+ 之间的整数，收到的是 "0"/],
      [['run', '--goal', '打开通讯录', '--planner', 'pigeon'], 2, /--planner 必须是 “stub, ai” 之一，收到的是 "pigeon"/],
      [['run', '--goal', '打开通讯录', '--answer', ''], 2, /`--answer` 需要一段文字/],
      [['run', '--goal', '打开通讯录', '-s', 'emulator-5554', '--all'], 2, /请用 `-s SERIAL`、`--all` 或 `--group NAME` 中的一个指明手机/],
      [['mcp', '--port', '1'], 2, /--port 只和 `--http` 一起使用/],
      [['observe', '--format', 'gif'], 2, /--format 必须是 “png, jpeg, webp” 之一，收到的是 "gif"/],
      [['observe', '--long-edge', '5'], 2, /`--long-edge` 必须是 64 到 8192 之间的像素整数/],
      [['act', 'tap', '--x', 'abc'], 2, /--x 必须是数字，收到的是 "abc"/],
      [['submit', '--redis', 'redis://127.0.0.1:1', '--goal', '打开通讯录', '--any', '--timeout', '3'], 2, /`--timeout` 限制 `--wait` 等多久/],
      [['submit', '--redis', 'redis://127.0.0.1:1', '--device', 'emulator-5554'], 2, /请用 `--goal TEXT`（目标）或 `--flow FILE`（流程）中的正好一个/],
      [['act', 'tap', 'swipe'], 2, /请只给出一个工具名，收到的是 `tap swipe`/],
      [['mcp', '--http', '--idle-timeout', '-1'], 2, /`--idle-timeout` 必须是 0\.1 到 86400 之间的秒数，收到的是 "-1"/],
      [['flow', 'run'], 2, /缺少流程文件：amc flow run FILE/],
      [['flow', 'run', 'a.yaml', 'b.yaml'], 2, /一次只能给一个流程文件/],
      [['flow', 'run', 'a.yaml', '--junit', ' '], 2, /`--junit` 需要一个存放流程结果的文件名/],
      [['flow', 'run', 'a.yaml', '--include-tags', 'smoke'], 2, /在一个文件夹的流程中挑选：请给出文件夹/],
      [['flow', 'heal', 'a.yaml', '--all'], 2, /一次只在一台手机上修复流程/],
      [['eval', '--parallel', '0'], 2, /--parallel 必须是 1 到 16 之间的整数，收到的是 "0"/],
      [['eval', '--tasks', 'nope'], 2, /`--tasks`：没有任务匹配 "nope"；任务有 `settings-wifi-off, /],
      // Both files are read at once, so either may be the one found missing first.
      [['eval', '--compare', 'a.json', 'b.json'], 2, /无法读取 [ab]\.json。系统的原话：“/],
      [['eval', 'extra'], 2, /多余的参数 "extra"/],
      [['eval', '--compare', 'a.json'], 2, /`--compare` 需要两个结果文件/],
      [['eval', '--profile', 'slow'], 2, /--profile 必须是 “instant, realistic” 之一，收到的是 "slow"/],
      [['virtual-device', '--port', '5000', '--control-port', '5000'], 2, /`--port` 和 `--control-port` 必须不同/],
      [['flow', 'run', path.join(home, 'no-flows')], 2, /no-flows 中没有选中要运行的流程/],
      [['flow', 'run', path.join(home, 'no-flows'), '--include-tags', 'smoke'], 2, /按这些标签，\S+no-flows 中没有选中要运行的流程/],
      [['flow', 'run', path.join(home, 'odd-config')], 2, /config\.yaml：amc 不读取 `retries`（它读取 `flows, includeTags, excludeTags, executionOrder`）/],
      [['control-plane', 'token'], 2, /令牌需要一个操作：`create`、`revoke` 或 `list`/],
      [['control-plane', 'token', 'frob'], 2, /没有“frob”这个令牌操作/],
      [['control-plane', 'token', 'revoke'], 2, /`token revoke` 需要正好一个令牌 ID 或名字/],
      [['control-plane', 'token', 'create', '--model', ' '], 2, /`--model`（模型）不能为空/],
      [['control-plane', '--workers', '0'], 2, /--workers 必须是不小于 1 的整数，收到的是 "0"/],
      [['control-plane', 'token', 'create', '--rate-per-minute', '-1'], 2, /--rate-per-minute 必须是正数，收到的是 "-1"/],
    ];
    for (const [args, code, said] of refusals) {
      const refused = await runAmc(args, { env: env() });
      const output = `${refused.stdout}${refused.stderr}`;
      expect(refused.code, `amc ${args.join(' ')}: ${output}`).toBe(code);
      expect(output).toMatch(said);
      expectChinese(output, `amc ${args.join(' ')}`);
    }

    const tokens = await runAmc(['control-plane', 'token', 'list'], { env: env() });
    expect(tokens.stdout).toMatch(/中还没有令牌。用 `amc control-plane token create --name NAME` 创建一个。/);
    expectChinese(tokens.stdout, 'amc control-plane token list');

    const notes = await runAmc(['notes'], { env: env() });
    expect(notes.stdout.trim()).toBe('还没有笔记：完成的任务会为它操作过的每个应用留下一条。');
  });
});
