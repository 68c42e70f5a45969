// `amc flow check` and `amc flow run` in a Chinese terminal (LANG=zh_CN.UTF-8), run as a person runs them: a child
// process against the real adb server and the demo phone. Every problem of a broken flow file (ours and Maestro's),
// the header that counts them, and everything a run prints (the turn lines above the flow's heading, each step's
// status and what it found) are Chinese; any English sentence left (not a name, path, number or code) fails.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { runAmc } from '../support/cli';
import { latinSentences } from '../support/latin-sentences';

let harness: AdbHarness;
let home: string;

beforeAll(async () => {
  harness = await startAdbHarness();
  home = await mkdtemp(path.join(tmpdir(), 'amc-flow-chinese-'));
}, 60_000);

afterAll(async () => {
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

/** A Chinese terminal with no model: flow steps run without one. */
const env = () => ({ ANDROID_ADB_SERVER_PORT: String(harness.adbPort), HOME: harness.env.HOME, AMC_HOME: home, LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '' });
/** The demo phone's own words (its notes and buttons) are names, not sentences. */
const PHONE_NAMES = ['Shopping list', 'Ideas', 'New note', 'Notes'];
const expectAllChinese = (text: string) => expect(latinSentences(text, PHONE_NAMES), text).toEqual([]);
/** The step lines under the flow's heading. */
const stepLines = (stdout: string, file: string) => {
  const lines = stdout.split('\n');
  return lines.slice(lines.findIndex((line) => line.startsWith(`流程 ${file}`)) + 1).filter(Boolean);
};

async function flowFile(name: string, text: string): Promise<string> {
  const file = path.join(home, name);
  await writeFile(file, text);
  return file;
}

describe('amc flow in a Chinese terminal', { timeout: 120_000 }, () => {
  it("Scenario: A broken flow file's problems and a flow run's step words are Chinese in a Chinese terminal", async () => {
    // Ours: a step that is no kind of step, a field of the wrong type, a variable with no value, a --var it lacks.
    const ours = await flowFile('坏流程.yaml', 'goal: Open ${app}\nsteps:\n  - tapp: {text: OK}\n  - launch_app: {app: Notes}\n  - wait: {seconds: many}\n');
    const checked = await runAmc(['flow', 'check', ours, '--var', 'who=Ann'], { env: env() });
    expect(checked.code).toBe(2);
    expect(checked.stderr).toContain(`${ours} 有 4 个问题：`);
    expect(checked.stderr).toContain('第 1 行第 7 列：`${app}` 没有值：在 `vars:` 下设置它，或给出 `--var app=VALUE`');
    expect(checked.stderr).toMatch(/第 3 行第 \d+ 列：`tapp` 不是一种步：每一步是一个工具（`tap, /);
    expect(checked.stderr).toContain('--var who：这个流程没有变量 `who`（它的变量：app）');
    expectAllChinese(checked.stderr);

    // Maestro's: a command amc does not run, a selector field it does not read, a variable with no value.
    const maestro = await flowFile('maestro.yaml', 'appId: com.example.notes\n---\n- launchApp\n- runScript: setup.js\n- tapOn:\n    text: Save\n    traits: button\n- inputText: ${NAME}\n');
    const maestroChecked = await runAmc(['flow', 'check', maestro], { env: env() });
    expect(maestroChecked.code).toBe(2);
    expect(maestroChecked.stderr).toContain(`${maestro} 有 3 个问题：`);
    expect(maestroChecked.stderr).toContain('第 4 行第 3 列：runScript：amc 不运行这条 Maestro 命令；整个流程被拒绝，而不是跳过它运行');
    expect(maestroChecked.stderr).toContain('第 5 行第 3 列：tapOn：amc 暂时不认识选择器字段 `traits`');
    expect(maestroChecked.stderr).toContain('`${NAME}` 没有值：在 `env:` 下设置它，或给出 `-e NAME=VALUE`');
    expectAllChinese(maestroChecked.stderr);

    // Maestro's with bad YAML: our words first, the YAML reader's own quoted after them.
    const badYaml = await flowFile('bad-yaml.yaml', 'appId: com.example.notes\n---\n- tapOn: "Save\n- back\n');
    const yamlChecked = await runAmc(['flow', 'check', badYaml], { env: env() });
    expect(yamlChecked.code).toBe(2);
    expect(yamlChecked.stderr).toMatch(/第 \d+ 行第 \d+ 列：不是有效的 YAML（YAML 读取器说：“.+”）/);
    expectAllChinese(yamlChecked.stderr);

    // A passing run and a failing one on the demo phone: the turn lines above the heading, the status words and
    // counts, and what each step found.
    const passing = await flowFile('打开笔记.yaml', 'goal: 打开笔记\nsteps:\n  - launch_app: Notes\n  - assert: {app: com.amc.notes}\n  - press_key: back\n');
    const passed = await runAmc(['flow', 'run', passing, '-s', harness.serial], { env: env() });
    expect(passed.code, passed.stderr).toBe(0);
    expect(passed.stdout).toContain(`流程 ${passing}：3 步中 3 步通过`);
    // The replay's rationale, the check it confirmed on the way, and the run's end.
    expect(passed.stdout).toContain('理由: 打开 Notes（流程的第 1 步）');
    expect(passed.stdout).toContain('理由: 按 Back（流程的第 3 步）（已检查：com.amc.notes 在前台。）');
    expect(passed.stdout).toMatch(/^完成（.+）：流程的每一步都完成了$/m);
    expect(stepLines(passed.stdout, passing)).toEqual([
      expect.stringMatching(/^ {2}通过 +1\. launch_app: Notes — com\.amc\.notes 在前台$/),
      expect.stringMatching(/^ {2}通过 +2\. assert: \{ app: com\.amc\.notes \} — com\.amc\.notes 在前台$/),
      expect.stringMatching(/^ {2}通过 +3\. press_key: back — 屏幕变了$/),
    ]);
    expectAllChinese(passed.stdout);

    const failing = await flowFile('找不到按钮.yaml', 'goal: 点按不存在的按钮\nsteps:\n  - launch_app: Notes\n  - tap: {text: 不存在的按钮, timeout: 1500}\n  - press_key: back\n');
    const failed = await runAmc(['flow', 'run', failing, '-s', harness.serial], { env: env() });
    expect(failed.code).not.toBe(0);
    expect(failed.stdout).toContain(`流程 ${failing}：3 步中 1 步通过（1 步失败，1 步未运行）`);
    // The run's reason names the step; the step's own line says what the screen showed instead, and how long it waited.
    expect(failed.stdout).toMatch(/^失败（.+）：第 2 步：这个屏幕上没有 “不存在的按钮”；我看到：.*Notes.*（等屏幕等了 \d+\.\d 秒）$/m);
    expect(stepLines(failed.stdout, failing)).toEqual([
      expect.stringMatching(/^ {2}通过 +1\. launch_app: Notes — com\.amc\.notes 在前台$/),
      expect.stringMatching(/^ {2}失败 +2\. tap: \{ text: 不存在的按钮, timeout: 1500 \} — 这个屏幕上没有 “不存在的按钮”；我看到：.+（等屏幕等了 \d+\.\d 秒）$/),
      expect.stringMatching(/^ {2}未运行 +3\. press_key: back — 未运行：前面有一步没有通过$/),
    ]);
    expect((await harness.control<{ foreground: string }>('/state')).body.foreground).toMatch(/notes/);
    expectAllChinese(failed.stdout);

    // A Maestro flow without a name: its goal, each step's line in the file, and a visible check are Chinese too.
    const unnamed = await flowFile('unnamed.yaml', 'appId: com.amc.notes\n---\n- launchApp\n- assertVisible: Shopping list\n');
    const maestroRun = await runAmc(['flow', 'run', unnamed, '-s', harness.serial], { env: env() });
    expect(maestroRun.code, maestroRun.stderr).toBe(0);
    expect(maestroRun.stdout).toContain('目标：com.amc.notes 的 Maestro 流程');
    expect(maestroRun.stdout).toMatch(/^ {2}通过 +3\. 第 4 行：assert: \{ visible: Shopping list \} — 屏幕上有“Shopping list”（.+）$/m);
    expectAllChinese(maestroRun.stdout);
  });
});
