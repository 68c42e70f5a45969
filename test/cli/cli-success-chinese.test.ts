// The success lines of the smaller `amc` commands, run for real in a Chinese terminal (the demo phone behind a real
// adb server): each must hold its Chinese words and no English sentence that is not a name, path, number or code.
// The same commands in an English terminal keep their English lines.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { amcBin, anthropicDirectEnv, interrupt, jsonEvents, runAmc, startAmc } from '../support/cli';
import { startInPty } from '../support/pty';
import { finish, startAnthropicFake } from '../fakes/index';
import { SUITE_SCRIPTS, stepsPolicy } from '../fakes/suite-agent';
import { taskById } from '../../src/eval/tasks/index';
import { latinSentences } from '../support/latin-sentences';
import { decisionRequest, startTestControlPlane } from '../control-plane/support';
import { ACTION_TOOLS } from '../../src/core/tools/registry';
import { wordsFor } from '../../src/shared/i18n/translate';

let harness: AdbHarness;
let home: string;

beforeAll(async () => {
  harness = await startAdbHarness();
  home = await mkdtemp(path.join(tmpdir(), 'amc-success-zh-'));
}, 60_000);

afterAll(async () => {
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

/** A terminal in a language, on the harness's adb server, with nothing from the machine to win over it. */
const env = (lang: string) => ({ ANDROID_ADB_SERVER_PORT: String(harness.adbPort), HOME: harness.env.HOME, AMC_HOME: home, LANG: lang, LC_ALL: '', LC_MESSAGES: '' });
const chinese = () => env('zh_CN.UTF-8');
const english = () => env('en_US.UTF-8');
const expectAllChinese = (text: string, names: readonly string[] = []) => expect(latinSentences(text, names), text).toEqual([]);

describe('amc success lines in a Chinese terminal', { timeout: 120_000 }, () => {
  it('Scenario: amc connect, disconnect, pair, observe and the demo phone start line are Chinese in a Chinese terminal', async () => {
    const disconnected = await runAmc(['disconnect', harness.serial], { env: chinese() });
    expect(disconnected.stdout.trim()).toBe(`已断开 ${harness.serial}`);
    const connected = await runAmc(['connect', harness.serial], { env: chinese() });
    expect(connected.stdout.trim()).toBe(`已连接 ${harness.serial}`);
    await harness.waitForState('device');

    const screenshot = path.join(home, '屏幕.jpg');
    const observed = await runAmc(['observe', '-s', harness.serial, '--screenshot', screenshot], { env: chinese() });
    expect(observed.code, observed.stderr).toBe(0);
    // The Scene is the planner's input, printed as it is (JSON): only the lines after it are for the person.
    const personLines = observed.stdout.trim().split('\n').slice(-2).join('\n');
    expect(personLines).toMatch(/^耗时：共 [\d.]+ 毫秒（界面转储 [\d.]+ 毫秒，截图 [\d.]+ 毫秒）$/m);
    expect(personLines).toMatch(/^截图：\d+x\d+ jpeg，\d+ 字节，比例 [\d.]+（每个图像像素对应的设备像素） -> .*屏幕\.jpg$/m);

    const pairWithoutCode = await runAmc(['pair', '192.168.1.20:37099'], { env: chinese() });
    expect(pairWithoutCode.code).toBe(2);
    expect(pairWithoutCode.stderr).toContain('写出配对用的 HOST:PORT 和手机上显示的 6 位配对码 CODE');

    const phone = await startAmc(['virtual-device', '--port', '0', '--control-port', '0'], /控制接口 (\S+) .*按 Ctrl-C 停止/, { env: chinese() });
    expect((await fetch(`${phone.match[1]}/state`)).status).toBe(200);
    expect(await interrupt(phone.child)).toBe(0);
    expect(phone.output()).toMatch(/^虚拟手机已就绪：adb connect 127\.0\.0\.1:\d+ \| 控制接口 http:\/\/127\.0\.0\.1:\d+ \| 速度 instant（按 Ctrl-C 停止）$/m);
    const onEmulatorPort = await startAmc(['virtual-device', '--port', '5583', '--control-port', '0'], /控制接口 (\S+) .*按 Ctrl-C 停止/, { env: chinese() });
    expect((await fetch(`${onEmulatorPort.match[1]}/state`)).status).toBe(200);
    expect(await interrupt(onEmulatorPort.child)).toBe(0);
    expect(onEmulatorPort.output()).toContain('注意：adb 服务器把端口 5583 当作模拟器');

    const taken = await runAmc(['virtual-device', '--port', String(harness.device.adbPort), '--control-port', '0'], { env: chinese() });
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain(`amc virtual-device：无法在端口 ${harness.device.adbPort} 上监听（EADDRINUSE）；用 --port / --control-port 换别的端口`);

    for (const output of [disconnected.stdout, connected.stdout, personLines, pairWithoutCode.stderr, phone.output(), onEmulatorPort.output(), taken.stderr]) expectAllChinese(output);

    // English readers keep their lines.
    expect((await runAmc(['disconnect', harness.serial], { env: english() })).stdout.trim()).toBe(`disconnected ${harness.serial}`);
    expect((await runAmc(['connect', harness.serial], { env: english() })).stdout.trim()).toBe(`connected to ${harness.serial}`);
    await harness.waitForState('device');
    const observedInEnglish = await runAmc(['observe', '-s', harness.serial], { env: english() });
    expect(observedInEnglish.stdout).toMatch(/^timings: total [\d.]+ ms \(ui dump [\d.]+ ms, screenshot [\d.]+ ms\)$/m);
    expect(observedInEnglish.stdout).toMatch(/^screenshot: \d+x\d+ jpeg, \d+ bytes, scale [\d.]+ device px per image px$/m);
  });

  it('Scenario: amc control-plane token lines, the token and usage tables are Chinese in a Chinese terminal', async () => {
    const cp = await startTestControlPlane({ policy: () => ({ kind: 'call', tool: 'tap', args: { element_id: 'e1' } }) });
    try {
      await (await cp.post(decisionRequest())).json();
      await cp.service.close();
      const store = ['--tokens', cp.config.tokensFile];
      const created = await runAmc(['control-plane', 'token', 'create', '--name', '早上', '--provider', 'openai', '--daily-tokens', '1000', ...store], { env: chinese() });
      expect(created.code, created.stderr).toBe(0);
      const id = created.stdout.trim().split('_')[1]!;
      expect(created.stderr).toContain(`已在 ${cp.config.tokensFile} 创建令牌 ${id}“早上”（openai，默认模型）。`);
      expect(created.stderr).toContain('它只显示这一次；把它作为 CONTROL_PLANE_TOKEN 交给主机上的智能体：');
      const revoked = await runAmc(['control-plane', 'token', 'revoke', '早上', ...store], { env: chinese() });
      expect(revoked.stdout).toMatch(new RegExp(`^已吊销令牌 ${id}“早上”（自 \\S+ 起）；用它的请求现在会得到 403。$`, 'm'));

      const listed = await runAmc(['control-plane', 'token', 'list', ...store], { env: chinese() });
      const [header, ...rows] = listed.stdout.trim().split('\n');
      expect(header).toMatch(/^ID\s+名称\s+状态\s+创建时间\s+覆盖$/);
      expect(rows.find((row) => row.includes('test-host'))).toMatch(/\s有效\s/);
      expect(rows.find((row) => row.startsWith(id))).toMatch(/早上\s+已吊销 \S+\s+\S+\s+openai 限额$/);
      // Columns line up in the terminal, where each Chinese character takes two columns.
      const statusColumn = (line: string) => line.slice(0, line.search(/有效|已吊销|状态/)).replace(/[\u4e00-\u9fff]/g, '  ').length;
      expect(new Set([header!, ...rows].map(statusColumn)).size).toBe(1);

      const usage = await runAmc(['control-plane', 'usage', ...store], { env: chinese() });
      expect(usage.stdout).toMatch(/^令牌\s+名称\s+周期\s+决策数\s+输入 token\s+输出 token\s+费用（美元）$/m);
      expect(usage.stdout).toMatch(new RegExp(`^${cp.tokenId}\\s+test-host\\s+\\d{4}-\\d{2}-\\d{2}\\s+1\\s`, 'm'));
      const noUsage = await runAmc(['control-plane', 'usage', '--token', '早上', ...store], { env: chinese() });
      expect(noUsage.stdout.trim()).toBe(`${cp.config.tokensFile} 中 早上 本月没有用量。`);
      for (const output of [created.stderr, revoked.stdout, listed.stdout, usage.stdout, noUsage.stdout]) expectAllChinese(output, ['test-host', 'revoked-host', 'CONTROL_PLANE_TOKEN']);

      // English readers keep their lines.
      const listedInEnglish = await runAmc(['control-plane', 'token', 'list', ...store], { env: english() });
      expect(listedInEnglish.stdout).toMatch(/^ID\s+NAME\s+STATUS\s+CREATED\s+OVERRIDE$/m);
      expect(listedInEnglish.stdout).toMatch(new RegExp(`^${id}\\s+早上\\s+revoked \\S+\\s+\\S+\\s+openai limits$`, 'm'));
      const usageInEnglish = await runAmc(['control-plane', 'usage', '--token', '早上', ...store], { env: english() });
      expect(usageInEnglish.stdout.trim()).toBe(`No usage this month for 早上 in ${cp.config.tokensFile}.`);

      // Its usage names the token store in the reader's words.
      const help = await runAmc(['control-plane', '--help'], { env: chinese() });
      expect(help.stdout).toContain('\n  STORE：--config FILE、--tokens FILE（默认 $AMC_HOME/control-plane/tokens.json）或 --redis URL（AMC_CP_REDIS_URL）\n');
      expect((await runAmc(['control-plane', '--help'], { env: english() })).stdout).toContain(
        '\n  STORE: --config FILE, --tokens FILE (default $AMC_HOME/control-plane/tokens.json) or --redis URL (AMC_CP_REDIS_URL)\n',
      );

      // Started at a terminal: where it listens, in the person's words, before the JSON log (which stays a log).
      for (const [lang, listening] of [['zh_CN.UTF-8', /云控制平面正在 (http:\/\/127\.0\.0\.1:\d+) 上监听；下面是它的运行记录（JSON 行）。按 Ctrl-C 停止。/], ['en_US.UTF-8', /Cloud Control Plane listening at (http:\/\/127\.0\.0\.1:\d+); its log follows/]] as const) {
        const serving = startInPty([process.execPath, amcBin, 'control-plane', '--port', '0', '--workers', '1', ...store], { ...env(lang), ANTHROPIC_API_KEY: '' });
        const shown = await serving.waitFor(listening);
        expect((await fetch(`${shown.match(listening)![1]}/healthz`)).status).toBe(200);
        serving.type('\x03');
        const { output } = await serving.done;
        expect(output).toMatch(/"msg":"listening"/);
        if (lang.startsWith('zh')) expectAllChinese(output.split('\n').filter((line) => !line.startsWith('{')).join('\n'));
      }
    } finally {
      await cp.stop();
    }
  });

  it('Scenario: amc eval task list, result table, comparison and refusal are Chinese in a Chinese terminal', async () => {
    const listed = await runAmc(['eval', '--list', '--tasks', 'clock'], { env: chinese() });
    expect(listed.code, listed.stderr).toBe(0);
    // The suite's goals are what the model is told: quoted as they are.
    expect(listed.stdout).toMatch(/^clock-timer-infeasible\s+clock\s+“Start a 5-minute timer\.”（做不到：运行必须说明这一点）$/m);
    expect(listed.stdout).toMatch(/^\d+ 个任务$/m);

    const out = path.join(home, 'eval');
    const run = await runAmc(['eval', '--planner', 'stub', '--tasks', 'settings-wifi-off,clock-add-0630', '--replay', '--out', out], { env: chinese(), timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('规划器：内置规划器（无 AI）');
    expect(run.stdout).toContain('费用：无（没有模型）');
    expect(run.stdout).toMatch(/^任务\s+结果\s+步数\s+token\s+费用\s+用时\s+失败原因$/m);
    // The validator's reason is its own record, quoted after our words.
    expect(run.stdout).toMatch(/^settings-wifi-off\s+失败\s+1\s+0\s+—\s+[\d.]+ s\s+“Wi-Fi is still on”$/m);
    expect(run.stdout).toMatch(/^2 个任务中 0 个通过：0% \[95% 置信区间 0%–65\.8%\]；每次运行的中位数 1 步，0 token，[\d.]+ s；总用时 [\d.]+ s，1 台手机$/m);
    expect(run.stdout).toContain(`报告：${path.join(out, 'index.html')}`);
    expect(run.stdout).toContain('不用模型回放：0 个成功的任务中 0 个再次通过，调用模型 0 次');

    // At a terminal, the progress line too.
    const atTerminal = startInPty([process.execPath, amcBin, 'eval', '--planner', 'stub', '--tasks', 'settings-wifi-off', '--out', path.join(home, 'eval-pty')], chinese());
    expect((await atTerminal.done).output).toMatch(/\[1\/1\] 0 个通过 · 进行中 —/);

    const result = path.join(out, 'eval.json');
    const compared = await runAmc(['eval', '--compare', result, result], { env: chinese() });
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stdout).toMatch(/^任务\s+A\s+B\s+不同$/m);
    expect(compared.stdout).toMatch(/^clock-add-0630\s+失败 1 步 — [\d.]+ s\s+失败 1 步 — [\d.]+ s$/m);

    const notAResult = path.join(home, '不是结果.json');
    await writeFile(notAResult, JSON.stringify({ kind: 'amc-eval', version: 1 }));
    const refused = await runAmc(['eval', '--compare', notAResult, result], { env: chinese() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${notAResult} 不是 amc eval 的结果：startedAt：必须是数字；wallMs：必须是数字`);
    for (const output of [listed.stdout, run.stdout, compared.stdout, refused.stderr]) expectAllChinese(output);

    // English readers keep their lines.
    const listedInEnglish = await runAmc(['eval', '--list', '--tasks', 'clock'], { env: english() });
    expect(listedInEnglish.stdout).toMatch(/^clock-timer-infeasible\s+clock\s+Start a 5-minute timer\. \(cannot be done: the run must say so\)$/m);
    expect(listedInEnglish.stdout).toMatch(/^\d+ tasks$/m);
    const refusedInEnglish = await runAmc(['eval', '--compare', notAResult, result], { env: english() });
    expect(refusedInEnglish.stderr).toMatch(/不是结果\.json is not an amc eval result: startedAt: Invalid input: expected number, received undefined; /);
    const comparedInEnglish = await runAmc(['eval', '--compare', result, result], { env: english() });
    expect(comparedInEnglish.stdout).toMatch(/^task\s+A\s+B\s+differs$/m);
    expect(comparedInEnglish.stdout).toMatch(/^clock-add-0630\s+FAIL 1 step — [\d.]+ s\s+FAIL 1 step — [\d.]+ s$/m);
    expect(comparedInEnglish.stdout).toMatch(/^A: 0\/2 tasks passed: 0% \[95% CI 0%–65\.8%\]; median per run 1 steps, 0 tokens, [\d.]+ s; wall time [\d.]+ s on 1 phone$/m);
  });

  it("Scenario: amc act --help lists the tools in the catalog's words in a Chinese terminal", async () => {
    const help = await runAmc(['act', '--help'], { env: chinese() });
    expect(help.code, help.stderr).toBe(0);
    const toolList = help.stdout.slice(help.stdout.indexOf('\n工具：\n'));
    expect(toolList.length, help.stdout).toBeGreaterThan(10);
    // Each tool of the registry under its verb in the catalog; what each argument means to the model stays in its schema.
    const { t } = wordsFor('zh-CN');
    for (const name of ACTION_TOOLS.keys()) expect(toolList).toContain(`\n  ${name}  ${t(`common:action.verb.${name}.do`)}\n`);
    expect(toolList).toContain('\n  tap  点按\n      --element_id TEXT（可选）\n      --x N（可选） (0–100000)\n');
    expect(toolList).toContain('\n      --text TEXT\n');
    expect(toolList).toContain('选项名和列出的取值不分大小写（--key HOME）。');
    expectAllChinese(help.stdout);

    // English readers keep the tools' own words.
    const inEnglish = await runAmc(['act', '--help'], { env: english() });
    expect(inEnglish.stdout).toContain('\nTools:\n  tap  Tap once.\n      --element_id TEXT  (optional)  Id of an element in the current Scene');
    expect(inEnglish.stdout).toContain('Option names and named values are accepted in any case (--key HOME).');
  });

  it('Scenario: amc notes, cache and replay success lines are Chinese in a Chinese terminal', async () => {
    const wifi = taskById('settings-wifi-off');
    const steps = stepsPolicy(SUITE_SCRIPTS[wifi.id]!());
    // amc doctor's connection test sends no Scene: it gets an answer too.
    const fake = await startAnthropicFake({ policy: (turn) => (turn.scene ? steps(turn) : finish(true, 'ok')) });
    try {
      const learning = (lang: string) => anthropicDirectEnv(harness, home, fake.url, { ...env(lang), AMC_APP_NOTES: 'true', AI_PLANNER_REUSE_RUNS: 'true' });
      await harness.reset(wifi.seed ?? {});
      const goal = '关掉 Wi-Fi';
      const run = await runAmc(['run', '-s', harness.serial, '--goal', goal, '--yes', '--json'], { env: learning('zh_CN.UTF-8') });
      expect(run.code, run.stderr).toBe(0);
      const taskId = jsonEvents(run.stdout).find((event) => event.type === 'task.started')!.taskId;
      expect((await harness.state()).settings.wifi).toBe(false);

      const notes = await runAmc(['notes'], { env: learning('zh_CN.UTF-8') });
      expect(notes.stdout.trim()).toMatch(/^[0-9a-f-]{36} {2}com\.android\.settings {2}“关掉 Wi-Fi”：Settings > Network & internet > Wi-Fi$/);
      const cache = await runAmc(['cache'], { env: learning('zh_CN.UTF-8') });
      expect(cache.stdout.trim()).toBe(`${taskId}  com.android.launcher3  “${goal}”`);

      // The same task again on a fresh phone, without the model.
      await harness.reset(wifi.seed ?? {});
      const calls = fake.requests.length;
      const replayed = await runAmc(['replay', taskId, '-s', harness.serial, '--yes'], { env: learning('zh_CN.UTF-8') });
      expect(replayed.code, replayed.stderr).toBe(0);
      expect(fake.requests.length).toBe(calls);
      expect((await harness.state()).settings.wifi).toBe(false);
      expect(replayed.stdout).toMatch(/^完成（/m);

      const forgot = await runAmc(['cache', 'forget', goal], { env: learning('zh_CN.UTF-8') });
      expect(forgot.stdout.trim()).toBe(`已忘掉“${goal}”（任务 ${taskId}）：它的下一次运行由模型规划。`);
      // The replay learned the route again: the note's id is the one listed now.
      const [{ id: noteId }] = JSON.parse((await runAmc(['notes', '--json'], { env: learning('zh_CN.UTF-8') })).stdout) as [{ id: string }];
      const removed = await runAmc(['notes', 'remove', noteId], { env: learning('zh_CN.UTF-8') });
      expect(removed.stdout.trim(), removed.stderr).toBe(`已删除笔记 ${noteId}。`);
      const noNotes = await runAmc(['notes'], { env: learning('zh_CN.UTF-8') });
      expect(noNotes.stdout.trim()).toBe('还没有笔记：完成的任务会为它操作过的每个应用留下一条。');
      const noneForApp = await runAmc(['notes', '--app', 'com.android.settings'], { env: learning('zh_CN.UTF-8') });
      expect(noneForApp.stdout.trim()).toBe('com.android.settings 没有笔记。');
      const emptyCache = await runAmc(['cache', 'list'], { env: learning('zh_CN.UTF-8') });
      expect(emptyCache.stdout.trim()).toMatch(/^还没有可复用的运行/);
      const doctor = await runAmc(['doctor'], { env: learning('zh_CN.UTF-8') });
      expect(doctor.stdout).toMatch(/^正常\s+手机 \S+\s+就绪/m);
      const names = ['Wi-Fi', 'Settings > Network & internet > Wi-Fi', 'AMC_Virtual_Phone', 'Android', 'Anthropic'];
      for (const output of [notes.stdout, cache.stdout, replayed.stdout, forgot.stdout, removed.stdout, noNotes.stdout, noneForApp.stdout, emptyCache.stdout, doctor.stdout]) expectAllChinese(output, names);
    } finally {
      await fake.close();
    }
  });
});
